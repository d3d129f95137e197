package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The per-key benchmark measures admitted per-key acquires on the keys it claims. */
class KeyedAcquireBenchmarkTest {
  @Test
  void everyMeasuredCallIsAdmittedOnItsOwnKey() {
    KeyedAcquireBenchmark benchmark = new KeyedAcquireBenchmark();
    benchmark.setUp();
    assertEquals(
        1_001_000, benchmark.admittedInSetUp, "a bucket of its own for each of 1,001,000 keys");
    for (int i = 0; i < 2_000_000; i++) {
      assertEquals(0, benchmark.plain());
      assertEquals(0, benchmark.oneKey());
      assertEquals(0, benchmark.thousandKeys());
      assertEquals(0, benchmark.millionKeys());
    }
  }
}
