package dev.weir.agent.bootstrap.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BackOffTest {
  @Test
  void spinsAtLeastItsTimeOnTheClock() {
    for (int i = 0; i < 1_000; i++) {
      long start = System.nanoTime();
      BackOff.afterLostRace();
      long spun = System.nanoTime() - start;
      assertTrue(
          spun >= BackOff.SPIN_NANOS, "spun " + spun + " ns, less than " + BackOff.SPIN_NANOS);
    }
  }

  @Test
  void theSpinWaitHintReturnsOnThisJdk() {
    for (int i = 0; i < 1_000; i++) {
      SpinWait.hint();
    }
  }
}
