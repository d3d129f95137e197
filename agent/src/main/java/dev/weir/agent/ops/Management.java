package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.weave.Weaving;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Weir's management thread, {@code weir-management}: every 250 ms it drops the limiters of
 * collected class loaders, registers an MBean for each new limiter and unregisters those of
 * limiters gone (so each is visible within a second of its creation), and once a second collects
 * the limiters' recorded waits.
 *
 * <p>JMX is touched only on this thread, never in {@code premain}, and only once there is something
 * to show (a limiter, a config file, a metrics endpoint). Touching it initialises the JDK's {@code
 * LogManager}, so when the application names its own ({@code -Djava.util.logging.manager=...}, as
 * WildFly does), nothing is registered before that class has loaded; waits are still collected
 * meanwhile. Failures are logged and the thread carries on. Thread-confined, apart from {@link
 * #limiterBeans()}, which is synchronized.
 */
final class Management implements Runnable {
  static final long TICK_MILLIS = 250;

  /** The JMX domain of Weir's MBeans. */
  static final String DOMAIN = "dev.weir";

  private final Weaving weaving;
  private final String logManager = System.getProperty("java.util.logging.manager");
  private final Map<Limiter, ObjectName> registered = new IdentityHashMap<Limiter, ObjectName>();
  private final List<Runnable> everySecond = new ArrayList<Runnable>();
  private final List<Runnable> onJmxReady = new ArrayList<Runnable>();
  private final AgentBean agentBean;
  private MBeanServer server;
  private int seenVersion = -1;
  private int toldVersion = -1;
  private boolean waitingReported;
  private String lastFailure;

  private Management(Weaving weaving, AgentBean agentBean) {
    this.weaving = weaving;
    this.agentBean = agentBean;
  }

  /**
   * Makes the management thread, not started yet.
   *
   * @param weaving the agent
   * @param agentBean the agent's MBean
   * @return the management, for the parts that run on its tick
   */
  static Management create(Weaving weaving, AgentBean agentBean) {
    return new Management(weaving, agentBean);
  }

  /** Starts the thread, once the tasks are added. */
  void start() {
    AgentThreads.start(this, "weir-management");
  }

  /**
   * Runs {@code task} once a second on this thread, after the limiters' waits are collected.
   *
   * @param task a task that returns quickly and never blocks for long
   */
  synchronized void everySecond(Runnable task) {
    everySecond.add(task);
  }

  /**
   * Runs {@code task} once on this thread, as soon as the JDK's management and logging may be
   * touched (at once, unless the application names its own log manager and it has not loaded). Must
   * be called before the thread starts ({@link #start}'s caller, through {@code init}).
   *
   * @param task the task
   */
  void whenJmxReady(Runnable task) {
    onJmxReady.add(task);
  }

  @Override
  public void run() {
    if (logManager != null) {
      weaving.watchForClass(logManager);
    }
    for (long tick = 0; ; tick++) {
      try {
        tick(tick % (1_000 / TICK_MILLIS) == 0);
      } catch (Throwable t) {
        String failure = String.valueOf(t);
        if (!failure.equals(lastFailure)) { // once per kind of failure, not four times a second
          AgentLog.error("the management thread failed and carries on: " + failure);
          lastFailure = failure;
        }
      }
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException stop) {
        return;
      }
    }
  }

  private void tick(boolean second) throws Exception {
    LimiterRegistry.Dropped gone = LimiterRegistry.dropCollected();
    boolean dropped = gone != null;
    if (dropped) {
      weaving.forget(gone.loaderIds, gone.limiterIds);
    }
    int now = LimiterRegistry.version();
    if (now != toldVersion || dropped) {
      toldVersion = now;
      System.setProperty(
          AgentStart.LIMITERS_PROPERTY, Integer.toString(AgentBean.limiterNames().length));
    }
    if (second) {
      for (LimiterRegistry.Slot slot : LimiterRegistry.bucketLimiters()) {
        ((BucketLimiter) slot.limiter).tick();
      }
      List<Runnable> tasks;
      synchronized (this) {
        tasks = new ArrayList<Runnable>(everySecond);
      }
      for (Runnable task : tasks) {
        task.run();
      }
    }
    if (!jmxAllowed()) {
      return;
    }
    if (server == null && !worthJmx()) {
      return; // nothing to show yet: a JVM that never limits never pays for JMX
    }
    if (server == null) {
      server = ManagementFactory.getPlatformMBeanServer();
      register(
          new javax.management.StandardMBean(agentBean, AgentMBean.class),
          new ObjectName(DOMAIN + ":type=Agent"));
      for (Runnable task : onJmxReady) {
        task.run();
      }
    }
    int version = LimiterRegistry.version();
    if (version != seenVersion || dropped) {
      seenVersion = version;
      sync();
    }
  }

  /**
   * Whether there is anything for JMX to show: a limiter, a config file, or a metrics endpoint to
   * serve. Setting up the platform MBean server costs a JVM about 0.3 s of CPU, paid only then.
   */
  private boolean worthJmx() {
    return LimiterRegistry.version() > 0 || weaving.configPath() != null || !onJmxReady.isEmpty();
  }

  private boolean jmxAllowed() {
    if (logManager == null || weaving.watchedClassLoaded()) {
      return true;
    }
    if (!waitingReported) {
      AgentLog.debug(
          "MBeans wait until the application's log manager " + logManager + " has loaded");
      waitingReported = true;
    }
    return false;
  }

  /** Registers the MBeans of new limiters and unregisters those of limiters gone. */
  private void sync() throws Exception {
    // in registration order, so that of two limiters of one name the first made keeps the plain
    // MBean name, run after run
    List<LimiterRegistry.Slot> slots = LimiterRegistry.bucketLimiters();
    Map<Limiter, LimiterRegistry.Slot> live = new IdentityHashMap<Limiter, LimiterRegistry.Slot>();
    for (LimiterRegistry.Slot slot : slots) {
      live.put(slot.limiter, slot);
    }
    synchronized (this) {
      for (Iterator<Map.Entry<Limiter, ObjectName>> i = registered.entrySet().iterator();
          i.hasNext(); ) {
        Map.Entry<Limiter, ObjectName> e = i.next();
        if (!live.containsKey(e.getKey())) {
          if (server.isRegistered(e.getValue())) {
            server.unregisterMBean(e.getValue());
          }
          i.remove();
        }
      }
    }
    for (LimiterRegistry.Slot slot : slots) {
      if (registered.containsKey(slot.limiter)) {
        continue;
      }
      ObjectName name = name(slot.limiter.name(), -1);
      if (server.isRegistered(name)) { // the same name from another class loader
        name = name(slot.limiter.name(), slot.loaderId);
      }
      if (register(new LimiterBean((BucketLimiter) slot.limiter, weaving), name)) {
        synchronized (this) {
          registered.put(slot.limiter, name);
        }
      }
    }
  }

  private boolean register(Object bean, ObjectName name) {
    try {
      server.registerMBean(bean, name);
      return true;
    } catch (Exception e) {
      AgentLog.error("could not register the MBean " + name + ": " + e);
      return false;
    }
  }

  /**
   * The MBean name of a limiter: {@code dev.weir:type=Limiter,name=NAME}, the name quoted where JMX
   * needs it, and {@code ,loader=ID} for a second class loader's limiter of the same name.
   *
   * @param limiterName the limiter's name
   * @param loaderId the loader's number, or -1 for none
   * @return the name
   * @throws MalformedObjectNameException never, the name being quoted where needed
   */
  static ObjectName name(String limiterName, int loaderId) throws MalformedObjectNameException {
    return new ObjectName(
        DOMAIN
            + ":type=Limiter,name="
            + quoteIfNeeded(limiterName)
            + (loaderId >= 0 ? ",loader=" + loaderId : ""));
  }

  private static String quoteIfNeeded(String value) {
    if (value.isEmpty()) {
      return ObjectName.quote(value);
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n') {
        return ObjectName.quote(value);
      }
    }
    return value;
  }

  /**
   * The limiters with an MBean, and their names, for the metrics endpoint.
   *
   * @return a snapshot
   */
  synchronized Map<Limiter, ObjectName> limiterBeans() {
    return Collections.unmodifiableMap(new IdentityHashMap<Limiter, ObjectName>(registered));
  }
}
