package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentStarter;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.AgentArgs;
import dev.weir.agent.weave.Weaving;
import dev.weir.agent.weave.WeirInstaller;
import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The agent's start inside its own class loader, above the weaving: installs the weaving, then the
 * operator's side (MBeans, metrics, config watch, summary lines, draining shutdown) on Weir's
 * management thread; and a later attach to the same JVM, which reloads. The boot tier's {@code
 * AgentInitializer} makes one and calls it through {@link AgentStarter}. Thread-safe: starts are
 * serialized by the initializer.
 */
public final class AgentStart implements AgentStarter {
  /** The system property that says Weir runs in this JVM, and its version. */
  static final String VERSION_PROPERTY = "dev.weir.agent.version";

  /**
   * The system property that says how many limiters (by name, as {@code Limiters}) the agent holds,
   * kept by its management thread within a quarter of a second: the command line's {@code list}
   * reads it with the version, so it starts no management agent in JVMs it only lists.
   */
  static final String LIMITERS_PROPERTY = "dev.weir.agent.limiters";

  private AgentBean agent;
  private Weaving weaving;
  private ConfigWatch watch;
  private Summary summary;

  /** Made by {@code AgentInitializer}, once per JVM. */
  public AgentStart() {}

  /**
   * Starts the agent.
   *
   * @param args the agent argument string, may be null
   * @param instrumentation the JVM's instrumentation
   * @param premain true at JVM start, false on attach
   * @param version the agent's version
   * @return true if the agent now weaves
   */
  @Override
  public boolean start(
      String args, Instrumentation instrumentation, boolean premain, String version) {
    Weaving w = WeirInstaller.install(args, instrumentation, premain, version);
    if (w == null) {
      return false;
    }
    weaving = w;
    agent = new AgentBean(w);
    AgentArgs arguments = w.arguments();
    Management management = Management.create(w, agent);
    agent.tableOf(management);
    watch = new ConfigWatch(agent, w);
    watch.set(arguments.watch());
    summary = new Summary();
    summary.period(arguments.summarySeconds());
    management.everySecond(watch);
    management.everySecond(summary);
    if (arguments.prometheusPort() >= 0) {
      final String host = arguments.prometheusHost();
      final int port = arguments.prometheusPort();
      final Management m = management;
      management.whenJmxReady(
          new Runnable() {
            @Override
            public void run() {
              MetricsServer.start(host, port, m);
            }
          });
    }
    if (arguments.drainOnExitMillis() > 0) {
      drainOnExit(arguments.drainOnExitMillis());
    }
    management.start();
    System.setProperty(VERSION_PROPERTY, version); // how the command line finds Weir's JVMs
    return true;
  }

  /**
   * A later attach to a JVM that runs Weir: with {@code config=}, reloads that file (it becomes the
   * config file) and takes the attach's {@code log}, {@code summary} and {@code watch}; without,
   * says so and changes nothing. Arguments that cannot change in a running JVM are reported; any
   * error in the arguments refuses the attach whole, and nothing changes.
   *
   * @param args the attach's argument string
   */
  @Override
  public void again(String args) {
    int[] section = CallDepth.enterWeir();
    try {
      againOwn(args);
    } finally {
      section[0]--;
    }
  }

  private void againOwn(String args) {
    AgentArgs given = AgentArgs.parse(args, new Properties());
    if (!given.errors().isEmpty()) { // refused whole: not even the valid arguments apply
      for (String error : given.errors()) {
        AgentLog.error(error);
      }
      AgentLog.error(
          "agent arguments: " + given.errors().size() + " error(s); the attach changes nothing");
      return;
    }
    if (!given.given().contains("config")) {
      AgentLog.warn(
          "weir "
              + weaving.version()
              + " already runs in this JVM; attach with config=PATH to reload a config file."
              + " Nothing changed");
      return;
    }
    List<String> fixed = Arrays.asList("enabled", "maxKeys", "prometheus", "drainOnExit");
    for (String key : given.given()) {
      if (fixed.contains(key)) {
        AgentLog.warn(
            "'" + key + "' cannot change in a running JVM: it stays as the JVM started with it");
      }
    }
    Weaving.Reloaded r = agent.reload(given.configPath(), null);
    if (!r.applied) {
      return;
    }
    if (given.given().contains("log")) {
      AgentLog.setLevel(given.logLevel());
    }
    if (given.given().contains("summary")) {
      summary.period(given.summarySeconds());
    }
    if (given.given().contains("watch")) {
      watch.set(given.watch());
    }
    weaving.arguments(given);
  }

  /**
   * At shutdown, stops admitting calls and waits up to {@code millis} for the calls waiting in Weir
   * to leave at their slots.
   */
  private static void drainOnExit(final long millis) {
    Thread hook =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                CallDepth.enterWeir();
                List<BucketLimiter> drained = LimiterRegistry.drain();
                long deadline =
                    System.nanoTime()
                        + (millis >= Long.MAX_VALUE / 4_000_000L
                            ? Long.MAX_VALUE / 4
                            : millis * 1_000_000L);
                for (; ; ) {
                  int waiting = 0;
                  for (BucketLimiter limiter : drained) {
                    waiting += limiter.waiting();
                  }
                  if (waiting == 0) {
                    return;
                  }
                  if (System.nanoTime() - deadline >= 0) {
                    AgentLog.warn(
                        "drainOnExit: "
                            + waiting
                            + " call(s) still waiting after "
                            + millis
                            + " ms; the JVM stops");
                    return;
                  }
                  try {
                    Thread.sleep(5);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "weir-drain-on-exit");
    hook.setContextClassLoader(null);
    Runtime.getRuntime().addShutdownHook(hook);
  }
}
