package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * Limits the annotated method or constructor with a leaky bucket: calls leave the bucket at exactly
 * {@link #rate()} per {@link #per()}.
 *
 * <p>In {@link Mode#SHAPING} (the default) admitted calls wait for their departure slot, so the
 * method runs at a strict constant rate: this is the Generic Cell Rate Algorithm (GCRA, ITU-T
 * I.371) with tolerance {@code (capacity - 1) / rate}. A call is admitted when its wait would be at
 * most {@code (capacity - 1) / rate}, so at most {@code capacity} admitted calls are waiting or
 * leaving at once (capacity {@code c} behaves like nginx {@code limit_req burst=c-1}). In {@link
 * Mode#POLICING} nothing waits: a call is admitted while the water level plus one fits in the
 * capacity, otherwise it is limited. The bucket starts empty. Slots are first come, first served.
 *
 * <p>The annotation does nothing by itself: it takes effect only when the JVM runs with the Weir
 * agent ({@code -javaagent:weir-agent.jar}). It limits exactly the method that carries it (native
 * and very large methods included), and an invalid value fails closed, as described for {@link
 * TokenBucket}.
 *
 * <p>Repeatable, and may be mixed with {@link TokenBucket}: a method may carry several limits (10 a
 * second and 1,000 a day), each with its own {@code name}; a call is admitted only when every one
 * of them admits it, and a refused call is charged by none (see {@link LeakyBuckets}).
 *
 * <pre>{@code
 * @LeakyBucket(rate = 20, capacity = 10)    // 20 writes per second, at most 10 queued
 * void write(Row row) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
@Repeatable(LeakyBuckets.class)
public @interface LeakyBucket {

  /** How a leaky bucket treats calls: delay them to a constant rate, or meter them. */
  enum Mode {
    /**
     * Admitted calls wait for their departure slot, {@code 1 / rate} apart: the output is a
     * constant rate, and the queue holds at most {@code capacity} calls.
     */
    SHAPING,

    /**
     * Nothing waits: a call is admitted while the water level (+1) fits in the capacity, and
     * limited otherwise. This is the meter form of the leaky bucket.
     */
    POLICING
  }

  /**
   * The limiter's id, as for {@link TokenBucket#name()}: empty means the default name {@code
   * Class.getName() + "#" + methodName}; an explicit name is JVM-wide and shared.
   *
   * @return the limiter name, or empty for the default name
   */
  String name() default "";

  /**
   * Calls that leave the bucket per {@link #per()}: a finite number greater than 0.
   *
   * @return permits per {@code per}, {@code > 0} and finite
   */
  double rate();

  /**
   * The unit of {@link #rate()}.
   *
   * @return the time unit of the rate; default {@link TimeUnit#SECONDS}
   */
  TimeUnit per() default TimeUnit.SECONDS;

  /**
   * The most calls the bucket holds (waiting or leaving in {@link Mode#SHAPING}). 0 (the default)
   * means one {@code per} worth: {@code max(1, ceil(rate))}.
   *
   * @return the capacity in calls, {@code >= 0}
   */
  long capacity() default 0;

  /**
   * How the bucket treats calls.
   *
   * @return {@link Mode#SHAPING} (the default) or {@link Mode#POLICING}
   */
  Mode mode() default Mode.SHAPING;

  /**
   * What a call that finds the bucket full does: {@link OnLimit#REJECT} (the default) throws at
   * once; {@link OnLimit#WAIT} waits for room, up to {@link #maxWaitMillis()} from arrival to
   * departure (the blocking-enqueue variant).
   *
   * @return the action on a full bucket
   */
  OnLimit onLimit() default OnLimit.REJECT;

  /**
   * The longest a call may wait, in milliseconds, from arrival to departure. The default ({@link
   * Long#MAX_VALUE}) leaves the capacity alone to bound a {@link Mode#SHAPING} wait; with {@link
   * OnLimit#WAIT}, a call waits for room up to this bound instead of being limited at once.
   *
   * @return the wait bound in milliseconds, {@code >= 0}
   */
  long maxWaitMillis() default Long.MAX_VALUE;

  /**
   * A method of the same class called instead of throwing, as for {@link TokenBucket#fallback()}:
   * same parameters (optionally plus a trailing {@link RateLimitedException}), same return type.
   *
   * @return the fallback method's name, or empty for none
   */
  String fallback() default "";
}
