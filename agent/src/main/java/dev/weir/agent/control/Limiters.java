package dev.weir.agent.control;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.LimitSpec;

/**
 * Makes the limiter a validated {@link LimitSpec} describes: the one place the agent tier turns
 * settings into a boot-tier limiter, for config entries ({@link LimitSet}) and annotations alike.
 * Stateless and thread-safe.
 */
public final class Limiters {
  private Limiters() {}

  /**
   * Builds the limiter {@code spec} describes, its bucket full (a leaky bucket: empty) now;
   * cluster-wide if {@code cluster} is given (the bucket is then the local fallback's).
   *
   * @param spec the settings, valid
   * @param limiterName the name its exceptions carry
   * @param origin where it was declared, for messages ({@code weir.yaml:7}, {@code Foo#bar()})
   * @param clock the time source
   * @param dryRun true to count what would be limited and limit nothing
   * @param cluster the backend's part; null for a local limiter
   * @return a new limiter, not registered
   */
  public static BucketLimiter newLimiter(
      LimitSpec spec,
      String limiterName,
      String origin,
      NanoClock clock,
      boolean dryRun,
      ClusterScope cluster) {
    return new BucketLimiter(
        limiterName, origin, spec.bucket(clock.nanoTime()), spec.permits(), clock, dryRun, cluster);
  }
}
