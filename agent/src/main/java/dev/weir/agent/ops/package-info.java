/**
 * Operating a running agent: {@code AgentStart} (the agent tier's {@code AgentStarter}), the JMX
 * beans, the Prometheus endpoint, the config watch, the periodic summary and the table the command
 * line prints. JMX is set up after {@code premain}, never during it. See docs/operations.md.
 *
 * <p>Agent tier, its top. May import: every agent package but {@code cli}, the boot tier and the
 * JDK.
 */
package dev.weir.agent.ops;
