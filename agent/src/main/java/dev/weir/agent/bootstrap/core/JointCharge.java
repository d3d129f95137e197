package dev.weir.agent.bootstrap.core;

/**
 * The charge of one call that several limits apply to, all or nothing (nginx's two-phase check of
 * several {@code limit_req}, lock-free): every limit is planned first without taking anything
 * ({@link #plan}), the call's one departure instant {@code D} is the latest that any of them needs,
 * and only when each admits a call departing at {@code D} is each charged at {@code D} ({@link
 * #chargeAt}). A charge that finds its state moved since the plan takes nothing, and the charges
 * made before it are undone ({@link #undo}); the caller plans again.
 *
 * <h2>Charging at the departure</h2>
 *
 * <p>A call departing at {@code D} is charged on each limit as if it arrived there: {@code fullAt}
 * moves to {@code max(fullAt, X) + cost}, where {@code X = D} for a token bucket and a policing
 * leaky bucket, and {@code X = D - (permits - 1) * T} for a shaping one (its last permit's slot
 * starts at {@code D}). So a token bucket holds, at {@code D}, what it holds after serving the call
 * then, and a shaping bucket releases its calls at its constant rate whatever other limit delayed
 * one. {@code D} never precedes the limit's own departure, so {@code X >= max(fullAt, now)} where
 * it matters, and a call is admitted only if {@code D - now} is within each limit's own wait bound
 * ({@code admitLimit - freeLimit}: its {@code maxWaitMillis}, or its queue); then {@code fullAt -
 * now <= admitLimit} as for a call alone.
 *
 * <h2>Undoing a charge exactly</h2>
 *
 * <p>A charge moved {@code fullAt} from {@code c} to {@code n}. The undo is:
 *
 * <ul>
 *   <li>{@code fullAt == n}: no later charge stands; {@code fullAt} goes back to {@code c}, exactly
 *       (the rule for interrupted waiters);
 *   <li>otherwise, on a bucket that never makes a call wait ({@code REJECT}, {@code POLICING}),
 *       every later charge was an admission at once, {@code fullAt = max(fullAt, t_j) + cost_j} at
 *       a clock reading {@code t_j} taken before the undo reads its own, {@code t}. Had the charge
 *       never been made, those would have produced {@code f'} with {@code f' <= max(c, t) + (f -
 *       n)} ({@code max} and {@code +} are monotone), so the undo takes away {@code n - max(c, t)}
 *       when that is positive: the part of the call's slot that has not passed, exactly what a
 *       serial order without the call would have left (a slot already passed would have been lost
 *       to an idle bucket anyway);
 *   <li>otherwise (a bucket where later calls wait: their departures were fixed behind this charge,
 *       and giving it back would let a new call depart with one of them) nothing is given back:
 *       less is admitted, never more.
 * </ul>
 *
 * Bucket4j's refund, by contrast, adds the permits back capped at the capacity, which over-admits
 * when the bucket refilled meanwhile.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>J1: a call is charged on no limit unless each admits it at its departure, and a call that
 *       any limit refuses leaves every state as a serial order without it would have (guarded by
 *       {@code LimitGroupTest.oneRefusesAndNothingIsCharged} and {@code
 *       JointChargeTest.undoIsExactWhenNothingCameAfter}).
 *   <li>J2: an undo never makes a state fuller than a serial order without the call, and never
 *       gives back a slot a later waiting call's departure depends on (guarded by {@code
 *       JointChargeTest.undoAfterLaterChargesNeverOverAdmits}, {@code
 *       JointChargeTest.undoBehindALaterWaiterLetsTwoShapedCallsDepartTogether}, {@code
 *       LimitGroupTest.interruptedGroupWaiterGivesBackSlotsLaterWaitersHold} and {@code
 *       LimitGroupStressTest.neverOverAdmitsOnEitherLimitWhileTheClockMoves}).
 *   <li>J3: a charge at {@code D} keeps I1 of {@link GcraBucket}: {@code fullAt - now <=
 *       admitLimit} (guarded by {@code JointChargeTest.chargeAtTheDepartureKeepsTheBound}).
 * </ol>
 *
 * <p>Stateless and thread-safe; a charge is one CAS on each limit's state, allocates nothing and
 * never blocks.
 */
public final class JointCharge {
  /** Result of {@link #chargeAt}: charged. */
  public static final int CHARGED = 0;

  /** Result of {@link #chargeAt}: the state moved since the plan; nothing taken; plan again. */
  public static final int PLAN_AGAIN = 1;

  /** Result of {@link #chargeAt}: the state was retired (a live change, an idle key). */
  public static final int RETIRED = 2;

  /** Longs per limit in the slots array of {@link #chargeAt} and {@link #undo}. */
  public static final int SLOT = 2;

  private JointCharge() {}

