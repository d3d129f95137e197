package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The benchmark measures what it says: every call it times is an admitted acquire. */
class CoreAcquireBenchmarkTest {
  @Test
  void everyMeasuredCallIsAdmitted() {
    CoreAcquireBenchmark benchmark = new CoreAcquireBenchmark();
    benchmark.setUp();
    for (int i = 0; i < 1_000_000; i++) {
      assertEquals(0, benchmark.core());
      assertEquals(0, benchmark.limiter());
      assertEquals(0, benchmark.bridge());
    }
  }

  @Test
  void theFloorDoesItsCas() {
    CoreAcquireBenchmark benchmark = new CoreAcquireBenchmark();
    benchmark.setUp();
    assertEquals(0, benchmark.floor(), "the first call reads the initial value");
    long before = System.nanoTime();
    benchmark.floor();
    long after = System.nanoTime();
    long stored = benchmark.floor();
    assertEquals(true, stored - before >= 0 && after - stored >= 0, "the CAS stored the reading");
  }
}
