package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter whose value selects the bucket: one bucket per distinct key value ({@code
 * String.valueOf(argument)}; {@code "null"} for null; arrays by content, as {@link
 * java.util.Arrays#toString(int[])} and {@link java.util.Arrays#deepToString(Object[])} give, so
 * two arrays with equal elements share a bucket), like nginx's per-client zones. One parameter of a
 * method may carry it.
 *
 * <p>The key must name what is limited. A parameter whose type is a class that keeps {@link
 * Object#toString()} would give every call a new key ({@code ClassName@hash}) and so its own full
 * bucket: the limit would do nothing. Such a method is invalid: it is reported when its class
 * loads, and every call throws {@link IllegalStateException} (fails closed). Where the type cannot
 * tell (an interface, an abstract class, {@code Object}), the keys are looked at as they arrive,
 * and the first that looks like {@code ClassName@hash} is reported once.
 *
 * <p>A key's bucket is made full (a leaky bucket: empty) when the key is first seen and dropped
 * once it is full again, which no call can observe, so memory follows the keys in use. Each limiter
 * holds at most {@code maxKeys} keys (an agent argument, default 100,000); past that, a call with a
 * new key is admitted whenever a held key is idle (that key is dropped for it), and otherwise
 * limited with a retry-after of exactly the time until the first held key goes idle; keys already
 * held are unaffected. The key is computed before the limit, so the argument's {@code toString}
 * runs on every call.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LimitKey {}
