package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.DryRunLimiter;

/**
 * Reports on the config file's limits: what the dry-run limits would have done, every 60 seconds
 * and once more when the JVM stops; and what the file asked for that nothing has used (a pattern
 * that matched no method, an override no annotated limiter claimed), once 60 seconds after start
 * and again at shutdown. One daemon thread, started only when there is a config file.
 */
final class ConfigReporter implements Runnable {
  static final long PERIOD_MILLIS = 60_000;

  private final ConfigLimits config;

  private ConfigReporter(ConfigLimits config) {
    this.config = config;
  }

  /**
   * Starts reporting.
   *
   * @param config the config file's limits
   */
  static void start(ConfigLimits config) {
    final ConfigReporter reporter = new ConfigReporter(config);
    Thread periodic = new Thread(reporter, "weir-config-report");
    periodic.setDaemon(true);
    periodic.setContextClassLoader(null);
    periodic.start();
    Thread atExit =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                CallDepth.enterWeir();
                reporter.reportDryRuns();
                reporter.warnUnused();
              }
            },
            "weir-config-report-at-exit");
    atExit.setContextClassLoader(null);
    Runtime.getRuntime().addShutdownHook(atExit);
  }

  @Override
  public void run() {
    CallDepth.enterWeir(); // the thread is Weir's own: config limits never charge it
    try {
      Thread.sleep(PERIOD_MILLIS);
      reportDryRuns();
      warnUnused();
      for (; ; ) {
        Thread.sleep(PERIOD_MILLIS);
        reportDryRuns();
      }
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
    }
  }

  void reportDryRuns() {
    for (DryRunLimiter limiter : config.dryRuns()) {
      AgentLog.info(limiter.report());
    }
  }

  void warnUnused() {
    for (String line : config.unused()) {
      AgentLog.warn(line);
    }
  }
}
