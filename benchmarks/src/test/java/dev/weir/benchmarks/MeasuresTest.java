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
