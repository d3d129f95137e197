package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Each peer really admits when the benchmark says permits are available, and really refuses when it
 * says the limiter is exhausted, so no cell can report the speed of a limiter doing something else.
 */
class PeerAcquireBenchmarkTest {
  private static PeerAcquireBenchmark benchmark(String state) {
    PeerAcquireBenchmark b = new PeerAcquireBenchmark();
    b.state = state;
    b.setUp();
    return b;
  }

  @Test
  void everyLimiterAdmitsWhenPermitsAreAvailable() {
    PeerAcquireBenchmark b = benchmark("available");
    for (int i = 0; i < 100_000; i++) {
      assertEquals(0, b.weir(), "weir");
      assertTrue(b.bucket4j(), "bucket4j");
      assertTrue(b.guava(), "guava");
      assertTrue(b.resilience4j(), "resilience4j");
      assertTrue(b.failsafe(), "failsafe");
    }
  }

  @Test
  void everyLimiterRefusesWhenExhausted() {
    PeerAcquireBenchmark b = benchmark("exhausted");
    for (int i = 0; i < 100_000; i++) {
      assertTrue(b.weir() < 0, "weir");
      assertFalse(b.bucket4j(), "bucket4j");
      assertFalse(b.guava(), "guava");
      assertFalse(b.resilience4j(), "resilience4j");
      assertFalse(b.failsafe(), "failsafe");
    }
  }

  @Test
  void theFloorDoesItsCas() {
    PeerAcquireBenchmark b = benchmark("available");
    assertEquals(0, b.floor(), "the first call reads the initial value");
    long before = System.nanoTime();
    b.floor();
    long stored = b.floor();
    assertTrue(stored - before >= 0, "the CAS stored the reading");
  }

  @Test
  void theRetryingFloorDoesItsCas() {
    PeerAcquireBenchmark b = benchmark("available");
    assertEquals(0, b.floorRetrying(), "the first call replaces the initial value");
    long before = System.nanoTime();
    b.floorRetrying();
    assertTrue(b.floorRetrying() - before >= 0, "the CAS stored the reading");
  }
}
