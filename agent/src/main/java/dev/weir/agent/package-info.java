/**
 * The agent's entry point, {@code WeirAgent} ({@code Premain-Class} and {@code Agent-Class}),
 * loaded by the system class loader: it appends the agent jar to the bootstrap class path and hands
 * over to {@link dev.weir.agent.bootstrap.AgentInitializer}, by name, and never throws.
 *
 * <p>May import: the JDK only (it reaches the boot tier by a class name, as nothing of Weir is on
 * the bootstrap class path before it runs). Nothing imports it. See ARCHITECTURE.md, "The agent's
 * three tiers".
 */
package dev.weir.agent;
