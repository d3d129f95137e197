/**
 * The boot tier's plumbing: {@code AgentLog} (the agent's one log, to {@code System.err}), {@code
 * CallDepth} (the per-thread cells that tell a woven call nested or Weir's own), Weir's threads,
 * the class loader of the agent tier, and the start ({@code AgentInitializer}, which calls the
 * agent tier through {@code AgentStarter}, an interface declared here).
 *
 * <p>Loaded by the bootstrap class loader, visible to every class loader. May import: the JDK only.
 * Every other package may import it. See ARCHITECTURE.md, "Idioms".
 */
package dev.weir.agent.bootstrap;
