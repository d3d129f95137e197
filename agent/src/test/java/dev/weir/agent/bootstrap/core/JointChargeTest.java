package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The charge of a call with several limits on one limit's state ({@link JointCharge}): charging at
 * the departure keeps the bound, and an undo is exact where a serial order can tell and otherwise
 * gives back nothing it cannot prove, on a fake clock.
 */
class JointChargeTest {
  private static final long MS = 1_000_000L;
  private final FakeClock clock = new FakeClock(3 * 1_000_000_000L);

  private GcraBucket bucket(Discipline d, double rate, long capacity, boolean wait) {
    return GcraBucket.create(d, rate, SECONDS, capacity, wait, 10_000 * MS, clock.nanoTime());
  }

  private static int passNow(GcraBucket b, long now) {
    int n = 0;
    while (n < 10_000 && b.acquire(now, 1, true) == 0) {
      n++;
    }
    return n;
  }

  @Test
  void undoIsExactWhenNothingCameAfter() {
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 10, 10, false);
    long now = clock.nanoTime();
    assertEquals(0, b.acquire(now, 6, true), "six of ten taken");
    long before = b.fullAt;
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, now, 0, 1, slots, 0));
    assertTrue(JointCharge.undo(b, slots, 0, clock));
    assertEquals(before, b.fullAt, "back where it was, to the tick");
  }

  @Test
  void undoAfterLaterChargesAtThatInstantGivesBackExactly() {
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 10, 10, false);
    long now = clock.nanoTime();
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, now, 0, 1, slots, 0));
    assertEquals(9, passNow(b, now), "nine more at the same instant");
    assertTrue(JointCharge.undo(b, slots, 0, clock));
    assertEquals(1, passNow(b, now), "the undone permit, and only it, is there again");
  }

  @Test
  void undoAfterLaterChargesNeverOverAdmits() {
    // full bucket, charged at t; a call alone at t + 50 ms; undone at t + 50 ms: a serial order
    // without the charge has the bucket full at t + 50 ms, then one taken: 9 left, exactly
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 10, 10, false);
    long t = clock.nanoTime();
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 0, 1, slots, 0));
    clock.advance(50 * MS);
    assertEquals(0, b.acquire(clock.nanoTime(), 1, true));
    assertTrue(JointCharge.undo(b, slots, 0, clock));
    assertEquals(9, passNow(b, clock.nanoTime()), "never 10: the bucket holds at most capacity");
  }

  @Test
  void aSlotThatPassedIsNotGivenBack() {
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 10, 2, false);
    long t = clock.nanoTime();
    assertEquals(2, passNow(b, t));
    clock.advance(100 * MS);
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, clock.nanoTime(), 0, 1, slots, 0));
    clock.advance(1000 * MS); // the bucket refilled meanwhile
    assertEquals(0, b.acquire(clock.nanoTime(), 1, true), "a later call");
    assertTrue(JointCharge.undo(b, slots, 0, clock));
    assertEquals(1, passNow(b, clock.nanoTime()), "full less the later call: nothing to add");
  }

  @Test
  void onABucketWhereCallsWaitAnUndoBehindALaterChargeGivesNothing() {
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 10, 10, true);
    long t = clock.nanoTime();
    long[] mine = new long[JointCharge.SLOT];
    long[] theirs = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 0, 1, mine, 0));
    // another call departs 5 s from now (another limit made it wait): charged there
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 5000 * MS, 1, theirs, 0));
    long after = b.fullAt;
    assertFalse(JointCharge.undo(b, mine, 0, clock), "the later charge absorbed this one");
    assertEquals(after, b.fullAt);
  }

  @Test
  void chargeAtTheDepartureKeepsTheBound() {
    GcraBucket b = bucket(Discipline.SHAPING, 10, 5, false);
    long t = clock.nanoTime();
    long bound = JointCharge.waitBoundNanos(b);
    assertEquals(400 * MS, bound, "the queue: (capacity - 1) / rate");
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(JointCharge.PLAN_AGAIN, JointCharge.chargeAt(b, t, bound + 1, 1, slots, 0));
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, bound, 1, slots, 0));
    long ahead = b.fullAt - t * b.ticksPerNano();
    assertTrue(ahead <= b.admitLimitTicks(), "fullAt - now within the admit limit");
    long plan = JointCharge.plan(b, t, 1, false);
    assertTrue(plan > b.admitLimitTicks(), "the queue is full behind that call");
  }

  @Test
  void aChargeFindingTheStateMovedTakesNothing() {
    GcraBucket b = bucket(Discipline.SHAPING, 10, 5, false);
    long t = clock.nanoTime();
    long[] slots = new long[JointCharge.SLOT];
    assertEquals(0, b.acquire(t, 1, false));
    long before = b.fullAt;
    assertEquals(
        JointCharge.PLAN_AGAIN,
        JointCharge.chargeAt(b, t, 0, 1, slots, 0),
        "planned as departing now, but the slot now is taken");
    assertEquals(before, b.fullAt);
  }

  @Test
  void undoBehindALaterWaiterLetsTwoShapedCallsDepartTogether() {
    // SHAPING 10/s: P departs now; A (a group call) is charged the next slot, 100 ms; K, a call
    // alone, waits behind it for the slot at 200 ms; A is refused by another limit and undone.
    // K's departure is fixed: no later call may depart within 100 ms of it.
    GcraBucket b = bucket(Discipline.SHAPING, 10, 10, false);
    long t = clock.nanoTime();
    assertEquals(0, b.acquire(t, 1, true), "P departs now");
    long[] a = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 100 * MS, 1, a, 0));
    long k = b.acquire(t, 1, true);
    long kDeparts = t + b.toNanosCeil(k);
    assertEquals(t + 200 * MS, kDeparts, "K waits behind A");
    JointCharge.undo(b, a, 0, clock);
    long l = b.acquire(t, 1, true);
    long lDeparts = t + b.toNanosCeil(l);
    assertTrue(
        Math.abs(lDeparts - kDeparts) >= 100 * MS,
        "a shaping limit releases one call per 100 ms, but K departs at "
            + (kDeparts - t) / MS
            + " ms and L at "
            + (lDeparts - t) / MS
            + " ms");
  }

  @Test
  void undoAfterALaterUnclampedFutureChargeOverAdmits() {
    // SHAPING 10/s, empty: A is charged the slot at now; J, another group call that another limit
    // delays to 100 ms, is charged there, right behind A, so its charge is not clamped and does
    // not count in futureCharges. Without A, J's charge at 100 ms would have been clamped there:
    // fullAt = now + 200 ms. The undo may not leave the bucket emptier than that.
    GcraBucket b = bucket(Discipline.SHAPING, 10, 10, false);
    long t = clock.nanoTime();
    long[] a = new long[JointCharge.SLOT];
    long[] j = new long[JointCharge.SLOT];
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 0, 1, a, 0));
    assertEquals(JointCharge.CHARGED, JointCharge.chargeAt(b, t, 100 * MS, 1, j, 0));
    JointCharge.undo(b, a, 0, clock);
    long l = b.acquire(t, 1, true);
    assertEquals(
        200 * MS,
        b.toNanosCeil(l),
        "J departs at 100 ms: a call alone now must depart no earlier than 200 ms");
  }
}
