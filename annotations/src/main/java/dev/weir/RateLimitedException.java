package dev.weir;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Thrown instead of running a limited method when its limiter has no permit for the call.
 *
 * <p>{@link #retryAfterNanos()} is how long until the same call would be admitted at once (for a
 * shaping leaky bucket: admitted into the queue), whatever the limiter's {@link OnLimit}; {@link
 * Long#MAX_VALUE} means never. A client that waits exactly that long and calls again is admitted,
 * unless other calls took the permits first.
 *
 * <p>The exception is cheap to create: it records no stack trace ({@link #fillInStackTrace()} does
 * nothing) and builds its message only when asked. The agent constructs it in the limited method
 * itself through the public constructor {@link #RateLimitedException(String, long)}, which stays
 * stable across versions, so an application that bundles an older copy of this class keeps working
 * with a newer agent. When a waiting call is interrupted, its cause is the {@link
 * InterruptedException} and the thread's interrupt flag stays set.
 *
 * <p>A method with several limits is refused when any of them refuses: {@link #limiterName()} is
 * the refusing limit whose wait is furthest beyond what it may wait (a {@code REJECT} limit beside
 * a shaping one that would make the call wait: the {@code REJECT} one, whose {@code Rejected} count
 * the call raised), {@link #retryAfterNanos()} the time until the call as a whole would pass, and
 * {@link #refusingLimiters()} (and the message) name every limit that refused the call.
 */
public class RateLimitedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String limiterName;
  private final long retryAfterNanos;

  /**
   * Every limit that refused the call, {@link #limiterName()} first, when the method has several;
   * null otherwise. Set by the agent after construction, so that the constructor stays the stable
   * seam woven code calls.
   */
  private volatile String[] refusing;

  /**
   * Creates the exception without a stack trace. The cause is left unset, so {@link
   * #initCause(Throwable)} may attach one.
   *
   * @param limiterName the limiter's name, as in {@link TokenBucket#name()}; may be {@code null}
   * @param retryAfterNanos nanoseconds until the same call would be admitted at once; negative
   *     values are taken as 0, and {@link Long#MAX_VALUE} means never
   */
  public RateLimitedException(String limiterName, long retryAfterNanos) {
    super();
    this.limiterName = limiterName;
    this.retryAfterNanos = Math.max(0L, retryAfterNanos);
  }

  /**
   * The name of the limiter that refused the call.
   *
   * @return the limiter name
   */
  public String limiterName() {
    return limiterName;
  }

  /**
   * Nanoseconds until the same call would be admitted at once.
   *
   * @return nanoseconds, {@code >= 0}; {@link Long#MAX_VALUE} means never
   */
  public long retryAfterNanos() {
    return retryAfterNanos;
  }

  /**
   * {@link #retryAfterNanos()} as a duration.
   *
   * @return the time until the same call would be admitted at once; {@code
   *     Duration.ofNanos(Long.MAX_VALUE)} (about 292 years) means never
   */
  public Duration retryAfter() {
    return Duration.ofNanos(retryAfterNanos);
  }

  /**
   * Every limit that refused the call: for a method with several limits, each one that refused it,
   * {@link #limiterName()} first; otherwise that one alone.
   *
   * @return the names, never empty; an unmodifiable list
   */
  public List<String> refusingLimiters() {
    String[] names = refusing;
    return names == null
        ? Collections.singletonList(limiterName)
        : Collections.unmodifiableList(Arrays.asList(names.clone()));
  }

  /**
   * Describes the refusal, for example {@code rate limit 'orders' exceeded; retry after 100 ms},
   * or, for a call several limits refused, {@code rate limit 'a' exceeded (also refused by 'b');
   * retry after 1000 ms}.
   *
   * @return the message, built on each call
   */
  @Override
  public String getMessage() {
    StringBuilder message = new StringBuilder("rate limit '").append(limiterName).append('\'');
    if (getCause() instanceof InterruptedException) {
      message.append(": interrupted while waiting");
    } else {
      message.append(" exceeded");
      String[] names = refusing;
      if (names != null && names.length > 1) {
        message.append(" (also refused by");
        for (int i = 1; i < names.length; i++) {
          message.append(i == 1 ? " '" : ", '").append(names[i]).append('\'');
        }
        message.append(')');
      }
    }
    message.append("; retry after ");
    if (retryAfterNanos == Long.MAX_VALUE) {
      return message.append("never").toString();
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(retryAfterNanos);
    if (millis * 1_000_000L != retryAfterNanos) {
      millis++; // round up: waiting the printed time is always enough
    }
    return message.append(millis).append(" ms").toString();
  }

  /**
   * Records nothing: a rate-limit refusal is expected control flow, and a stack trace would cost
   * more than the limit check itself.
   *
   * @return this exception, unchanged
   */
  @Override
  public Throwable fillInStackTrace() {
    return this;
  }
}
