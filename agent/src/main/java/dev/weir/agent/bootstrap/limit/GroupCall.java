package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.JointCharge;
import dev.weir.agent.bootstrap.core.NanoClock;

/**
 * One call's work: the local members and their states, the slots charged, what is held. Each thread
 * keeps one for its calls ({@link #take}), so an admitted call allocates nothing.
 */
final class GroupCall {
  private static final ThreadLocal<GroupCall[]> KEPT =
      new ThreadLocal<GroupCall[]>() {
        @Override
        protected GroupCall[] initialValue() {
          return new GroupCall[1];
        }
      };

  private boolean busy;

  /** This thread's call of at least {@code n} members, cleared; a new one if it is in use. */
  static GroupCall take(int n) {
    GroupCall[] kept = KEPT.get();
    GroupCall c = kept[0];
    if (c == null || c.busy || c.members.length < n) {
      c = new GroupCall(n);
      if (kept[0] == null || !kept[0].busy) {
        kept[0] = c;
      }
    }
    c.busy = true;
    return c;
  }

  /** Ends the call: nothing of it is kept for the next but the arrays. */
  void release() {
    for (int i = 0; i < m; i++) {
      members[i] = null;
      keys[i] = null;
      states[i] = null;
    }
    for (int j = 0; j < held; j++) {
      reservations[j] = null;
      holders[j] = null;
      heldKeys[j] = null;
    }
    m = 0;
    held = 0;
    refusedBy = null;
    clock = null;
    busy = false;
  }

  final BucketLimiter[] members;
  final String[] keys;
  final BucketState[] states;
  final long[] slots;
  final long[] waits;
  int m;

  /** Cluster members' held slots, and at-once cluster admissions to refund on a refusal. */
  final Reservation[] reservations;

  final BucketLimiter[] holders;
  final String[] heldKeys;
  int held;

  /** The names of the limits that refused the call, the longest wait first. */
  String[] refusedBy;

  /** The local member with the longest wait in the last plan. */
  int longest;

  NanoClock clock;

  GroupCall(int n) {
    members = new BucketLimiter[n];
    keys = new String[n];
    states = new BucketState[n];
    slots = new long[n * JointCharge.SLOT];
    waits = new long[n];
    reservations = new Reservation[n];
    holders = new BucketLimiter[n];
    heldKeys = new String[n];
  }

  void add(BucketLimiter member, String key) {
    members[m] = member;
    keys[m] = key;
    m++;
  }

  void hold(Reservation r, BucketLimiter member, String key) {
    reservations[held] = r;
    holders[held] = member;
    heldKeys[held] = key;
    held++;
  }

  /** The longest wait of the cluster slots held so far, nanoseconds. */
  long heldWait() {
    long wait = 0;
    for (int j = 0; j < held; j++) {
      wait = Math.max(wait, reservations[j].waitNanos());
    }
    return wait;
  }

  /** Gives back what the cluster members hold: charged by none. */
  void withdrawAll() {
    for (int j = 0; j < held; j++) {
      Reservation r = reservations[j];
      if (r.waits()) {
        r.withdraw();
      } else {
        holders[j].refund(heldKeys[j]);
      }
      reservations[j] = null;
      holders[j] = null;
      heldKeys[j] = null;
    }
    held = 0;
  }

  /**
   * Plans and charges the local members, all or nothing, departing no earlier than {@code minWait}
   * from now; waits for the departure unless cluster slots are held (then {@link #awaitHeld} does).
   */
  long charge(long minWait) {
    clock = members[0].clock();
    for (; ; ) {
      long now = clock.nanoTime();
      long planned = plan(now, minWait);
      if (planned == PLAN_AGAIN) {
        continue;
      }
      if (planned < 0) {
        withdrawAll();
        return -planned;
      }
      int charged = 0;
      while (charged < m) {
        int at = charged * JointCharge.SLOT;
        int r =
            JointCharge.chargeAt(
                states[charged], now, planned, members[charged].permits(), slots, at);
        if (r != JointCharge.CHARGED) {
          break;
        }
        charged++;
      }
      if (charged < m) {
        undo(charged);
        continue; // a state moved since the plan: plan again
      }
      return planned == 0 ? admitAll() : await(now, planned);
    }
  }

  private static final long PLAN_AGAIN = Long.MIN_VALUE;