  /**
   * What {@link GcraBucket#acquire} would decide for {@code permits} permits at {@code nowNanos},
   * without taking anything: the first phase of a call with several limits ({@link JointCharge}).
   * Never blocks.
   *
   * @param state the state
   * @param nowNanos the clock's reading
   * @param permits permits to take, {@code >= 1}
   * @param freshClock as for {@link GcraBucket#acquire(BucketState, long, long, boolean)}
   * @return {@code > 0}: how far ahead of now the call would put {@code fullAt}, in ticks (it is
   *     admitted alone when this is at most the admit limit; it waits for the part beyond the free
   *     limit); {@link GcraBucket#NEVER}, {@link GcraBucket#STALE_CLOCK}, {@link
   *     GcraBucket#CLOCK_STEPPED_BACK} or {@link GcraBucket#STATE_RETIRED} as {@link
   *     GcraBucket#acquire} answers them
   */
  public static long plan(BucketState state, long nowNanos, long permits, boolean freshClock) {
    GcraBucket b = state.bucket;
    long cost = b.costTicks(permits);
    if (permits > b.capacity() || b.intervalTicksOnly() == GcraBucket.NEVER_TICKS) {
      return GcraBucket.NEVER;
    }
    long current = state.fullAt;
    if (current == GcraBucket.RETIRED) {
      return GcraBucket.STATE_RETIRED;
    }
    long ahead = current - nowNanos * b.ticksPerNano();
    if (ahead > b.admitLimitTicks()) {
      if (!freshClock) {
        return GcraBucket.STALE_CLOCK;
      }
      if (ahead <= GcraBucket.WRAPPED) {
        if (ahead > b.clockBackLimitTicks()) {
          return GcraBucket.CLOCK_STEPPED_BACK;
        }
        return ahead + cost >= GcraBucket.NEVER_TICKS ? GcraBucket.NEVER : ahead + cost;
      }
      ahead = 0;
    }
    long needed = (ahead > 0 ? ahead : 0) + cost;
    return needed >= GcraBucket.NEVER_TICKS ? GcraBucket.NEVER : needed;
  }

  /**
   * The wait a plan means on this limit.
   *
   * @param bucket the state's bucket
   * @param needed a positive answer of {@link #plan}
   * @return nanoseconds, rounded up, {@code >= 0}
   */
  public static long waitNanos(GcraBucket bucket, long needed) {
    long wait = needed - bucket.freeLimitTicks();
    return wait > 0 ? bucket.toNanosCeil(wait) : 0;
  }

  /**
   * The longest wait the limit lets a call take: its {@code maxWaitMillis}, or its queue.
   *
   * @param bucket the bucket
   * @return nanoseconds, rounded down, {@code >= 0}
   */
  public static long waitBoundNanos(GcraBucket bucket) {
    return bucket.waitBoundNanos;
  }

  /**
   * Charges the call on one limit at its departure {@code nowNanos + waitNanos}, if the limit
   * admits a call departing then; otherwise takes nothing. Never blocks.
   *
   * @param state the limit's state
   * @param nowNanos the reading the plan was made at
   * @param waitNanos the call's wait, {@code >= 0}, at most {@link #waitBoundNanos} of the bucket
   * @param permits the call's permits on this limit
   * @param slots where the charge is recorded for {@link #undo}: {@link #SLOT} longs from {@code
   *     at}
   * @param at the first of them
   * @return {@link #CHARGED}, {@link #PLAN_AGAIN} or {@link #RETIRED}
   */
  public static int chargeAt(
      BucketState state, long nowNanos, long waitNanos, long permits, long[] slots, int at) {
    GcraBucket b = state.bucket;
    long tpn = b.ticksPerNano();
    long now = nowNanos * tpn;
    long cost = b.costTicks(permits);
    long free = b.freeLimitTicks();
    long admit = b.admitLimitTicks();
    if (waitNanos > b.waitBoundNanos) {
      return PLAN_AGAIN; // beyond this limit's own bound
    }
    long wait = waitNanos * tpn;
    long x = now + wait + Math.min(0, free - cost);
    for (; ; ) {
      long current = state.fullAt;
      if (current == GcraBucket.RETIRED) {
        return RETIRED;
      }
      long ahead = current - now;
      long needed = (ahead > 0 ? ahead : 0) + cost;
      if (ahead > admit || needed > admit || needed - free > wait) {
        return PLAN_AGAIN;
      }
      long next = (x - current > 0 ? x : current) + cost;
      if (GcraBucket.casFullAt(state, current, next)) {
        slots[at] = current;
        slots[at + 1] = next == GcraBucket.RETIRED ? next + 1 : next;
        return CHARGED;
      }
      BackOff.afterLostRace();
    }
  }

  /**
   * Undoes a charge of {@link #chargeAt}, exactly where a serial order can tell (see the class
   * comment), otherwise not at all. Never blocks.
   *
   * @param state the state charged
   * @param slots the record {@link #chargeAt} made
   * @param at its first long
   * @param clock the clock the charge was read on, read again here after the state
   * @return true if the state is now as a serial order without the call would have left it; false
   *     if the charge stays taken (less is admitted, never more)
   */
  public static boolean undo(BucketState state, long[] slots, int at, NanoClock clock) {
    GcraBucket b = state.bucket;
    long before = slots[at];
    long charged = slots[at + 1];
    long tpn = b.ticksPerNano();
    for (; ; ) {
      long current = state.fullAt;
      if (current == GcraBucket.RETIRED) {
        return false; // retired meanwhile: its successor keeps the charge (less is admitted)
      }
      if (current == charged) {
        if (GcraBucket.casFullAt(state, current, before)) {
          return true;
        }
        continue;
      }
      if (b.admitLimitTicks() != b.freeLimitTicks()) {
        return false; // later calls wait behind it: their slots depend on it
      }
      long t = clock.nanoTime() * tpn; // after reading the state: no later charge read later
      long floor = t - before > 0 ? t : before;
      long give = charged - floor;
      if (give <= 0) {
        return true; // the slot has passed: an idle bucket would have lost it too
      }
      if (GcraBucket.casFullAt(state, current, current - give)) {
        return true;
      }
    }
  }
}
