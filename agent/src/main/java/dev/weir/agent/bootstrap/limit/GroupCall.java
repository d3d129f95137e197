package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.cluster.SharedCharge;
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
    for (int j = 0; j < shares; j++) {
      sharedMembers[j] = null;
      sharedKeys[j] = null;
    }
    if (shared != null) {
      shared.clear();
    }
    m = 0;
    held = 0;
    shares = 0;
    sharedCharged = false;
    oneByOne = false;
    departureBy = null;
    refusedBy = null;
    reserving = false;
    reservation = null;
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

  /** Cluster members, charged together in one exchange ({@link #chargeShared}). */
  final BucketLimiter[] sharedMembers;

  final String[] sharedKeys;
  int shares;

  /** The exchange's work; made at the thread's first call with cluster members. */
  private SharedCharge shared;

  /** Whether the cluster members are charged (an interrupted wait gives back on them too). */
  private boolean sharedCharged;

  /**
   * Set by {@link #chargeShared} when the backend cannot charge the cluster members in one exchange
   * (or failed): nothing was charged, and they are to be reserved one by one.
   */
  boolean oneByOne;

  /** The cluster member whose wait set the departure of {@link #chargeShared}; else null. */
  private String departureBy;

  /** The names of the limits that refused the call, the named one first ({@link #countRefusal}). */
  String[] refusedBy;

  /**
   * True for a call that does not wait on its thread ({@link LimitGroup#reserveAll}): an admitted
   * one leaves its charges in {@link #reservation}.
   */
  boolean reserving;

  /** What an admitted reserving call holds. */
  Reservation reservation;

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
    sharedMembers = new BucketLimiter[n];
    sharedKeys = new String[n];
  }

  void addShared(BucketLimiter member, String key) {
    sharedMembers[shares] = member;
    sharedKeys[shares] = key;
    shares++;
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
      withdraw(reservations[j], holders[j], heldKeys[j]);
      reservations[j] = null;
      holders[j] = null;
      heldKeys[j] = null;
    }
    held = 0;
  }

  /**
   * Gives back a cluster member's reservation, made on its own, for a call charged by none: a held
   * slot is withdrawn, a call admitted at once refunded.
   */
  static void withdraw(Reservation r, BucketLimiter holder, String key) {
    if (r.waits()) {
      r.withdraw();
    } else {
      holder.refund(key);
    }
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
      return depart(now, planned);
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
    refusedBy = countRefusal(m, wait, longest);
    return -(wait == Long.MAX_VALUE ? Long.MAX_VALUE : wait - minBound);
  }

  /**
   * Counts a refused call and names the limits that refused it (SPEC "Several limits on one
   * method"): rejected on each member that would refuse it alone; if none would (each admits it
   * alone, but one cannot wait as long as another needs), on each whose bound the call's wait
   * exceeds; if none is (racing calls kept moving a cluster departure), on the one with the longest
   * wait. The first name is the counted member whose time beyond its bound is the longest (its own
   * wait, or where none refuses alone the call's; ties: the longest own wait), then the others
   * counted: so the name is always of a limit whose {@code Rejected} count the call raised.
   *
   * @param n the members: the local ones, then those of the shared charge
   * @param wait the call's wait, nanoseconds
   * @param longestAt the member with the longest own wait
   * @return the names
   */
  private String[] countRefusal(int n, long wait, int longestAt) {
    boolean alone = false;
    for (int i = 0; i < n && !alone; i++) {
      alone = ownWait(i) > boundAt(i);
    }
    int first = -1;
    long firstOver = 0;
    int counted = 0;
    for (int i = 0; i < n; i++) {
      long over = (alone ? ownWait(i) : wait) - boundAt(i); // its time, beyond what it may wait
      if (over > 0) {
        memberAt(i).counts().reject();
        counted++;
        if (first < 0 || over > firstOver || (over == firstOver && ownWait(i) > ownWait(first))) {
          first = i;
          firstOver = over;
        }
      }
    }
    if (first < 0) {
      memberAt(longestAt).counts().reject();
      return new String[] {memberAt(longestAt).name()};
    }
    String[] names = new String[counted];
    names[0] = memberAt(first).name();
    for (int i = 0, k = 1; i < n; i++) {
      if (i != first && (alone ? ownWait(i) : wait) - boundAt(i) > 0) {
        names[k++] = memberAt(i).name();
      }
    }
    return names;
  }

  /** The wait bound of member {@code i} (local, then shared), nanoseconds. */
  private long boundAt(int i) {
    return JointCharge.waitBoundNanos(i < m ? states[i].bucket : shared.bucket(i - m));
  }

  private void undo(int charged) {
    for (int j = 0; j < charged; j++) {
      JointCharge.undo(states[j], slots, j * JointCharge.SLOT, clock);
    }
  }

  private static final Reservation[] NO_RESERVATIONS = new Reservation[0];
  private static final BucketLimiter[] NO_LIMITERS = new BucketLimiter[0];
  private static final String[] NO_KEYS = new String[0];

  /**
   * The charged call departs {@code wait} nanoseconds after {@code now}: at once, after a park on
   * this thread, or, for a reserving call, holding its charges in {@link #reservation}.
   */
  private long depart(long now, long wait) {
    if (!reserving) {
      return wait == 0 ? admitAll() : await(now, wait);
    }
    int n = chargedMembers();
    BucketLimiter[] charged = new BucketLimiter[n];
    String[] chargedKeys = new String[n];
    for (int i = 0; i < n; i++) {
      charged[i] = memberAt(i);
      chargedKeys[i] = keyAt(i);
      if (wait == 0) {
        charged[i].counts().admit();
      } else {
        charged[i].counts().startWait();
      }
    }
    Reservation[] heldNow =
        held == 0 ? NO_RESERVATIONS : java.util.Arrays.copyOf(reservations, held);
    BucketLimiter[] heldBy = held == 0 ? NO_LIMITERS : java.util.Arrays.copyOf(holders, held);
    String[] heldAt = held == 0 ? NO_KEYS : java.util.Arrays.copyOf(heldKeys, held);
    for (int j = 0; j < held; j++) {
      reservations[j] = null; // the reservation ends them now
      holders[j] = null;
      heldKeys[j] = null;
    }
    held = 0;
    reservation =
        new GroupReservation(
            charged,
            m,
            chargedKeys,
            java.util.Arrays.copyOf(states, m),
            java.util.Arrays.copyOf(slots, m * JointCharge.SLOT),
            sharedCharged ? shared : null,
            heldNow,
            heldBy,
            heldAt,
            clock,
            now,
            wait);
    if (sharedCharged) {
      shared = null; // the reservation undoes it; the thread's next call makes its own
    }
    return Limiter.ADMITTED;
  }

  /** A reserving call whose only charges are cluster slots reserved one by one. */
  long reserveHeld() {
    clock = holders[0].clock();
    return depart(clock.nanoTime(), heldWait());
  }

  private long admitAll() {
    for (int i = 0, n = chargedMembers(); i < n; i++) {
      memberAt(i).counts().admit();
    }
    return Limiter.ADMITTED;
  }

  /** The members charged: the local ones, then the cluster ones charged with them. */
  private int chargedMembers() {
    return sharedCharged ? m + shares : m;
  }

  /** Member {@code i} of the local ones then the cluster ones ({@link #chargedMembers}). */
  private BucketLimiter memberAt(int i) {
    return i < m ? members[i] : sharedMembers[i - m];
  }

  /** The key of {@link #memberAt}. */
  private String keyAt(int i) {
    return i < m ? keys[i] : sharedKeys[i - m];
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
    int n = chargedMembers();
    for (int i = 0; i < n; i++) {
      memberAt(i).counts().startWait();
    }
    try {
      long due = now + wait;
      for (; ; ) {
        long left = due - clock.nanoTime();
        if (left <= 0) {
          long spent = Math.max(0, clock.nanoTime() - now);
          for (int i = 0; i < n; i++) {
            memberAt(i).counts().admitAfterWait(spent);
          }
          return Limiter.ADMITTED;
        }
        clock.parkNanos(left);
        if (Thread.currentThread().isInterrupted()) {
          refusedBy = new String[] {departureBy != null ? departureBy : members[longest].name()};
          undo(m);
          if (sharedCharged) {
            shared.undo();
          }
          long retry = 1;
          for (int i = 0; i < n; i++) {
            memberAt(i).counts().reject();
            retry = Math.max(retry, memberAt(i).probe(keyAt(i)));
          }
          return ~retry;
        }
      }
    } finally {
      for (int i = 0; i < n; i++) {
        memberAt(i).counts().endWait();
      }
    }
  }

  /**
   * Charges the local and the cluster members together: the local ones are planned (nothing taken),
   * the cluster ones are charged in one exchange departing no earlier than the local ones need
   * ({@link SharedCharge}), and the local ones are then charged at that departure; a local charge
   * that finds its state moved undoes them all and plans again. Waits for the departure. If the
   * backend cannot charge them in one exchange, or failed, sets {@link #oneByOne}, nothing charged.
   */
  long chargeShared() {
    if (shared == null) {
      shared = new SharedCharge(sharedMembers.length);
    }
    long maxWait = Long.MAX_VALUE;
    for (int j = 0; j < shares; j++) {
      BucketLimiter b = sharedMembers[j];
      GcraBucket g = b.bucket();
      shared.add(b.cluster(), sharedKeys[j], g, b.permits());
      maxWait = Math.min(maxWait, JointCharge.waitBoundNanos(g));
    }
    clock = (m > 0 ? members[0] : sharedMembers[0]).clock();
    for (; ; ) {
      long localWait = 0;
      long bound = maxWait;
      if (m > 0) {
        long planned = plan(clock.nanoTime(), 0);
        if (planned == PLAN_AGAIN) {
          continue;
        }
        if (planned < 0) {
          return -planned; // refused by a local member: the backend is not asked
        }
        localWait = planned;
        for (int i = 0; i < m; i++) {
          bound = Math.min(bound, JointCharge.waitBoundNanos(states[i].bucket));
        }
      }
      long departure = shared.charge(localWait, bound);
      if (departure == SharedCharge.NOT_JOINT || departure == SharedCharge.UNAVAILABLE) {
        oneByOne = true;
        return Limiter.ADMITTED;
      }
      if (departure == SharedCharge.REFUSED) {
        return refuseShared(localWait);
      }
      long now = clock.nanoTime();
      int charged = 0;
      while (charged < m
          && JointCharge.chargeAt(
                  states[charged],
                  now,
                  departure,
                  members[charged].permits(),
                  slots,
                  charged * JointCharge.SLOT)
              == JointCharge.CHARGED) {
        charged++;
      }
      if (charged < m) {
        undo(charged);
        shared.undo();
        continue; // a local state moved since the plan: plan again
      }
      sharedCharged = true;
      departureBy = departure > localWait ? sharedMembers[longestShared()].name() : null;
      return depart(now, departure);
    }
  }

  /** Member {@code i}'s own wait in the last plan or exchange, nanoseconds. */
  private long ownWait(int i) {
    return i < m ? waits[i] : shared.waitNanos(i - m);
  }

  /** The cluster member with the longest own wait in the last exchange. */
  private int longestShared() {
    int longestAt = 0;
    for (int j = 1; j < shares; j++) {
      if (shared.waitNanos(j) > shared.waitNanos(longestAt)) {
        longestAt = j;
      }
    }
    return longestAt;
  }

  /**
   * Counts a call the exchange refused, by {@link #countRefusal}'s rule over the local and the
   * cluster members, and returns its retry-after.
   */
  private long refuseShared(long localWait) {
    long wait = localWait;
    long minBound = Long.MAX_VALUE;
    int n = m + shares;
    for (int i = 0; i < n; i++) {
      wait = Math.max(wait, ownWait(i));
      minBound = Math.min(minBound, boundAt(i));
    }
    int first = m + longestShared();
    if (m > 0 && waits[longest] > shared.waitNanos(first - m)) {
      first = longest;
    }
    refusedBy = countRefusal(n, wait, first);
    return wait == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, wait - minBound);
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
