package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;

/**
 * A {@link BucketLimiter}'s settings in the words operators read (the MBean, {@code weir list}, the
 * start-up summary), and in which methods sharing a limiter's name must agree. Stateless and
 * thread-safe.
 */
final class SettingsText {
  private SettingsText() {}

  /**
   * The settings of a limiter in one line.
   *
   * @param bucket its bucket
   * @param permits permits per call
   * @param dryRun whether it is a dry run
   * @param cluster whether it is cluster-wide
   * @return for example {@code token bucket 10.0/SECONDS capacity 20 permits 1 REJECT}, then {@code
   *     maxWait N ms}, {@code (dry run)} and {@code cluster} where they apply
   */
  static String of(GcraBucket bucket, long permits, boolean dryRun, boolean cluster) {
    StringBuilder s =
        new StringBuilder(bucket.discipline().description())
            .append(' ')
            .append(bucket.rate())
            .append('/')
            .append(bucket.per())
            .append(" capacity ")
            .append(bucket.capacity());
    if (bucket.discipline() == Discipline.TOKEN_BUCKET) {
      s.append(" permits ").append(permits);
    }
    s.append(bucket.waitOnLimit() ? " WAIT" : " REJECT");
    long maxWait = bucket.maxWaitNanos();
    if (maxWait != Long.MAX_VALUE
        && (bucket.waitOnLimit() || bucket.discipline() == Discipline.SHAPING)) {
      s.append(" maxWait ").append(maxWait / 1_000_000L).append(" ms");
    }
    if (bucket.warmUpNanos() > 0) {
      s.append(" warmUp ").append(bucket.warmUpNanos() / 1_000_000L).append(" ms");
    }
    if (dryRun) {
      s.append(" (dry run)");
    }
    if (cluster) {
      s.append(" cluster");
    }
    return s.toString();
  }

  /**
   * The kind of a limiter.
   *
   * @param discipline its bucket's discipline
   * @return {@code token bucket}, {@code leaky bucket SHAPING} or {@code leaky bucket POLICING}
   */
  static String kind(Discipline discipline) {
    switch (discipline) {
      case SHAPING:
        return "leaky bucket SHAPING";
      case POLICING:
        return "leaky bucket POLICING";
      default:
        return "token bucket";
    }
  }
}
