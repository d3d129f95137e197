package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Invalid annotations fail closed: an error when the class loads, and every call refused. */
class InvalidAnnotationIT {
  private static final String C = "dev.weir.it.fixtures.InvalidLimits";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void eachInvalidAnnotationIsRefusedWithAMessageNamingIt(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, C).assertExit(0);
    assertEquals(
        "invalid @TokenBucket on " + C + "#negativeRate(): rate must be > 0 and finite, was -3.0",
        r.value("negativeRate"));
    assertEquals(r.value("negativeRate"), r.value("negativeRate.again"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#permitsOverCapacity(): permits must be between 1 and the capacity (5), was 6",
        r.value("permitsOverCapacity"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#withFallback(): fallback 'slow' must be a method of "
            + C
            + " named 'slow' taking () or (dev.weir.RateLimitedException) and returning void;"
            + " there is no method of that name",
        r.value("withFallback"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#fallbackParameters(int): fallback 'wrongParameters' must be a method of "
            + C
            + " named 'wrongParameters' taking (int) or (int,dev.weir.RateLimitedException) and"
            + " returning java.lang.String; found [wrongParameters(long)]",
        r.value("fallbackParameters"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#fallbackReturn(int): fallback wrongReturn(int) returns java.lang.Object, but "
            + C
            + "#fallbackReturn(int) returns java.lang.String; they must return the same type",
        r.value("fallbackReturn"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#fallbackNotStatic(): fallback instanceFallback() must be static, as "
            + C
            + "#fallbackNotStatic() is",
        r.value("fallbackNotStatic"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#fallbackAmbiguous(): fallback 'twice' is ambiguous: both twice() and"
            + " twice(dev.weir.RateLimitedException) exist; keep one",
        r.value("fallbackAmbiguous"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#fallbackItself(): fallback 'fallbackItself' is the limited method itself",
        r.value("fallbackItself"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#<init>(int): fallback 'other' is not allowed on a constructor, which cannot"
            + " return another object",
        r.value("constructorFallback"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#withTwoKeys(java.lang.String,java.lang.String): @LimitKey is on parameters 0 and"
            + " 1; one parameter may carry it",
        r.value("withTwoKeys"));
    assertEquals("ran", r.value("keyedFirst"));
    assertEquals(
        "invalid limit on "
            + C
            + "#unkeyedSecond(java.lang.String): name 'keyed-or-not' is already used by "
            + C
            + "#keyedFirst(java.lang.String) with one bucket per key, and this method asks for one"
            + " bucket; methods sharing a name must agree on the key",
        r.value("unkeyedSecond"));
    assertEquals("ran", r.value("conflictFirst"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#conflictSecond(): name 'conflict' is already used by "
            + C
            + "#conflictFirst() with token bucket 10.0/SECONDS capacity 10 permits 1 REJECT, and"
            + " this method asks for token bucket 20.0/SECONDS capacity 10 permits 1 REJECT;"
            + " methods sharing a name must agree on the settings",
        r.value("conflictSecond"));
    assertEquals(
        "invalid limit on "
            + C
            + "#both(): it carries 2 limits, and a method with more than one names each; give"
            + " this @TokenBucket a name",
        r.value("both"));
    assertEquals(
        "invalid @LeakyBucket on "
            + C
            + "#negativeCapacity(): capacity must be >= 0 (0 means one 'per' worth of the rate),"
            + " was -1",
        r.value("negativeCapacity"));
    assertTrue(
        r.err.contains(
            "[weir] ERROR invalid @TokenBucket on "
                + C
                + "#negativeRate(): rate must be > 0 and finite, was -3.0 (every call of the"
                + " method throws IllegalStateException)"),
        r.err);
  }
}
