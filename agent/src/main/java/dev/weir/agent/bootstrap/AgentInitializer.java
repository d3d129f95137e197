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
  private static final String INSTALLER = "dev.weir.agent.weave.WeirInstaller";
  private static boolean started;

  private AgentInitializer() {}

  /**
   * Starts the agent unless it is weaving already.
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
    if (started) {
      AgentLog.warn("weir is already weaving in this JVM; this start changes nothing");
      return;
    }
    JarFile jar = new JarFile(agentJar);
    String version =
        jar.getManifest().getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
    ClassLoader loader = new AgentClassLoader(agentJar, jar, platformLoader());
    Object weaving =
        Class.forName(INSTALLER, true, loader)
            .getMethod("install", String.class, Instrumentation.class, boolean.class, String.class)
            .invoke(null, args, instrumentation, premain, version);
    started = Boolean.TRUE.equals(weaving); // a disabled start leaves a later attach free to start
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
