package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter whose value selects the bucket: one bucket per distinct key value ({@code
 * String.valueOf(argument)}; {@code "null"} for null; arrays, {@code char[]} included, by identity
 * as {@code String.valueOf(Object)} gives), like nginx's per-client zones. One parameter of a
 * method may carry it, of any type.
 *
 * <p>A key's bucket is made full (a leaky bucket: empty) when the key is first seen and dropped
 * once it is full again, which no call can observe, so memory follows the keys in use. Each limiter
 * holds at most {@code maxKeys} keys (an agent argument, default 1,000,000); past that, a call with
 * a new key is limited, with a retry-after of the time until a held key may go idle, and keys
 * already held are unaffected. The key is computed before the limit, so the argument's {@code
 * toString} runs on every call.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LimitKey {}
