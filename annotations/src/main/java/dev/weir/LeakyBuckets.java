package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The container of repeated {@link LeakyBucket} annotations, which the compiler writes when a
 * method carries more than one; code need not name it.
 *
 * <p>A method with several limits (any mix of {@code @TokenBucket} and {@code @LeakyBucket}) gives
 * each a {@code name}: a missing one makes the method fail closed. Every limit applies, all or
 * nothing: a call is admitted only when each admits it, and a call that one refuses is charged on
 * none, exactly. A call that may wait (every limit {@code WAIT} or {@code SHAPING}) gets one
 * departure instant, the earliest at which every limit admits it, and is charged on each at that
 * instant, so a shaping limit keeps its constant rate; it is admitted when that instant is within
 * each limit's own bound. A refused call's {@link RateLimitedException} carries the time until the
 * call as a whole would pass, and the name of the refusing limit furthest beyond its bound.
 *
 * <pre>{@code
 * @TokenBucket(name = "partner-per-second", rate = 10)
 * @TokenBucket(name = "partner-per-day", rate = 1000, per = TimeUnit.DAYS)
 * Quote quote(String symbol) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface LeakyBuckets {
  /**
   * The limits, in the order written.
   *
   * @return the annotations
   */
  LeakyBucket[] value();
}
