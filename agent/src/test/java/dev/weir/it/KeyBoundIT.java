package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * At the bound on keys, in real time with the background sweeper running, a new key is admitted
 * whenever a held key is idle, and a limited one is admitted when it comes back after exactly its
 * retry-after. Before the heap of idle instants, the same run with {@code maxKeys=100} refused some
 * of the 100 new keys while every held key was idle, and most calls retried after their retry-after
 * (then always 1 ms) were refused again; with {@code maxKeys=2} the retry-after named no key at all
 * while a sweep was overdue.
 */
class KeyBoundIT {
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void atTheBoundIdleKeysMakeRoomAndTheRetryAfterIsExact(String jdk) {
    for (int bound : new int[] {100, 2}) {
      Result r =
          ForkedJvm.withAgent(jdk, "maxKeys=" + bound, "dev.weir.it.fixtures.KeyBound", "" + bound)
              .assertExit(0);
      assertEquals(bound, r.longValue("held"), r::toString);
      assertEquals(bound, r.longValue("fresh"), "every held key was idle: " + r);
      assertTrue(r.longValue("retries") > 0, "some calls were limited at the bound: " + r);
      assertEquals(r.longValue("retries"), r.longValue("retriesAdmitted"), r::toString);
      assertTrue(r.longValue("longestRetryAfterMillis") <= 20, "one emission interval: " + r);
    }
  }
}
