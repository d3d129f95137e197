package dev.weir;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A limit annotation of a newer API than this agent knows: its methods must fail closed. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SlidingWindow {
  /**
   * The rate.
   *
   * @return calls per window
   */
  double rate();
}
