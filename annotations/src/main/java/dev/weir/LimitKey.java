package dev.weir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter whose value selects the bucket: one bucket per distinct key value ({@code
 * String.valueOf(argument)}), like nginx's per-client zones. Idle keys do not grow memory without
 * bound.
 *
 * <p>Not supported by this version of the agent: a method with a {@code @LimitKey} parameter is
 * refused (fails closed: every call throws {@link IllegalStateException}) rather than limited with
 * one shared bucket.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LimitKey {}
