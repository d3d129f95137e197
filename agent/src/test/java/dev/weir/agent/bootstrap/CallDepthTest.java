package dev.weir.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The per-thread cells that keep a config limit from charging nested calls and Weir's own work. */
class CallDepthTest {
  private static final int LIMITER = 40; // beyond the first array: it grows

  @Test
  void nestedCallsAndWeirsOwnWorkGetTheScratchCell() {
    int[] outer = CallDepth.enter(LIMITER);
    assertTrue(CallDepth.isOutermost(outer), "the outermost call is charged");
    int[] nested = CallDepth.enter(LIMITER);
    assertNotSame(outer, nested);
    assertFalse(CallDepth.isOutermost(nested), "a nested call passes free");
    nested[0] = 0; // the nested call's exit
    assertTrue(CallDepth.isOutermost(outer), "and changes nothing of the outer one");
    outer[0] = 0; // the outer call's exit
    int[] again = CallDepth.enter(LIMITER);
    assertSame(outer, again, "one cell per thread and limiter");
    assertTrue(CallDepth.isOutermost(again), "charged again once the outer call has left");
    again[0] = 0;

    int[] section = CallDepth.enterWeir();
    try {
      int[] inWeir = CallDepth.enter(LIMITER);
      assertFalse(CallDepth.isOutermost(inWeir), "Weir's own work is never charged");
      inWeir[0] = 0;
    } finally {
      section[0]--;
    }
    assertEquals(0, section[0]);
    int[] after = CallDepth.enter(LIMITER);
    assertTrue(CallDepth.isOutermost(after), "charged again after Weir's section");
    after[0] = 0;
  }
}
