package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.DryRunLimiter;
import java.util.List;

/**
 * Logs what the dry-run limits would have done: every 60 seconds, and once more when the JVM stops.
 * One daemon thread, started only when the config file has a dry-run limit.
 */
final class DryRunReporter implements Runnable {
  static final long PERIOD_MILLIS = 60_000;

  private final List<DryRunLimiter> limiters;

  private DryRunReporter(List<DryRunLimiter> limiters) {
    this.limiters = limiters;
  }

  /**
   * Starts reporting, if there is anything to report.
   *
   * @param limiters the dry-run limiters
   */
  static void start(List<DryRunLimiter> limiters) {
    if (limiters.isEmpty()) {
      return;
    }
    final DryRunReporter reporter = new DryRunReporter(limiters);
    Thread periodic = new Thread(reporter, "weir-dry-run");
    periodic.setDaemon(true);
    periodic.setContextClassLoader(null);
    periodic.start();
    Thread atExit =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                reporter.report();
              }
            },
            "weir-dry-run-exit");
    atExit.setContextClassLoader(null);
    Runtime.getRuntime().addShutdownHook(atExit);
  }

  @Override
  public void run() {
    try {
      for (; ; ) {
        Thread.sleep(PERIOD_MILLIS);
        report();
      }
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
    }
  }

  void report() {
    for (DryRunLimiter limiter : limiters) {
      AgentLog.info(limiter.report());
    }
  }
}
