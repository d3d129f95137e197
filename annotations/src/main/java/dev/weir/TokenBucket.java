package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * Limits the annotated method or constructor with a token bucket: bursts up to {@link #capacity()}
 * pass at once, and the long-run rate is bounded by {@link #rate()} permits per {@link #per()}.
 *
 * <p>Tokens are added continuously at {@code rate} per {@code per}, up to {@code capacity}; each
 * call takes {@link #permits()} tokens. A call that finds too few tokens is limited as {@link
 * #onLimit()} says. The bucket starts full. Weir implements it as the Generic Cell Rate Algorithm
 * (GCRA, ITU-T I.371; RFC 2697 describes the equivalent token-bucket meter) on one atomic word, so
 * an admitted call costs about one clock read and one compare-and-set.
 *
 * <p>The annotation does nothing by itself: it takes effect only when the JVM runs with the Weir
 * agent ({@code -javaagent:weir-agent.jar}), which weaves the limit into the method as its class
 * loads. It limits exactly the method that carries it: overrides and implementations are not
 * limited by it, and every invocation (including recursive ones) costs its permits exactly once. A
 * native method is limited through a wrapper under its name (the JVM's native method prefix), and
 * so is a method too large to take the limit in place; a constructor too large for it fails closed.
 *
 * <p>An invalid value (for example {@code rate <= 0}, or {@code permits > capacity}) is reported
 * when the class loads, and every call of the method then throws {@link IllegalStateException}
 * naming the attribute and the value: an invalid limit fails closed.
 *
 * <p>Repeatable, and may be mixed with {@link LeakyBucket}: a method may carry several limits (10 a
 * second and 1,000 a day), each with its own {@code name}; a call is admitted only when every one
 * of them admits it, and a refused call is charged by none (see {@link TokenBuckets}).
 *
 * <pre>{@code
 * @TokenBucket(rate = 50, capacity = 100)   // 50 orders per second, bursts of 100
 * void place(Order order) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
@Repeatable(TokenBuckets.class)
public @interface TokenBucket {

  /**
   * The limiter's id. Empty (the default) means {@code Class.getName() + "#" + methodName} ({@code
   * <init>} for constructors), for example {@code com.acme.Outer$Inner#send}; when a class has
   * several limited methods of that name, each gets its parameter types appended, {@code
   * #send(int,java.lang.String)}. A default-named limiter is one per class loader, class and
   * method. An explicit name is JVM-wide: every method giving that name shares one bucket, and they
   * must agree on every setting, or the later one is invalid.
   *
   * @return the limiter name, or empty for the default name
   */
  String name() default "";

  /**
   * Tokens added per {@link #per()}: a finite number greater than 0, for example {@code 0.5} with
   * {@code per = SECONDS} for one call every two seconds.
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
   * The most tokens the bucket holds: the largest burst that passes at once. 0 (the default) means
   * one {@code per} worth: {@code max(1, ceil(rate))}.
   *
   * @return the capacity in permits, {@code >= 0}
   */
  long capacity() default 0;

  /**
   * Tokens each call takes, from 1 to the capacity. More than the capacity is invalid.
   *
   * @return permits per call, {@code 1..capacity}
   */
  int permits() default 1;

  /**
   * What a call that finds too few tokens does.
   *
   * @return {@link OnLimit#REJECT} (the default) or {@link OnLimit#WAIT}
   */
  OnLimit onLimit() default OnLimit.REJECT;

  /**
   * The longest a call may wait for its tokens, in milliseconds, used when {@link #onLimit()} is
   * {@link OnLimit#WAIT}. A call whose wait would be longer is rejected at once.
   *
   * @return the wait bound in milliseconds, {@code >= 0}; default 1000
   */
  long maxWaitMillis() default 1000;

  /**
   * The warm-up period, in milliseconds: 0 (the default) for none, otherwise from 1 to 86,400,000
   * (one day). A limiter with a warm-up starts cold, and is cold again after idling: a cold limiter
   * releases no burst and admits at first at about a third of {@link #rate()}; the interval between
   * admissions falls linearly with the permits taken, to {@code 1 / rate} after about {@code
   * warmUpMillis} of full use, when the bucket is the token bucket it is without a warm-up (bursts
   * up to {@link #capacity()}). This is Guava's {@code RateLimiter.create(rate, warmupPeriod)}
   * (cold factor 3) without its "pay later": a cold call waits (or is limited) for its own
   * interval, not the one before it. Not supported with a {@link LimitKey} yet (the method fails
   * closed).
   *
   * @return milliseconds, {@code 0..86400000}; 0 for no warm-up
   */
  long warmUpMillis() default 0;

  /**
   * A method of the same class called instead of throwing when the call is limited: same parameters
   * (optionally followed by a {@link RateLimitedException}, which then carries the retry-after and,
   * for an interrupted waiter, the {@link InterruptedException} as its cause) and same return type;
   * static if the limited method is static; any access. Its result is returned to the caller; an
   * exception the method's own body throws is never replaced. A constructor cannot have one. A
   * missing or mismatched fallback makes the method fail closed: every call throws {@link
   * IllegalStateException} naming it.
   *
   * @return the fallback method's name, or empty for none
   */
  String fallback() default "";
}
