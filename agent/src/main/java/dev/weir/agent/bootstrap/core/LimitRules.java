package dev.weir.agent.bootstrap.core;

import java.util.concurrent.TimeUnit;

/**
 * The rules of a limit's settings and their messages, in one place for every way a limit is given:
 * the config file's reader, the annotation reader, a live change (the MBean, the command line, a
 * reload) and the bucket itself. Each rule answers {@code null} when the value keeps it, or what it
 * must be and what it was ({@code must be > 0 and finite, was -3}); the caller puts its own
 * location and the setting's name in front: {@code weir.yaml:8: limits[1].tokenBucket.rate}, {@code
 * invalid @TokenBucket on Foo#bar(): rate}, {@code 'orders': Rate}. Here because the bucket's
 * arithmetic ({@link GcraBucket}) is what the rules protect, and every tier can reach it.
 *
 * <p>Units: a rate is permits per {@code per}; a capacity and permits are permits; a wait is
 * milliseconds. Stateless and thread-safe.
 */
public final class LimitRules {
  private LimitRules() {}

  /**
   * A rate: more than 0 and finite, and still more than 0 once converted to permits per second (a
   * tiny rate per day would round to nothing).
   *
   * @param rate permits per {@code per}
   * @param per the unit of the rate; null means seconds
   * @param written the value as the user wrote it, for the message ({@code -3}, {@code .inf})
   * @return null if valid, else the rule and the value
   */
  public static String rate(double rate, TimeUnit per, String written) {
    boolean valid = rate > 0 && !Double.isInfinite(rate);
    if (valid && per != null) {
      valid = GcraBucket.perSecond(rate, per) > 0;
    }
    return valid ? null : "must be > 0 and finite, was " + written;
  }

  /**
   * A rate, written as a number.
   *
   * @param rate permits per {@code per}
   * @param per the unit of the rate; null means seconds
   * @return null if valid, else the rule and the value
   */
  public static String rate(double rate, TimeUnit per) {
    return rate(rate, per, String.valueOf(rate));
  }

  /**
   * A capacity as a limit is defined (an annotation, a config entry), where 0 asks for the default:
   * one {@code per} worth of the rate.
   *
   * @param capacity permits
   * @param written the value as written, for the message
   * @return null if valid, else the rule and the value
   */
  public static String definedCapacity(long capacity, String written) {
    return capacity >= 0
        ? null
        : "must be >= 0 (0 means one 'per' worth of the rate), was " + written;
  }

  /**
   * A capacity a live bucket takes (a live change, the bucket itself): at least 1, and at least the
   * permits each call takes.
   *
   * @param capacity permits
   * @param permits the permits each call takes, {@code >= 1}
   * @return null if valid, else the rule and the value
   */
  public static String liveCapacity(long capacity, long permits) {
    if (capacity < 1) {
      return "must be >= 1, was " + capacity;
    }
    if (capacity < permits) {
      return "must be at least the permits each call takes (" + permits + "), was " + capacity;
    }
    return null;
  }

  /**
   * The permits each call takes: at least 1 ({@code must be >= 1}), at most the capacity ({@code
   * must be between 1 and the capacity}).
   *
   * @param permits permits per call
   * @param capacity the bucket's capacity, permits ({@code >= 1})
   * @param capacityFromRate whether the capacity is the default one, from the rate
   * @param written the value as written, for the message
   * @return null if valid, else the rule and the value
   */
  public static String permits(
      long permits, long capacity, boolean capacityFromRate, String written) {
    if (permits < 1) {
      return "must be >= 1, was " + written; // as minPermits: no capacity needs naming
    }
    if (permits <= capacity && permits <= Integer.MAX_VALUE) {
      return null;
    }
    return "must be between 1 and the capacity ("
        + capacity
        + (capacityFromRate ? ", from the rate" : "")
        + "), was "
        + written;
  }

  /**
   * The longest a call may wait: 0 or more milliseconds.
   *
   * @param maxWaitMillis milliseconds
   * @param written the value as written, for the message
   * @return null if valid, else the rule and the value
   */
  public static String maxWaitMillis(long maxWaitMillis, String written) {
    return maxWaitMillis >= 0 ? null : "must be >= 0, was " + written;
  }

  /** The longest warm-up: one day, in milliseconds. */
  public static final long MAX_WARM_UP_MILLIS = 86_400_000L;

  /**
   * A token bucket's warm-up period: 0 (none) up to one day, in milliseconds.
   *
   * @param warmUpMillis milliseconds
   * @param written the value as written, for the message
   * @return null if valid, else the rule and the value
   */
  public static String warmUpMillis(long warmUpMillis, String written) {
    return warmUpMillis >= 0 && warmUpMillis <= MAX_WARM_UP_MILLIS
        ? null
        : "must be between 0 and " + MAX_WARM_UP_MILLIS + " (one day), was " + written;
  }

  /**
   * Why a limit with a warm-up cannot be keyed: per-key states do not warm up yet.
   *
   * @param warmUpMillis the warm-up, valid
   * @param keyed whether the limit has a key
   * @return null if they go together, else the rule
   */
  public static String warmUpWithKey(long warmUpMillis, boolean keyed) {
    return warmUpMillis > 0 && keyed
        ? "is not supported with a key yet (per-key buckets do not warm up), was " + warmUpMillis
        : null;
  }

  /**
   * The permits each call takes, where no capacity can be told (the rate is invalid): at least 1.
   *
   * @param permits permits per call
   * @return null if valid, else the rule and the value
   */
  public static String minPermits(long permits) {
    return permits >= 1 ? null : "must be >= 1, was " + permits;
  }

  /**
   * The default capacity of a rate: one {@code per} worth of it, at least 1.
   *
   * @param rate permits per {@code per}, valid
   * @return permits, {@code >= 1}
   */
  public static long defaultCapacity(double rate) {
    return Math.max(1L, (long) Math.ceil(rate));
  }
}
