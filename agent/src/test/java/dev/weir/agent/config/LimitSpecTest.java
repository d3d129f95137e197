package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.Discipline;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LimitSpecTest {
  @Test
  void annotationDefaults() {
    LimitSpec token = LimitSpec.builder(Discipline.TOKEN_BUCKET).rate(2.5).build();
    assertEquals(3, token.capacity(), "max(1, ceil(rate))");
    assertEquals(1, token.permits());
    assertEquals(1000, token.maxWaitMillis());
    assertEquals(TimeUnit.SECONDS, token.per());
    assertEquals("", token.name());

    LimitSpec leaky = LimitSpec.builder(Discipline.SHAPING).rate(0.2).build();
    assertEquals(1, leaky.capacity());
    assertEquals(Long.MAX_VALUE, leaky.maxWaitMillis());
  }

  @Test
  void everyProblemIsListedWithItsValue() {
    LimitSpec.Builder b =
        LimitSpec.builder(Discipline.TOKEN_BUCKET)
            .rate(Double.NaN)
            .capacity(-2)
            .maxWaitMillis(-1)
            .permits(0);
    assertEquals(
        List.of(
            "rate must be > 0 and finite, was NaN",
            "capacity must be >= 0 (0 means one 'per' worth of the rate), was -2",
            "maxWaitMillis must be >= 0, was -1",
            "permits must be >= 1, was 0"),
        b.problems());
    assertThrows(IllegalStateException.class, b::build);
  }

  @Test
  void permitsAreCheckedAgainstTheEffectiveCapacity() {
    assertEquals(
        List.of("permits must be between 1 and the capacity (2, from the rate), was 3"),
        LimitSpec.builder(Discipline.TOKEN_BUCKET).rate(1.5).permits(3).problems());
    assertTrue(
        LimitSpec.builder(Discipline.TOKEN_BUCKET).rate(1.5).permits(2).problems().isEmpty());
    assertEquals(
        List.of("rate must be > 0 and finite, was Infinity"),
        LimitSpec.builder(Discipline.TOKEN_BUCKET).rate(Double.POSITIVE_INFINITY).problems());
  }

  @Test
  void rateIsRequired() {
    assertEquals(List.of("rate must be set"), LimitSpec.builder(Discipline.POLICING).problems());
  }
}
