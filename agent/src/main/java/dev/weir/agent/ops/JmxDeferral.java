package dev.weir.agent.ops;

/**
 * When the management thread sets up JMX, once there is something to show: not while the
 * application is busy starting (loading classes fast), since setting up the platform MBean server
 * costs about 0.3 s of CPU and a JVM's start-up has none to spare; but never so late that an MBean
 * misses its bound (SPEC "Observability": visible within one second of the limiter's creation).
 *
 * <p>The rule, asked once per tick: set up at the first tick that ends a quiet interval (fewer than
 * {@link #QUIET_CLASSES} classes loaded since the tick before, {@link #MIN_INTERVAL_NANOS} or more
 * ago; the first tick, right after {@code premain}, is never quiet), or at the latest {@link
 * #MAX_DEFER_NANOS} after the last tick that had nothing to show (the earliest the first thing to
 * show can have appeared; at first, the agent's start, before its config file was read). With 250
 * ms ticks, an MBean's set-up then starts at most 500 ms after its limiter's creation, where it
 * started at most 250 ms after before.
 *
 * <p>Thread-confined to the management thread. Times are {@code System.nanoTime()} readings; class
 * counts are a counter that only grows (it may miss a few concurrent increments).
 */
final class JmxDeferral {
  /** The longest the set-up waits for a quiet interval once there is something to show. */
  static final long MAX_DEFER_NANOS = 500_000_000L;

  /** Fewer classes loaded than this in an interval make it quiet (~50 in a 250 ms tick). */
  static final int QUIET_CLASSES = 50;

  /** An interval shorter than this says too little to call it quiet. */
  static final long MIN_INTERVAL_NANOS = 200_000_000L;

  private long nothingAtNanos;
  private boolean ticked;
  private long lastTickNanos;
  private int lastClasses;

  /**
   * Starts the rule.
   *
   * @param startNanos the agent's start, before it read its config file
   */
  JmxDeferral(long startNanos) {
    this.nothingAtNanos = startNanos;
  }

  /**
   * Whether to set up JMX now; asked once per tick until it answers true.
   *
   * @param worth whether there is anything to show (a limiter, a config file, an endpoint)
   * @param nowNanos the time now
   * @param classes the class counter now
   * @return true to set up now
   */
  boolean setUpNow(boolean worth, long nowNanos, int classes) {
    // the first tick has no interval behind it: the application's start has not even begun
    boolean quiet =
        ticked
            && nowNanos - lastTickNanos >= MIN_INTERVAL_NANOS
            && classes - lastClasses < QUIET_CLASSES;
    ticked = true;
    lastTickNanos = nowNanos;
    lastClasses = classes;
    if (!worth) {
      nothingAtNanos = nowNanos;
      return false;
    }
    return quiet || nowNanos - nothingAtNanos >= MAX_DEFER_NANOS;
  }
}
