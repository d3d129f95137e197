package dev.weir.agent.weave;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.WeirBridge;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;

/**
 * The advice inlined at the start of every limited method: a trampoline into {@link WeirBridge}
 * with the limiter's id and name bound as constants when the class is woven.
 *
 * <p>Its bytecode is copied into the woven method, so it follows the rules of inlined advice:
 * static methods only, no state, no lambdas, no string building, nothing but bootstrap types and
 * {@code java.lang}. The {@link RateLimitedException} is constructed here, in the woven class, so
 * it is the class that the woven class's own loader sees. Exceptions are not suppressed: an invalid
 * limit's {@link IllegalStateException} and the {@link RateLimitedException} reach the caller.
 */
final class LimitAdvice {
  private LimitAdvice() {}

  /** Binds the limiter's id, an {@code int} constant. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface Id {}

  /** Binds the limiter's name, a {@code String} constant. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface Name {}

  @Advice.OnMethodEnter
  static void enter(@Id int limiterId, @Name String limiterName) {
    long result = WeirBridge.acquire(limiterId);
    if (result != 0L) {
      throw WeirBridge.limited(
          new RateLimitedException(limiterName, WeirBridge.retryAfterNanos(result)), result);
    }
  }
}
