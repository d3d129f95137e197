/**
 * Apply a config: {@code ConfigPipeline}, the one sequence that turns a config file into live
 * limiters for the start, every reload and an attach (read, check whole, register, install the HTTP
 * gate); {@code LimitSet}, a file's limiters and how a reload changes them; {@code Limiters}, where
 * limiters are made; the key-type checks and the class-file reader they use.
 *
 * <p>Agent tier. May import: {@code backend}, {@code config}, the boot tier and the JDK. See
 * ARCHITECTURE.md, "A config file".
 */
package dev.weir.agent.control;
