package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reports on the config file's limits: what the dry-run limits would have done, every 60 seconds
 * and once more when the JVM stops; what the file asked for that nothing has used (a pattern that
 * matched no method, an override no annotated limiter claimed), once 60 seconds after start and
 * again at shutdown; and, once per pattern, the methods a pattern matched that Weir cannot limit, a
 * second after the first of them (classes load in bursts) or at shutdown if that comes first. One
 * daemon thread, started only when there is a config file.
 */
final class ConfigReporter implements Runnable {
  static final long PERIOD_MILLIS = 60_000;

  /** How often the thread looks for refusals to report. */
  static final long TICK_MILLIS = 1_000;

  /** How long after a pattern's first refusal its report waits for more. */
  static final long SETTLE_NANOS = 1_000_000_000L;

  private final WeirTransformer transformer;

  /**
   * The lines of the last report that looked for near names, by their text before the hint: a
   * report without the look (at shutdown) repeats a pattern's hint rather than dropping it.
   */
  private final Map<String, String> hinted = new ConcurrentHashMap<String, String>();

  private static final String UNMATCHED = " has matched no method yet";

  ConfigReporter(WeirTransformer transformer) {
    this.transformer = transformer;
  }

  /**
   * Starts reporting.
   *
   * @param transformer the transformer, whose config file's limits (the latest reload's) are
   *     reported
   */
  static void start(WeirTransformer transformer) {
    final ConfigReporter reporter = new ConfigReporter(transformer);
    AgentThreads.start(reporter, "weir-config-report");
    Thread atExit =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                CallDepth.enterWeir();
                reporter.reportRefusals(0);
                reporter.reportDryRuns();
                reporter.warnUnused(false); // shutdown is no time to look for near names
              }
            },
            "weir-config-report-at-exit");
    atExit.setContextClassLoader(null);
    Runtime.getRuntime().addShutdownHook(atExit);
  }

  @Override
  public void run() {
    try {
      for (long tick = 1; ; tick++) {
        Thread.sleep(TICK_MILLIS);
        reportRefusals(SETTLE_NANOS);
        if (tick % (PERIOD_MILLIS / TICK_MILLIS) == 0) {
          reportDryRuns();
          if (tick == PERIOD_MILLIS / TICK_MILLIS) {
            warnUnused(true);
          }
        }
      }
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
    }
  }

  void reportRefusals(long settleNanos) {
    for (String line : transformer.config().refusalReports(settleNanos)) {
      AgentLog.error(line);
    }
  }

  void reportDryRuns() {
    for (BucketLimiter limiter : transformer.config().registered().dryRuns()) {
      AgentLog.info(limiter.report());
    }
  }

  /**
   * Warns of the patterns that matched nothing and the overrides nothing claimed.
   *
   * @param hints whether to name the closest loaded class or method of each pattern (a look over
   *     every loaded class: not at shutdown)
   */
  void warnUnused(boolean hints) {
    for (String line : transformer.config().unused(hints ? transformer.loadedClasses() : null)) {
      AgentLog.warn(hints ? noteHint(line) : withLastHint(line));
    }
  }

  String noteHint(String line) {
    int at = line.indexOf(UNMATCHED);
    if (at > 0 && line.length() > at + UNMATCHED.length()) {
      hinted.put(line.substring(0, at + UNMATCHED.length()), line);
    }
    return line;
  }

  String withLastHint(String line) {
    String earlier = hinted.get(line);
    return earlier != null ? earlier : line;
  }
}
