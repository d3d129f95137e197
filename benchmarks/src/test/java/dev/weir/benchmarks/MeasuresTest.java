package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The memory and shaping measures compute what they report. */
class MeasuresTest {
  @Test
  void aPerfectScheduleHasNoDeviationAndEvenGaps() {
    long[] departures = new long[1000];
    for (int k = 0; k < departures.length; k++) {
      departures[k] = 5_000_000_000L + k * 1_000_000L;
    }
    Histogram[] h = ShapingAccuracy.analyse(departures);
    assertEquals(0, h[0].getMaxValue(), "deviation");
    assertEquals(1000, h[1].getMinValue(), "gaps of 1,000 us");
    assertEquals(1000, h[1].getMaxValue());
  }

  @Test
  void aLateDepartureIsMeasuredAgainstTheScheduleNotItsNeighbour() {
    long[] departures = {0, 1_000_000, 2_500_000, 3_000_000};
    Histogram[] h = ShapingAccuracy.analyse(departures);
    assertEquals(500, h[0].getMaxValue(), "the third left 500 us late");
    assertEquals(500, h[1].getMinValue(), "then a gap of 500 us");
    assertEquals(1500, h[1].getMaxValue());
  }

  @Test
  void weirsGateNeverReleasesFasterThanTheRate() throws InterruptedException {
    long[] departures = ShapingAccuracy.measure(ShapingAccuracy.weir(), 0); // the warm-up second
    assertEquals(0, departures.length, "nothing measured after the warm-up at 0 s");
    ShapingAccuracy.Gate gate = ShapingAccuracy.weir();
    long first = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      gate.pass();
    }
    long span = System.nanoTime() - first;
    assertTrue(span >= 199_000_000L, "200 departures at 1,000/s take at least 199 ms: " + span);
  }

  @Test
  void interruptedWaitersNeverLetTheRateBeExceeded() throws InterruptedException {
    InterruptedWaiters.Result r =
        InterruptedWaiters.measure(1, InterruptedWaiters.INTERRUPTS_PER_SECOND);
    // one measured second after the queue filled: at most the rate, plus the slot in progress
    assertTrue(
        r.admittedPerSecond <= InterruptedWaiters.RATE + 1, "admitted " + r.admittedPerSecond);
    assertTrue(r.interruptedWaiters > 0, "some waiters were interrupted");
  }

  @Test
  void theFloorGateKeepsTheScheduleToo() {
    long first = System.nanoTime();
    ShapingAccuracy.Gate gate = ShapingAccuracy.floor(); // its schedule starts as it is made
    for (int i = 0; i < 200; i++) {
      gate.pass();
    }
    long span = System.nanoTime() - first;
    assertTrue(span >= 199_000_000L, "200 departures at 1,000/s take at least 199 ms: " + span);
  }

  @Test
  void contendedPairsTimeEachContenderAndWeirAdmits() throws Exception {
    ContendedPairs pairs = new ContendedPairs();
    assertEquals(0, pairs.call(ContendedPairs.WEIR, 0), "Weir's bucket admits");
    for (int peer = ContendedPairs.PEERS_FROM; peer < ContendedPairs.PEERS_TO; peer++) {
      assertEquals(1, pairs.call(peer, 0), ContendedPairs.CONTENDERS[peer] + " admits");
    }
    // without the agent the annotated method is the plain one: the same body, the same answer
    assertEquals(pairs.call(ContendedPairs.PLAIN, 5), pairs.call(ContendedPairs.WOVEN, 5));
    double[][] results = pairs.measure(3, 2_000_000);
    assertEquals(3, results.length);
    for (double[] round : results) {
      assertEquals(ContendedPairs.CONTENDERS.length, round.length);
      for (double nanosPerCall : round) {
        assertTrue(nanosPerCall > 0 && nanosPerCall < 1_000_000, "ns per call: " + nanosPerCall);
      }
    }
  }

  @Test
  void acquireLatencyTimesEveryCallOfEveryContender() throws Exception {
    org.HdrHistogram.Histogram[] all = new AcquireLatency().measure(1, 2_000_000);
    assertEquals(AcquireLatency.TIMED.length + 1, all.length, "each contender, then the timer");
    for (org.HdrHistogram.Histogram h : all) {
      assertTrue(h.getTotalCount() >= 512, "two threads, 256 calls at least each");
      assertTrue(h.getValueAtPercentile(50) > 0 && h.getMaxValue() >= h.getValueAtPercentile(99.9));
    }
  }

  @Test
  void contendedPairsTakeTheMedianRatioWithItsInterval() {
    // ratios weir / floor per round: 1.0, 2.0, 1.5, 1.2, 1.1
    double[][] results = {{10, 0, 10}, {10, 0, 20}, {10, 0, 15}, {10, 0, 12}, {10, 0, 11}};
    double[] ratio = ContendedPairs.medianRatio(results, 2, 0);
    assertEquals(1.2, ratio[0], 1e-9);
    assertEquals(1.0, ratio[1], 1e-9, "five rounds are too few for 95%: the extremes");
    assertEquals(2.0, ratio[2], 1e-9);
    assertEquals(0, ContendedPairs.confidenceRank(5));
    assertEquals(2, ContendedPairs.confidenceRank(10));
    assertEquals(6, ContendedPairs.confidenceRank(20), "the 6th and 15th of 20 (95.9%)");
    // differences, not ratios: woven - plain - floor per round
    double[] beyond = ContendedPairs.medianOf(new double[][] {{4}, {9}, {-1}, {6}, {5}}, 0);
    assertEquals(5, beyond[0], 1e-9);
    assertEquals(-1, beyond[1], 1e-9);
    assertEquals(9, beyond[2], 1e-9);
  }

  @Test
  void keyMemoryAdmitsEveryKeyOnceAndReportsEachFigure() throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      KeyMemory.main(new String[] {"20000"});
    } finally {
      System.setOut(out);
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("liveKeysAdmitted=20000\n"), text);
    for (String key :
        new String[] {
          "liveBytesPerKey=", "idleBytesLeft=", "baselineBytesPerKey=", "keys=20000\n"
        }) {
      assertTrue(text.contains(key), key + " in " + text);
    }
  }
}
