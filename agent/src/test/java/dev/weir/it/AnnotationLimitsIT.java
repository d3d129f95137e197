package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Annotated methods limited by the real agent jar in a forked JVM, on each JDK of {@code
 * -Dweir.it.jdks}. Real time is involved only where the contract is about real time (waiting,
 * spacing); those assertions hold on a loaded machine: departures are never early, and lateness is
 * bounded generously.
 */
class AnnotationLimitsIT {
  private static final String SCENARIOS = "dev.weir.it.fixtures.Scenarios";
  private static final long MS = 1_000_000L;

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void tokenBucketBurstPassesThenLimits(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "burst").assertExit(0);
    assertEquals(20, r.longValue("admitted"), r::toString);
    assertEquals(20, r.longValue("bodyRuns"), "a limited call never runs the body");
    assertEquals("dev.weir.it.fixtures.Scenarios#burst", r.value("limiter"));
    long retryAfter = r.longValue("retryAfterNanos");
    assertTrue(retryAfter > 0 && retryAfter <= 100 * MS, "retry-after " + retryAfter);
    assertEquals(0, r.longValue("stackTraceLength"), "the exception carries no stack trace");
    assertTrue(r.err.contains("[weir] weir "), "the start line: " + r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void waitingRetryAfterIsEnough(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "recover").assertExit(0);
    long retryAfter = r.longValue("retryAfterNanos");
    assertTrue(retryAfter > 0 && retryAfter <= 200 * MS, "retry-after " + retryAfter);
    assertEquals("true", r.value("recovered"), r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void shapingSpacesDeparturesAndBoundsTheQueue(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "shaping").assertExit(0);
    // six callers at once on 5/s with capacity 3: three admitted, 200 ms apart; three limited
    assertEquals(3, r.longValue("admitted"), r::toString);
    assertEquals(3, r.longValue("limited"), r::toString);
    for (int k = 0; k < 3; k++) {
      long departure = r.longValue("departure" + k);
      assertTrue(departure >= k * 200 * MS, "departure " + k + " early: " + departure);
      assertTrue(departure <= k * 200 * MS + 1_000 * MS, "departure " + k + " late: " + departure);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void policingLimitsWithoutWaiting(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "policing").assertExit(0);
    assertEquals(3, r.longValue("admitted"), r::toString);
    assertEquals(3, r.longValue("limited"), r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void waitPacesCallsAndRejectsWhatWouldWaitTooLong(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "wait").assertExit(0);
    // ten calls at 20/s with capacity 1: the last nine each wait for a 50 ms slot
    long paced = r.longValue("pacedElapsedNanos");
    assertTrue(paced >= 450 * MS, "paced calls took only " + paced);
    assertTrue(paced <= 450 * MS + 1_500 * MS, "paced calls took " + paced);
    // 1/s with maxWait 100 ms: the second call would wait ~1 s, so it is rejected at once
    assertEquals("limited", r.value("impatient"), r::toString);
    long retryAfter = r.longValue("impatientRetryAfterNanos");
    assertTrue(retryAfter > 500 * MS && retryAfter <= 1_000 * MS, "retry-after " + retryAfter);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anExplicitNameIsOneBucketForEveryMethodGivingIt(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "shared").assertExit(0);
    assertEquals(3, r.longValue("admitted"), r::toString);
    assertEquals("shared-orders", r.value("limiter"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyRecursiveInvocationCostsItsPermit(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "recursion").assertExit(0);
    assertEquals("limited", r.value("result"), "capacity 2, six nested invocations");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void manyThreadsGetExactlyTheCapacity(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "contended", "platform").assertExit(0);
    assertEquals(100, r.longValue("admitted"), r::toString);
    assertEquals(64 * 1_000 - 100, r.longValue("limited"));
    assertEquals(100, r.longValue("bodyRuns"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anIsolatedClassLoaderGetsItsOwnDefaultNamedBucket(String jdk) {
    Result r =
        ForkedJvm.withAgent(jdk, null, "dev.weir.it.fixtures.LoaderScenario", ForkedJvm.FIXTURES)
            .assertExit(0);
    assertEquals("isolated", r.value("loader"), r::toString);
    assertEquals(List.of("20", "20"), r.all("admitted"), r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void withoutTheAgentNothingIsLimited(String jdk) {
    Result r = ForkedJvm.run(jdk, List.of(), SCENARIOS, "contended", "platform").assertExit(0);
    assertEquals(64 * 1_000, r.longValue("admitted"), r::toString);
  }
}
