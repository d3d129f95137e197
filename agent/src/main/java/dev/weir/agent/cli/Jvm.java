package dev.weir.agent.cli;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A local JVM, through the JDK's attach API ({@code com.sun.tools.attach}, module {@code
 * jdk.attach}; reached by reflection, as the agent jar is Java 8 bytecode and the command line runs
 * on JDK 9 or later) and its local management connector. Loads no agent unless asked ({@link
 * #loadAgent}).
 */
final class Jvm implements AutoCloseable {
  /** The system property a running Weir agent sets to its version. */
  static final String MARKER = "dev.weir.agent.version";

  /** The system property an attach of the agent leaves its report in. */
  static final String ATTACH_REPORT = "weir.attach.report";

  private final String pid;
  private final Object vm;
  private JMXConnector connector;

  private Jvm(String pid, Object vm) {
    this.pid = pid;
    this.vm = vm;
  }

  /** A problem the operator is told in one line; the command exits with status 1. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  /**
   * Attaches to a local JVM.
   *
   * @param pid its process id
   * @return the JVM
   * @throws Failure if there is no such JVM, or this user cannot attach to it
   */
  static Jvm attach(String pid) throws Failure {
    try {
      Object vm = vmClass().getMethod("attach", String.class).invoke(null, pid);
      return new Jvm(pid, vm);
    } catch (InvocationTargetException e) {
      throw new Failure(
          "no JVM with pid "
              + pid
              + " that this user can attach to ("
              + e.getCause().getMessage()
              + ")");
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    }
  }

  /**
   * The local JVMs this user may attach to, as {@code {pid, display name}}.
   *
   * @return the JVMs
   * @throws Failure if the JDK has no attach API
   */
  static List<String[]> list() throws Failure {
    List<String[]> found = new ArrayList<String[]>();
    try {
      Class<?> descriptor = Class.forName("com.sun.tools.attach.VirtualMachineDescriptor");
      Method id = descriptor.getMethod("id");
      Method name = descriptor.getMethod("displayName");
      for (Object d : (List<?>) vmClass().getMethod("list").invoke(null)) {
        found.add(new String[] {(String) id.invoke(d), (String) name.invoke(d)});
      }
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    }
    return found;
  }

  private static Class<?> vmClass() throws ClassNotFoundException {
    return Class.forName("com.sun.tools.attach.VirtualMachine");
  }

  private static Failure noAttachApi(Exception e) {
    return new Failure(
        "this JVM has no attach API ("
            + e
            + "): run the command line with a JDK 9 or later, not a JRE");
  }

  /**
   * The JVM's system properties.
   *
   * @return the properties
   * @throws Failure if they cannot be read
   */
  Properties systemProperties() throws Failure {
    return (Properties) call("getSystemProperties", new Class<?>[0]);
  }

  /**
   * Whether the JVM runs Weir.
   *
   * @return the agent's version, or null
   * @throws Failure if its properties cannot be read
   */
  String weirVersion() throws Failure {
    return systemProperties().getProperty(MARKER);
  }

  /**
   * The JVM's MBeans, through its local management connector (started if it was not).
   *
   * @return the connection
   * @throws Failure if it cannot be had
   */
  MBeanServerConnection mbeans() throws Failure {
    if (connector == null) {
      String address = (String) call("startLocalManagementAgent", new Class<?>[0]);
      try {
        connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
      } catch (IOException e) {
        throw new Failure("cannot connect to JVM " + pid + "'s MBeans: " + e.getMessage());
      }
    }
    try {
      return connector.getMBeanServerConnection();
    } catch (IOException e) {
      throw new Failure("cannot connect to JVM " + pid + "'s MBeans: " + e.getMessage());
    }
  }

  /**
   * Loads an agent jar into the JVM, as {@code -javaagent} would at start.
   *
   * @param jar the agent jar
   * @param options its argument string, or null
   * @return null if it loaded; otherwise why not
   * @throws Failure if the JVM cannot load agents at all
   */
  String loadAgent(String jar, String options) throws Failure {
    try {
      vmClass().getMethod("loadAgent", String.class, String.class).invoke(vm, jar, options);
      return null;
    } catch (InvocationTargetException e) {
      return String.valueOf(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    }
  }

  private Object call(String method, Class<?>[] types, Object... args) throws Failure {
    try {
      return vmClass().getMethod(method, types).invoke(vm, args);
    } catch (InvocationTargetException e) {
      throw new Failure("JVM " + pid + ": " + method + " failed: " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    }
  }

  @Override
  public void close() {
    try {
      if (connector != null) {
        connector.close();
      }
    } catch (IOException ignored) {
      // closing anyway
    }
    try {
      vmClass().getMethod("detach").invoke(vm);
    } catch (ReflectiveOperationException ignored) {
      // detaching anyway
    }
  }
}
