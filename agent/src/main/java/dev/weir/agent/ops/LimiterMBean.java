package dev.weir.agent.ops;

/**
 * One limiter as JMX shows it, {@code dev.weir:type=Limiter,name=NAME}: its settings (three of them
 * writable, as live changes), its state now, and its counts since it was created. Counts are calls,
 * not permits. Only JDK types cross it, so any JMX client (JConsole, jmx_exporter, the Weir command
 * line) reads it; a refused write throws {@link IllegalArgumentException} with a message naming the
 * limiter, the attribute and the value.
 */
public interface LimiterMBean {
  /**
   * The rate.
   *
   * @return permits per second, whatever unit the annotation or config file gave
   */
  double getRate();

  /**
   * Changes the rate live (the capacity stays).
   *
   * @param permitsPerSecond {@code > 0} and finite
   * @throws IllegalArgumentException if the value is refused; nothing changes then
   */
  void setRate(double permitsPerSecond);

  /**
   * The capacity: the burst of a token bucket, the queue or level of a leaky bucket.
   *
   * @return permits, {@code >= 1}
   */
  long getCapacity();

  /**
   * Changes the capacity live (the rate stays).
   *
   * @param capacity permits, {@code >= 1} and at least the permits each call takes
   * @throws IllegalArgumentException if the value is refused; nothing changes then
   */
  void setCapacity(long capacity);

  /**
   * Whether the limiter only counts what it would limit.
   *
   * @return true in a dry run
   */
  boolean isDryRun();

  /**
   * Switches the dry run live.
   *
   * @param dryRun true to count what would be limited and limit nothing
   */
  void setDryRun(boolean dryRun);

  /**
   * The kind.
   *
   * @return {@code token bucket}, {@code leaky bucket SHAPING} or {@code leaky bucket POLICING}
   */
  String getKind();

  /**
   * Where the bucket lives.
   *
   * @return {@code local} (cluster scope reports its backend's state)
   */
  String getScope();

  /**
   * The permits one call could take at once now (SHAPING: room left in the queue).
   *
   * @return permits
   */
  long getAvailablePermits();

  /**
   * Calls waiting in Weir now.
   *
   * @return calls
   */
  int getWaiting();

  /**
   * Calls admitted since creation.
   *
   * @return calls
   */
  long getGranted();

  /**
   * Calls limited since creation (fallback answers and interrupted waiters included).
   *
   * @return calls
   */
  long getRejected();

  /**
   * Calls admitted after waiting, since creation.
   *
   * @return calls
   */
  long getWaited();

  /**
   * The time admitted calls spent waiting, since creation.
   *
   * @return nanoseconds
   */
  long getTotalWaitNanos();

  /**
   * The median wait of the calls admitted after waiting in the last 60 seconds.
   *
   * @return milliseconds; 0 if none waited
   */
  double getWaitP50Millis();

  /**
   * The 99th percentile of those waits.
   *
   * @return milliseconds; 0 if none waited
   */
  double getWaitP99Millis();

  /**
   * The longest of those waits.
   *
   * @return milliseconds; 0 if none waited
   */
  double getWaitMaxMillis();

  /**
   * Keys held now by a per-key limiter.
   *
   * @return keys; 0 for a limiter without keys
   */
  long getKeys();

  /**
   * Exchanges with the cluster backend that failed or timed out.
   *
   * @return failures; 0 for a local limiter
   */
  long getBackendFailures();

  /**
   * The methods whose calls this limiter limits now, whoever declares them: {@code
   * Class#method(params)}, with {@code (inherited from Ancestor)} for an implementation a {@code
   * Type+} pattern's subtype inherits, and {@code @loader-N} where the class's loader is not the
   * system loader nor the JDK's. Sorted. A limiter whose calls an override by name took (a config
   * entry without {@code methods}) lists none; the override lists them.
   *
   * @return the methods; empty if none is woven now
   */
  String[] getMethods();

  /**
   * For a config limit: what its patterns reached and could not limit, each {@code PATTERN: METHOD:
   * WHY}, and {@code PATTERN: matched no method yet} (with the closest loaded class or method) for
   * a pattern that has matched none. Empty for other limiters.
   *
   * @return the lines
   */
  String[] getUnlimited();
}
