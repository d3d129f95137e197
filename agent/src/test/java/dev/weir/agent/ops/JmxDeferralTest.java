package dev.weir.agent.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When JMX is set up: on a fake clock and class counter, ticks 250 ms apart as the thread's. */
class JmxDeferralTest {
  private static final long MS = 1_000_000L;
  private static final long TICK = Management.TICK_MILLIS * MS;

  @Test
  void aQuietJvmSetsUpAtTheSecondTick() {
    JmxDeferral rule = new JmxDeferral(0);
    assertFalse(rule.setUpNow(true, 40 * MS, 700), "the first tick judges no interval");
    assertTrue(rule.setUpNow(true, 40 * MS + TICK, 700 + JmxDeferral.QUIET_CLASSES - 1));
  }

  @Test
  void aBusyStartWaitsAtMostHalfASecondFromTheAgentsStart() {
    JmxDeferral rule = new JmxDeferral(0);
    assertFalse(rule.setUpNow(true, 100 * MS, 100));
    assertFalse(rule.setUpNow(true, 100 * MS + TICK, 2_000));
    assertTrue(rule.setUpNow(true, 100 * MS + 2 * TICK, 4_000), "500 ms after the start");
  }

  @Test
  void aLimiterMadeWhileBusyWaitsAtMostHalfASecondFromTheTickBeforeItWasSeen() {
    JmxDeferral rule = new JmxDeferral(0);
    long now = 0;
    int classes = 0;
    for (int i = 0; i < 8; i++) { // a busy JVM with nothing to show
      now += TICK;
      classes += 1_000;
      assertFalse(rule.setUpNow(false, now, classes));
    }
    long before = now; // the limiter appears after this tick: seen at the next
    now += TICK;
    classes += 1_000;
    assertFalse(rule.setUpNow(true, now, classes), "busy");
    now += TICK;
    classes += 1_000;
    assertTrue(rule.setUpNow(true, now, classes));
    assertTrue(now - before <= JmxDeferral.MAX_DEFER_NANOS);
  }

  @Test
  void aLimiterMadeInAQuietIntervalIsSetUpAtOnce() {
    JmxDeferral rule = new JmxDeferral(0);
    assertFalse(rule.setUpNow(false, TICK, 5_000));
    assertFalse(rule.setUpNow(false, 2 * TICK, 9_000));
    assertTrue(rule.setUpNow(true, 3 * TICK, 9_010));
  }

  @Test
  void aShortIntervalIsNeverQuiet() {
    JmxDeferral rule = new JmxDeferral(0);
    assertFalse(rule.setUpNow(true, 10 * MS, 0));
    assertFalse(rule.setUpNow(true, 10 * MS + JmxDeferral.MIN_INTERVAL_NANOS - 1, 0));
  }
}
