package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.GcraBucket;
import java.util.concurrent.TimeUnit;

/**
 * The cluster path of a {@link BucketLimiter} (docs/cluster.md): its bucket, one per key, is kept
 * by the backend, and each call is one exchange through its {@link ClusterScope}, in which the
 * backend runs the core's GCRA on the shared bucket and answers as {@link GcraBucket#acquire}
 * would. The limiter's own {@link GcraBucket} serves as the settings sent, and as the local
 * fallback ({@link ClusterScope.OnFailure#LOCAL}). While the backend fails, each answer here
 * follows {@code onBackendFailure}, or is {@link #ASK_LOCAL}: the limiter then asks its local
 * bucket.
 *
 * <p>Thread-safe; one exchange per call, bounded by the backend's timeout.
 */
final class ClusterBucket {
  /** The answer of {@link #probe} and {@link #availablePermits}: the local fallback answers. */
  static final long ASK_LOCAL = -1;

  private final ClusterScope scope;

  /** Permits per call. */
  private final long permits;

  /** Whether a call with a key was made (the buckets are then per key). */
  private volatile boolean keyed;

  /**
   * The cluster path of one limiter.
   *
   * @param scope the backend's part
   * @param permits permits per call, {@code >= 1}
   */
  ClusterBucket(ClusterScope scope, long permits) {
    this.scope = scope;
    this.permits = permits;
  }

  /**
   * Takes the permits of one call from the shared bucket of {@code key}. Blocks for one exchange.
   *
   * @param key the key; null for the limiter's one bucket
   * @param settings the limiter's bucket now
   * @return as {@link GcraBucket#acquire} answers ({@code >= 0} admitted after that many ticks,
   *     {@code < 0} limited, {@link GcraBucket#NEVER}); {@link Backend#UNAVAILABLE} if the backend
   *     failed (see {@link #onFailure})
   */
  long acquire(String key, GcraBucket settings) {
    if (key != null) {
      keyUsed();
    }
    long answer =
        permits > settings.capacity()
            ? GcraBucket.NEVER
            : scope.exchange(Backend.ACQUIRE, key, settings, permits);
    if (answer == Backend.UNAVAILABLE) {
      return answer;
    }
    return answer <= -GcraBucket.NEVER_TICKS ? GcraBucket.NEVER : answer;
  }

  /** Notes a call made with a key: the buckets are per key from now on. */
  void keyUsed() {
    if (!keyed) {
      keyed = true;
    }
  }

  /**
   * Gives the permits of one admitted call back to the shared bucket of {@code key}. Blocks for one
   * exchange.
   *
   * @param key the key, as held; null for the limiter's one bucket
   * @param settings the limiter's bucket now
   * @return false if the backend failed (see {@link #onFailure})
   */
  boolean refund(String key, GcraBucket settings) {
    return scope.exchange(Backend.REFUND, key, settings, permits) != Backend.UNAVAILABLE;
  }

  /**
   * The time until a call on {@code key} would be admitted, taking nothing. Blocks for one
   * exchange.
   *
   * @param key the key, as held; null for the limiter's one bucket
   * @param settings the limiter's bucket now
   * @return nanoseconds {@code >= 0} (as {@link Limiter#probe}); while the backend fails, 0
   *     (allowing all), one second (rejecting all) or {@link #ASK_LOCAL}
   */
  long probe(String key, GcraBucket settings) {
    long answer =
        permits > settings.capacity()
            ? GcraBucket.NEVER_TICKS
            : scope.exchange(Backend.PROBE, key, settings, permits);
    if (answer != Backend.UNAVAILABLE) {
      return settings.toNanosCeil(answer);
    }
    if (scope.onFailure() != ClusterScope.OnFailure.LOCAL) {
      return scope.onFailure() == ClusterScope.OnFailure.ALLOW ? 0 : TimeUnit.SECONDS.toNanos(1);
    }
    return ASK_LOCAL;
  }

  /**
   * The permits one call could take at once now, from the one shared bucket; for per-key buckets,
   * what a new key would find (a full bucket). Blocks for one exchange.
   *
   * @param settings the limiter's bucket now
   * @return permits, {@code 0..capacity}; while the backend fails, the capacity (allowing all), 0
   *     (rejecting all) or {@link #ASK_LOCAL}
   */
  long availablePermits(GcraBucket settings) {
    if (keyed) {
      return settings.capacity();
    }
    long ahead = scope.exchange(Backend.VIEW, null, settings, permits);
    if (ahead != Backend.UNAVAILABLE) {
      return settings.availablePermitsAhead(ahead);
    }
    if (scope.onFailure() != ClusterScope.OnFailure.LOCAL) {
      return scope.onFailure() == ClusterScope.OnFailure.ALLOW ? settings.capacity() : 0;
    }
    return ASK_LOCAL;
  }

  /**
   * Why the backend could not keep a bucket of these settings ({@link GcraBucket#sharedProblem}).
   *
   * @param settings a bucket of the settings a live change asks for
   * @return null if it can; else the reason
   */
  String problem(GcraBucket settings) {
    return settings.sharedProblem(permits);
  }

  /**
   * What a call gets while the backend fails.
   *
   * @return the limiter's {@code onBackendFailure}
   */
  ClusterScope.OnFailure onFailure() {
    return scope.onFailure();
  }

  /**
   * The backend's part.
   *
   * @return the scope
   */
  ClusterScope scope() {
    return scope;
  }
}
