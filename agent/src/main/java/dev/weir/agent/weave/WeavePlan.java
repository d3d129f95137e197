package dev.weir.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The methods a transformation means to limit, per thread, so that the transformer can check that
 * each one really received its prologue: a method that was planned but never matched would
 * otherwise run unlimited without a word.
 *
 * <p>Byte Buddy weaves on the thread that calls the transformer, so a thread-local list holds the
 * plan from {@link LimitWeaver} (which plans) to {@link WeirTransformer} (which checks).
 */
final class WeavePlan {
  private static final ThreadLocal<List<Expected>> PLANNED = new ThreadLocal<List<Expected>>();

  private WeavePlan() {}

  /** Starts an empty plan for the class about to be transformed on this thread. */
  static void begin() {
    PLANNED.set(new ArrayList<Expected>());
  }

  /**
   * Records that {@code origin} must be matched by {@code matcher}, and returns a matcher that
   * notes the match.
   *
   * @param origin the method, for the error message
   * @param matcher the method's matcher
   * @return the recording matcher
   */
  static ElementMatcher<MethodDescription> expect(
      String origin, ElementMatcher<? super MethodDescription> matcher) {
    Expected expected = new Expected(origin, matcher);
    List<Expected> plan = PLANNED.get();
    if (plan != null) {
      plan.add(expected);
    }
    return expected;
  }

  /**
   * Ends the plan of this thread.
   *
   * @return the methods planned but never matched, empty when every one was woven or when the whole
   *     class failed (that failure is reported already)
   */
  static List<String> end() {
    List<Expected> plan = PLANNED.get();
    PLANNED.remove();
    List<String> missed = new ArrayList<String>();
    if (plan != null) {
      for (Expected expected : plan) {
        if (!expected.matched) {
          missed.add(expected.origin);
        }
      }
    }
    return missed;
  }

  private static final class Expected implements ElementMatcher<MethodDescription> {
    private final String origin;
    private final ElementMatcher<? super MethodDescription> matcher;
    private boolean matched;

    Expected(String origin, ElementMatcher<? super MethodDescription> matcher) {
      this.origin = origin;
      this.matcher = matcher;
    }

    @Override
    public boolean matches(MethodDescription target) {
      boolean matches = matcher.matches(target);
      matched |= matches;
      return matches;
    }
  }
}
