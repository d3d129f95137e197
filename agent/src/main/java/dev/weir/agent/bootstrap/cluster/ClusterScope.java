package dev.weir.agent.bootstrap.cluster;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.GcraBucket;
import java.util.concurrent.atomic.LongAdder;

/**
 * What makes a {@code BucketLimiter} cluster-wide: the {@link Backend} that holds its bucket, the
 * bucket's key there, what the limiter does while the backend fails, and the count of its failed
 * exchanges. Immutable but for the count; thread-safe.
 */
public final class ClusterScope {
  /** What a cluster limit does while its backend fails ({@code onBackendFailure}). */
  public enum OnFailure {
    /** Limit with a local bucket of the same settings (each JVM on its own). */
    LOCAL("local fallback"),
    /** Admit every call. */
    ALLOW("allowing all"),
    /** Limit every call, retry-after 1 s. */
    REJECT("rejecting all");

    /** What the limit does, as {@code Scope} shows it in brackets. */
    final String doing;

    OnFailure(String doing) {
      this.doing = doing;
    }
  }

  private final Backend backend;
  private final String keyBase;
  private final OnFailure onFailure;
  private final LongAdder failures = new LongAdder();

  /** The backend's slot: what it derived from this limiter's settings; null at first. */
  private volatile Object prepared;

  /**
   * Creates the cluster scope of one limiter.
   *
   * @param backend the backend
   * @param keyPrefix the configured {@code backendKeyPrefix}, or empty
   * @param limiterName the limiter's name: its keys are {@code PREFIXweir:{NAME}} and, per key
   *     value, {@code PREFIXweir:{NAME:KEY}} (hash-tagged whole, so that the buckets of one
   *     limiter's keys spread over a Redis Cluster's nodes), a {@code :} or {@code \} in the name
   *     escaped with {@code \} (so that limit {@code a:b} and key {@code b} of limit {@code a}
   *     never share a bucket)
   * @param onFailure what to do while the backend fails
   */
  public ClusterScope(Backend backend, String keyPrefix, String limiterName, OnFailure onFailure) {
    this.backend = backend;
    this.keyBase = keyPrefix + "weir:{" + escaped(limiterName);
    this.onFailure = onFailure;
  }

  /**
   * One exchange for the bucket of {@code key}; a failure is counted.
   *
   * @return as {@link Backend#exchange}; {@link Backend#UNAVAILABLE} at once while the backend does
   *     not answer
   */
  public long exchange(char op, String key, GcraBucket bucket, long permits) {
    if (!backend.awaitAnswering()) {
      failures.increment(); // a call the backend did not serve: an outage shows in the count
      return Backend.UNAVAILABLE;
    }
    // the client's sockets and streams may be what a config pattern limits: never charged here
    int[] section = CallDepth.enterWeir();
    try {
      long answer = backend.exchange(this, op, key(key), bucket, permits);
      if (answer == Backend.UNAVAILABLE) {
        failures.increment();
      }
      return answer;
    } finally {
      section[0]--;
    }
  }

  /** The backend, for {@link SharedCharge}. */
  Backend backend() {
    return backend;
  }

  /** The name with {@code \} and {@code :} escaped by {@code \}. */
  private static String escaped(String name) {
    if (name.indexOf(':') < 0 && name.indexOf('\\') < 0) {
      return name;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ':' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /**
   * The store's key of a bucket.
   *
   * @param key the key value of a per-key limit; null for the limiter's one bucket
   * @return {@code PREFIXweir:{NAME}} or {@code PREFIXweir:{NAME:KEY}}
   */
  public String key(String key) {
    return key == null ? keyBase + "}" : keyBase + ":" + key + "}";
  }

  /**
   * What the limiter does while the backend fails.
   *
   * @return the policy
   */
  public OnFailure onFailure() {
    return onFailure;
  }

  /**
   * The MBean's {@code Scope}: {@code cluster}, or while the backend fails what the limit does
   * ({@code cluster (local fallback)}), and why when the backend answers but is not used ({@code
   * cluster (local fallback: Redis evicts keys)}).
   *
   * @return the scope in words
   */
  public String scope() {
    if (backend.answering()) {
      return "cluster";
    }
    String why = backend.notUsedBecause();
    return "cluster (" + onFailure.doing + (why == null ? "" : ": " + why) + ")";
  }

  /**
   * Calls of this limiter the backend did not serve, since its creation: exchanges that failed or
   * timed out, and calls made while it was down (or not yet reached), which followed {@code
   * onBackendFailure} without trying it.
   *
   * @return the count
   */
  public long failures() {
    return failures.sum();
  }

  /**
   * The backend's slot for this limiter: what it derived from the settings it was last given (its
   * prepared script arguments), so that it need not derive them on every call.
   *
   * @return what the backend put; null at first
   */
  public Object prepared() {
    return prepared;
  }

  /**
   * Sets the backend's slot (see {@link #prepared()}).
   *
   * @param value what the backend keeps; immutable, as threads read it without a lock
   */
  public void prepared(Object value) {
    prepared = value;
  }
}
