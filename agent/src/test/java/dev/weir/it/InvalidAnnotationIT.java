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
            + "#permitsOverCapacity(): permits must be at most the capacity (5), was 6",
        r.value("permitsOverCapacity"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#withFallback(): fallback is not supported by this version of Weir (fallbacks"
            + " arrive in a later version), was 'slow'; the method is refused rather than limited"
            + " without it",
        r.value("withFallback"));
    assertEquals(
        "invalid @TokenBucket on "
            + C
            + "#withKey(java.lang.String,java.lang.String): @LimitKey on parameter 1 is not"
            + " supported by this version of Weir (per-key buckets arrive in a later version); the"
            + " method is refused rather than limited with one shared bucket",
        r.value("withKey"));
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
            + "#both(): a method may carry only one of @TokenBucket and @LeakyBucket",
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
