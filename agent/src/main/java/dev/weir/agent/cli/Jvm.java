package dev.weir.agent.cli;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A local JVM, through the JDK's attach API ({@code com.sun.tools.attach}, module {@code
 * jdk.attach}; reached by reflection, as the agent jar is Java 8 bytecode and the command line runs
 * on JDK 9 or later) and its local management connector. Loads no agent unless asked ({@link
 * #loadAgent}).
 *
 * <p>Only a process the JDK lists as a JVM is attached to. HotSpot's attach sends SIGQUIT to a JVM
 * whose attach listener has not started yet, and a process that is no JVM dies of that signal; so a
 * pid the JDK does not list, one whose listing is a file a crashed JVM left behind, and a stopped
 * JVM (the signal would wait, then print a thread dump into the application's output) are each one
 * line, and nothing is sent to them. Every exchange with the JVM (the attach, each read, each MBean
 * call) has a deadline: a JVM that does not answer is one line, never a hang.
 *
 * <p>Not thread-safe: one command uses one; {@link #list} and {@link #open} may run on several
 * threads at once for different JVMs.
 */
final class Jvm implements AutoCloseable {
  /** The system property a running Weir agent sets to its version. */
  static final String MARKER = "dev.weir.agent.version";

  /** The system property in which Weir tells how many limiters it holds. */
  static final String LIMITERS = "dev.weir.agent.limiters";

  /** The system property an attach of the agent leaves its report in. */
  static final String ATTACH_REPORT = "weir.attach.report";

  /** Milliseconds one exchange with a JVM may take before it is taken as not answering. */
  static final long ANSWER_MILLIS = 10_000;

  /**
   * Milliseconds an exchange that works inside the JVM may take: loading the agent (which weaves
   * the classes loaded already) or a reload (which may weave new patterns).
   */
  static final long WORK_MILLIS = 120_000;

  /**
   * How long the JDK waits for a JVM to start its attach listener, unless the operator set it: less
   * than {@link #ANSWER_MILLIS}, so that the JDK gives up, and removes the file it made for the
   * handshake, before the command does.
   */
  private static final String ATTACH_TIMEOUT_PROPERTY = "sun.tools.attach.attachTimeout";

  private static final String ATTACH_TIMEOUT_MILLIS = "5000";

  private static final String NOTHING_SENT = "; nothing was sent to it";

  /** The attach provider that lists JVMs from their performance-data files. */
  private static final String HOTSPOT_PROVIDER_PACKAGE = "sun.tools.attach.";

  /** Runs each exchange, so that the caller can stop waiting for it; daemon threads. */
  private static final ExecutorService EXCHANGES =
      Executors.newCachedThreadPool(
          new ThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
              Thread t = new Thread(r, "weir-exchange");
              t.setDaemon(true);
              return t;
            }
          });

  private final String pid;
  private final Object vm;
  private JMXConnector connector;
  private MBeanServerConnection connection;

  private Jvm(String pid, Object vm) {
    this.pid = pid;
    this.vm = vm;
  }

  /** A problem the operator is told in one line; the command exits with status 1. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    /** Whether the JVM is there but did not answer (stopped, or past a deadline). */
    final boolean noAnswer;

    Failure(String message) {
      this(message, false);
    }

    Failure(String message, boolean noAnswer) {
      super(message);
      this.noAnswer = noAnswer;
    }
  }

  /**
   * A JVM that did not answer an MBean call within its deadline: an {@link IOException}, as the
   * calls of an {@link MBeanServerConnection} declare; {@link #failure} makes it a {@link Failure}.
   */
  static final class NoAnswer extends IOException {
    private static final long serialVersionUID = 1L;

    NoAnswer(String message) {
      super(message);
    }
  }

  /** A JVM the JDK lists. */
  static final class Listed {
    /** Its process id. */
    final String pid;

    /** Its command line as the JDK gives it (main class or jar, then arguments); may be empty. */
    final String name;

    /** Whether the listing comes from HotSpot's performance-data files. */
    final boolean fromPerfData;

    Listed(String pid, String name, boolean fromPerfData) {
      this.pid = pid;
      this.name = name;
      this.fromPerfData = fromPerfData;
    }
  }

  /**
   * Attaches to a local JVM, if the JDK lists it; sends nothing to a process it does not list.
   *
   * @param pid its process id
   * @return the JVM
   * @throws Failure if there is no such JVM, this user cannot attach to it, or it does not answer
   *     (then {@link Failure#noAnswer})
   */
  static Jvm attach(String pid) throws Failure {
    for (Listed jvm : list()) {
      if (jvm.pid.equals(pid)) {
        return open(jvm);
      }
    }
    throw new Failure(notListed(pid));
  }

  /** Why the JDK does not list {@code pid}, in one line naming the causes that remain. */
  private static String notListed(String pid) {
    LocalProcess process = new LocalProcess(pid);
    if (process.gone()) {
      return "no JVM with pid " + pid + ": no such process";
    }
    long owner = process.owner();
    long self = LocalProcess.self();
    String causes;
    if (owner >= 0 && self >= 0 && owner != self && self != 0) {
      causes = "it is another user's process (uid " + owner + "): run the command as that user";
    } else if (owner >= 0 && self >= 0) {
      causes =
          "it is not a JVM, or a JVM started with -XX:+PerfDisableSharedMem (or -XX:-UsePerfData),"
              + " which the JDK cannot list";
    } else {
      causes =
          "it is not a JVM, or another user's, or a JVM started with -XX:+PerfDisableSharedMem"
              + " (or -XX:-UsePerfData), which the JDK cannot list";
    }
    return "no JVM with pid " + pid + " that this user can attach to: " + causes + NOTHING_SENT;
  }

  /**
   * Attaches to a JVM the JDK listed, unless it is stopped or its listing is stale.
   *
   * @param jvm the JVM, as {@link #list} gave it
   * @return the JVM
   * @throws Failure if it is no JVM after all, cannot be attached to, or does not answer (then
   *     {@link Failure#noAnswer})
   */
  static Jvm open(Listed jvm) throws Failure {
    String pid = jvm.pid;
    LocalProcess process = new LocalProcess(pid);
    if (jvm.fromPerfData && !process.mayBeListedJvm()) {
      throw new Failure(
          "no JVM with pid "
              + pid
              + ": the JDK lists it from a file a JVM that ended left behind (hsperfdata), and the"
              + " process with that pid now is not a JVM"
              + NOTHING_SENT);
    }
    if (process.stopped()) {
      throw new Failure(
          "JVM " + pid + " does not answer: it is " + stoppedBy() + NOTHING_SENT, true);
    }
    if (System.getProperty(ATTACH_TIMEOUT_PROPERTY) == null) {
      System.setProperty(ATTACH_TIMEOUT_PROPERTY, ATTACH_TIMEOUT_MILLIS);
    }
    try {
      Method attach = vmClass().getMethod("attach", String.class);
      return new Jvm(pid, invokeWithin(pid, ANSWER_MILLIS, attach, null, new Object[] {pid}));
    } catch (InvocationTargetException e) {
      if (process.gone()) {
        throw new Failure("no JVM with pid " + pid + ": it has just ended");
      }
      throw new Failure(
          "JVM " + pid + " did not take the attach: " + e.getCause().getMessage(), true);
    } catch (Failure e) {
      throw e;
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    } catch (Exception e) {
      throw new Failure("JVM " + pid + ": the attach failed: " + e);
    }
  }

  private static String stoppedBy() {
    return "stopped (by SIGSTOP, or held by a debugger)";
  }

  /**
   * The local JVMs this user may attach to, as the JDK lists them; nothing is sent to any.
   *
   * @return the JVMs
   * @throws Failure if the JDK has no attach API
   */
  static List<Listed> list() throws Failure {
    List<Listed> found = new ArrayList<Listed>();
    try {
      Class<?> descriptor = Class.forName("com.sun.tools.attach.VirtualMachineDescriptor");
      Method id = descriptor.getMethod("id");
      Method name = descriptor.getMethod("displayName");
      Method provider = descriptor.getMethod("provider");
      for (Object d : (List<?>) vmClass().getMethod("list").invoke(null)) {
        String by = provider.invoke(d).getClass().getName();
        found.add(
            new Listed(
                (String) id.invoke(d),
                (String) name.invoke(d),
                by.startsWith(HOTSPOT_PROVIDER_PACKAGE)));
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
   * Runs one exchange with a JVM, waiting for it at most {@code millis}.
   *
   * @param pid the JVM's, for the message
   * @param millis milliseconds to wait, {@code > 0}
   * @param exchange the exchange
   * @return its result
   * @throws Failure with {@link Failure#noAnswer} if it did not end in time (it is left to end on a
   *     daemon thread)
   * @throws Exception what the exchange threw
   */
  static <T> T bounded(String pid, long millis, Callable<T> exchange) throws Exception {
    Future<T> answer = EXCHANGES.submit(exchange);
    try {
      return answer.get(millis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new Failure(noAnswer(pid, millis), true);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw e;
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      throw new Failure("interrupted while JVM " + pid + " was being asked");
    }
  }

  /** {@link #bounded} reflection: {@code method.invoke(target, args)} within {@code millis}. */
  private static Object invokeWithin(
      String pid, long millis, final Method method, final Object target, final Object[] args)
      throws Exception {
    return bounded(
        pid,
        millis,
        new Callable<Object>() {
          @Override
          public Object call() throws Exception {
            return method.invoke(target, args);
          }
        });
  }

  /**
   * Runs a task on a daemon thread, as {@link #bounded} runs exchanges: for asking several JVMs at
   * once.
   *
   * @param task the task
   * @return its future
   */
  static <T> Future<T> async(Callable<T> task) {
    return EXCHANGES.submit(task);
  }

  private static String noAnswer(String pid, long millis) {
    return String.format(
        Locale.ROOT,
        "JVM %s did not answer within %s s%s",
        pid,
        millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.valueOf(millis / 1000.0),
        new LocalProcess(pid).stopped() ? ": it is " + stoppedBy() : "");
  }

  /**
   * The one line a failed exchange with this JVM makes.
   *
   * @param pid the JVM's
   * @param e what the exchange threw
   * @return the failure to report
   */
  static Failure failure(String pid, Exception e) {
    if (e instanceof Failure) {
      return (Failure) e;
    }
    if (e instanceof NoAnswer) {
      return new Failure(e.getMessage(), true);
    }
    return new Failure("JVM " + pid + ": " + e);
  }

  /**
   * The JVM's system properties.
   *
   * @return the properties
   * @throws Failure if they cannot be read
   */
  Properties systemProperties() throws Failure {
    return (Properties) call("getSystemProperties", ANSWER_MILLIS, new Class<?>[0]);
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
   * The JVM's MBeans, through its local management connector (started if it was not), each call
   * waiting at most {@link #ANSWER_MILLIS}.
   *
   * @return the connection; a call past its deadline throws {@link NoAnswer}
   * @throws Failure if it cannot be had
   */
  MBeanServerConnection mbeans() throws Failure {
    return mbeans(ANSWER_MILLIS);
  }

  /**
   * The JVM's MBeans, each call waiting at most {@code millis}.
   *
   * @param millis milliseconds a call may take, {@code > 0}
   * @return the connection; a call past its deadline throws {@link NoAnswer}
   * @throws Failure if it cannot be had
   */
  MBeanServerConnection mbeans(final long millis) throws Failure {
    if (connection == null) {
      final String address = (String) call("startLocalManagementAgent", ANSWER_MILLIS);
      try {
        connector =
            bounded(
                pid,
                ANSWER_MILLIS,
                new Callable<JMXConnector>() {
                  @Override
                  public JMXConnector call() throws IOException {
                    return JMXConnectorFactory.connect(new JMXServiceURL(address));
                  }
                });
        connection = connector.getMBeanServerConnection();
      } catch (Failure e) {
        throw e;
      } catch (Exception e) {
        throw new Failure("cannot connect to JVM " + pid + "'s MBeans: " + e.getMessage());
      }
    }
    final MBeanServerConnection direct = connection;
    return (MBeanServerConnection)
        Proxy.newProxyInstance(
            Jvm.class.getClassLoader(),
            new Class<?>[] {MBeanServerConnection.class},
            new InvocationHandler() {
              @Override
              public Object invoke(Object proxy, final Method method, final Object[] args)
                  throws Throwable {
                try {
                  return invokeWithin(pid, millis, method, direct, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                } catch (Failure e) {
                  throw new NoAnswer(e.getMessage());
                }
              }
            });
  }

  /**
   * Loads an agent jar into the JVM, as {@code -javaagent} would at start.
   *
   * @param jar the agent jar
   * @param options its argument string, or null
   * @return null if it loaded; otherwise why not
   * @throws Failure if the JVM cannot load agents at all, or did not answer within {@link
   *     #WORK_MILLIS}
   */
  String loadAgent(String jar, String options) throws Failure {
    try {
      call("loadAgent", WORK_MILLIS, new Class<?>[] {String.class, String.class}, jar, options);
      return null;
    } catch (Failure e) {
      if (e.noAnswer || !(e.getCause() instanceof InvocationTargetException)) {
        throw e;
      }
      return String.valueOf(e.getCause().getCause());
    }
  }

  private Object call(String method, long millis, Class<?>[] types, Object... args) throws Failure {
    try {
      return invokeWithin(pid, millis, vmClass().getMethod(method, types), vm, args);
    } catch (InvocationTargetException e) {
      Failure f = new Failure("JVM " + pid + ": " + method + " failed: " + e.getCause());
      f.initCause(e);
      throw f;
    } catch (Failure e) {
      throw e;
    } catch (ReflectiveOperationException e) {
      throw noAttachApi(e);
    } catch (Exception e) {
      throw new Failure("JVM " + pid + ": " + method + " failed: " + e);
    }
  }

  private Object call(String method, long millis) throws Failure {
    return call(method, millis, new Class<?>[0]);
  }

  /** Closes the connector (waiting at most a second: the JVM may not answer) and detaches. */
  @Override
  public void close() {
    if (connector != null) {
      final JMXConnector c = connector;
      try {
        bounded(
            pid,
            1_000,
            new Callable<Void>() {
              @Override
              public Void call() throws IOException {
                c.close();
                return null;
              }
            });
      } catch (Exception ignored) {
        // closing anyway
      }
    }
    try {
      vmClass().getMethod("detach").invoke(vm);
    } catch (ReflectiveOperationException ignored) {
      // detaching anyway
    }
  }
}