  /**
   * Plans every local member at {@code now}: the call's wait in nanoseconds ({@code >= 0}), or
   * {@code -retryAfterNanos} when refused (counted), or {@link #PLAN_AGAIN}.
   */
  private long plan(long now, long minWait) {
    long wait = minWait;
    long minBound = Long.MAX_VALUE;
    int longest = -1;
    boolean fresh = false;
    for (int i = 0; i < m; i++) {
      BucketLimiter member = members[i];
      BucketState state = states[i];
      if (state == null || state.fullAt == GcraBucket.RETIRED) {
        state = member.stateFor(keys[i], now, state != null);
        if (state == null) { // a new key past the bound on keys: refused by that member alone
          member.counts().reject();
          refusedBy = new String[] {member.name()};
          long retry = member.keyedBuckets().retryAfterBoundNanos(now);
          return retry == 0 ? PLAN_AGAIN : -retry;
        }
        states[i] = state;
      }
      long needed = JointCharge.plan(state, now, member.permits(), fresh);
      if (needed == GcraBucket.STALE_CLOCK || needed == GcraBucket.CLOCK_STEPPED_BACK) {
        if (needed == GcraBucket.CLOCK_STEPPED_BACK) {
          state.bucket.resetAfterClockStep(state, clock.nanoTime());
        }
        now = clock.nanoTime();
        fresh = true;
        wait = minWait;
        longest = -1;
        i = -1;
        continue;
      }
      if (needed == GcraBucket.STATE_RETIRED) {
        return PLAN_AGAIN;
      }
      long w =
          needed == GcraBucket.NEVER ? Long.MAX_VALUE : JointCharge.waitNanos(state.bucket, needed);
      waits[i] = w;
      if (longest < 0 || w > wait) {
        longest = i;
      }
      wait = Math.max(wait, w);
    }
    this.longest = longest;
    if (wait == 0) {
      return 0; // every limit admits it now: within any bound
    }
    for (int i = 0; i < m; i++) {
      minBound = Math.min(minBound, JointCharge.waitBoundNanos(states[i].bucket));
    }
    if (wait <= minBound) {
      return wait;
    }
    refusedBy = countRefusal(wait, longest);
    return -(wait == Long.MAX_VALUE ? Long.MAX_VALUE : wait - minBound);
  }

  /**
   * Counts a refused call rejected where it would be alone; if none would (one cannot wait as long
   * as another needs), where the call's wait is beyond the bound; returns the names of the limits
   * that refused it, the one with the longest wait first.
   */
  private String[] countRefusal(long wait, int longest) {
    boolean alone = false;
    for (int i = 0; i < m && !alone; i++) {
      alone = waits[i] > JointCharge.waitBoundNanos(states[i].bucket);
    }
    // the longest wait may be a cluster member's slot, which the call's wait started from
    boolean fromHeld = waits[longest] < wait && held > 0;
    String[] names = new String[m + 1];
    names[0] = fromHeld ? longestHeld() : members[longest].name();
    int n = 1;
    for (int i = 0; i < m; i++) {
      long bound = JointCharge.waitBoundNanos(states[i].bucket);
      if (alone ? waits[i] > bound : wait > bound) {
        members[i].counts().reject();
        if (fromHeld || i != longest) {
          names[n++] = members[i].name();
        }
      }
    }
    String[] refused = new String[n];
    System.arraycopy(names, 0, refused, 0, n);
    return refused;
  }

  /** The name of the cluster member whose held slot is the latest. */
  private String longestHeld() {
    int latest = 0;
    for (int j = 1; j < held; j++) {
      if (reservations[j].waitNanos() > reservations[latest].waitNanos()) {
        latest = j;
      }
    }
    return holders[latest].name();
  }

  private void undo(int charged) {
    for (int j = 0; j < charged; j++) {
      JointCharge.undo(states[j], slots, j * JointCharge.SLOT, clock);
    }
  }

  private long admitAll() {
    for (int i = 0; i < m; i++) {
      members[i].counts().admit();
    }
    return Limiter.ADMITTED;
  }

  /** Parks until the departure, counted as a wait on each member; interrupted, gives back all. */
  private long await(long now, long wait) {
    int[] section = CallDepth.enterWeir(); // the park and the histogram charge no config limit
    try {
      return awaitOwn(now, wait);
    } finally {
      section[0]--;
    }
  }

  private long awaitOwn(long now, long wait) {
    for (int i = 0; i < m; i++) {
      members[i].counts().startWait();
    }
    try {
      long due = now + wait;
      for (; ; ) {
        long left = due - clock.nanoTime();
        if (left <= 0) {
          long spent = Math.max(0, clock.nanoTime() - now);
          for (int i = 0; i < m; i++) {
            members[i].counts().admitAfterWait(spent);
          }
          return Limiter.ADMITTED;
        }
        clock.parkNanos(left);
        if (Thread.currentThread().isInterrupted()) {
          refusedBy = new String[] {members[longest].name()};
          undo(m);
          long retry = 1;
          for (int i = 0; i < m; i++) {
            members[i].counts().reject();
            retry = Math.max(retry, members[i].probe(keys[i]));
          }
          return ~retry;
        }
      }
    } finally {
      for (int i = 0; i < m; i++) {
        members[i].counts().endWait();
      }
    }
  }

  /**
   * Ends the held cluster slots once the local members admitted the call: their slots come no later
   * than its departure, which included their waits.
   */
  long awaitHeld() {
    for (int j = 0; j < held; j++) {
      long r = reservations[j].await();
      if (r != 0) {
        // interrupted, or ended by another thread: the call does not proceed
        undo(m);
        withdrawAll();
        return r > 0 && Thread.currentThread().isInterrupted() ? ~r : Math.max(1, r);
      }
    }
    return Limiter.ADMITTED;
  }
}
