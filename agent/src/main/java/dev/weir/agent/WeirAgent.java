package dev.weir.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * The agent's entry point ({@code Premain-Class} and {@code Agent-Class}), loaded by the system
 * class loader. It does as little as possible and never throws (a start that fails before {@code
 * main} stops the JVM with exit code 1, rather than let it run unlimited): it appends its own jar
 * to the bootstrap class path, so that the Weir API and the bridge that woven code calls are
 * visible from every class loader, then hands over to {@code
 * dev.weir.agent.bootstrap.AgentInitializer}. Nothing here touches logging, JMX or the
 * application's classes. This class holds no state and is not referenced again.
 */
public final class WeirAgent {
  private static final String INITIALIZER = "dev.weir.agent.bootstrap.AgentInitializer";

  private WeirAgent() {}

  /**
   * Starts the agent before {@code main}: {@code java -javaagent:weir-agent.jar[=ARGS] ...}. An
   * unknown or invalid argument, or an invalid config file, stops the JVM here with exit code 1.
   *
   * @param args {@code key=value} pairs separated by {@code ,}, as {@code
   *     dev.weir.agent.config.AgentArgs} reads them
   * @param instrumentation the JVM's instrumentation
   */
  public static void premain(String args, Instrumentation instrumentation) {
    start(args, instrumentation, true);
  }

  /**
   * Starts the agent in a running JVM ({@code jcmd PID JVMTI.agent_load weir-agent.jar ARGS}) and
   * weaves the classes already loaded. An unknown or invalid argument refuses the attach whole.
   *
   * @param args as for {@link #premain(String, Instrumentation)}
   * @param instrumentation the JVM's instrumentation
   */
  public static void agentmain(String args, Instrumentation instrumentation) {
    start(args, instrumentation, false);
  }

  private static void start(String args, Instrumentation instrumentation, boolean premain) {
    try {
      File jar =
          new File(WeirAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Class<?> initializer;
      try {
        initializer = Class.forName(INITIALIZER, true, null); // a second attach
      } catch (ClassNotFoundException first) {
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar));
        initializer = Class.forName(INITIALIZER, true, null);
      }
      initializer
          .getMethod("start", String.class, Instrumentation.class, File.class, boolean.class)
          .invoke(null, args, instrumentation, jar, premain);
    } catch (Throwable t) {
      Throwable cause = t.getCause() != null ? t.getCause() : t;
      if (premain) {
        // never a JVM that runs with its limits off, as a bad config file or argument stops it
        System.err.println(
            "[weir] ERROR the agent could not start ("
                + cause
                + "); stopping the JVM before main (exit code 1) rather than run it unlimited");
        System.exit(1);
      }
      System.err.println("[weir] ERROR the agent did not start; nothing is limited: " + cause);
    }
  }
}
