/**
 * Read and validate: the agent's arguments ({@code AgentArgs}), the YAML config file ({@code
 * ConfigFile}, every error at once with its line and key: {@code YamlFields} reads typed values,
 * {@code EntryReader} each entry of {@code limits}, {@code Variables} the {@code ${NAME}}s),
 * immutable limit specifications ({@code LimitSpec}, {@code ConfigLimit}), method patterns, the
 * backend URI and its TLS settings. Nothing here changes a live limit. See docs/config-file.md.
 *
 * <p>Agent tier. May import: the boot tier (for {@code LimitRules} and the types a spec names), the
 * relocated SnakeYAML Engine and the JDK.
 */
package dev.weir.agent.config;
