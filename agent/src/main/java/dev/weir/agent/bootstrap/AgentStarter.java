package dev.weir.agent.bootstrap;

import java.lang.instrument.Instrumentation;

/**
 * The hand-off from the boot tier to the agent tier: {@link AgentInitializer} creates the agent
 * tier's implementation ({@code dev.weir.agent.ops.AgentStart}) in the agent's own class loader and
 * calls it only through this interface, which the boot tier declares so that both tiers see the
 * same type (after the OpenTelemetry agent's {@code AgentStarter}). The implementation's class name
 * is the only name the boot tier holds of the agent tier.
 *
 * <p>Called under {@link AgentInitializer}'s lock, one call at a time, on the thread that runs
 * {@code premain} or {@code agentmain}.
 */
public interface AgentStarter {
  /**
   * Starts Weir: reads the agent arguments and the config file, registers the limiters and installs
   * the weaving.
   *
   * @param args the agent's arguments ({@code key=value,...}), or null
   * @param instrumentation the JVM's instrumentation
   * @param premain true before {@code main}, false when attached to a running JVM
   * @param version the agent jar's {@code Implementation-Version}, or null
   * @return true when Weir runs; false when it was disabled ({@code enabled=false}), which leaves a
   *     later attach free to start it
   * @throws RuntimeException an invalid argument or config file, with the errors already logged;
   *     before {@code main} the caller stops the JVM
   */
  boolean start(String args, Instrumentation instrumentation, boolean premain, String version);

  /**
   * A later attach to a JVM in which Weir already runs: reloads the config file that {@code args}
   * names (and the few arguments that may change live), or logs why nothing changed. Never throws
   * for bad input: errors are logged and nothing changes.
   *
   * @param args the attach's arguments, or null
   */
  void again(String args);
}
