package dev.weir.agent.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * Creates the agent's own class loader and starts the agent inside it, once per JVM.
 *
 * <p>Lives in the bootstrap class loader (the agent jar is appended to the bootstrap class path by
 * {@code WeirAgent}), so a second start, from a second attach, finds the first one's state.
 */
public final class AgentInitializer {
  /** The agent tier's {@link AgentStarter}, the one name of it the boot tier holds. */
  private static final String STARTER = "dev.weir.agent.ops.AgentStart";

  /** The agent tier once it runs; null before, and after a start that found Weir disabled. */
  private static AgentStarter started;

  /** The system property an attach leaves its report in, for {@code weir-agent.jar attach}. */
  public static final String ATTACH_REPORT = "weir.attach.report";

  private AgentInitializer() {}

  /**
   * Starts the agent, or, in a JVM where it weaves already, hands a later attach's arguments to it
   * (a reload). On attach, the lines the agent logs meanwhile are also left in the system property
   * {@value #ATTACH_REPORT}, so that the command line that attached can print them in its own
   * terminal.
   *
   * @param args the agent argument string, may be null
   * @param instrumentation the JVM's instrumentation
   * @param agentJar the agent jar
   * @param premain true at JVM start, false on attach
   * @throws Exception if the agent's classes cannot be loaded (a broken jar)
   */
  public static synchronized void start(
      String args, Instrumentation instrumentation, File agentJar, boolean premain)
      throws Exception {
    int[] section = CallDepth.enterWeir(); // the agent's start is its own work: never charged
    try {
      if (!premain) {
        AgentLog.capture(true);
      }
      try {
        startOwn(args, instrumentation, agentJar, premain);
      } catch (Exception e) {
        AgentLog.error("the agent did not start; nothing is limited: " + e);
        throw e;
      } finally {
        if (!premain) {
          System.setProperty(ATTACH_REPORT, String.join("\n", AgentLog.capture(false)));
        }
      }
    } finally {
      section[0]--;
    }
  }

  /** The agent jar's version, once started; null before (and in unit tests). */
  private static volatile String version;

  /**
   * The agent's version, as its jar's manifest gives it.
   *
   * @return the version; {@code "version unknown"} before the agent started
   */
  public static String version() {
    String v = version;
    return v != null ? "version " + v : "version unknown";
  }

  private static void startOwn(
      String args, Instrumentation instrumentation, File agentJar, boolean premain)
      throws Exception {
    if (started != null) {
      started.again(args);
      return;
    }
    JarFile jar = new JarFile(agentJar);
    String version =
        jar.getManifest().getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
    AgentInitializer.version = version;
    ClassLoader loader = new AgentClassLoader(agentJar, jar, platformLoader());
    AgentStarter starter =
        Class.forName(STARTER, true, loader)
            .asSubclass(AgentStarter.class)
            .getConstructor()
            .newInstance();
    if (starter.start(args, instrumentation, premain, version)) {
      started = starter; // a disabled start leaves a later attach free to start
    }
  }

  /**
   * The platform class loader on Java 9+ (where some JDK modules live), the extension loader on
   * Java 8. Not {@code ClassLoader.getPlatformClassLoader()} through reflection: that method is
   * caller-sensitive, and calling it reflectively makes the JDK generate annotation proxies, a
   * visible cost at start-up.
   */
  private static ClassLoader platformLoader() {
    return ClassLoader.getSystemClassLoader().getParent();
  }
}
