package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.JointCharge;
import dev.weir.agent.bootstrap.core.NanoClock;

/**
 * The limits of a method that has several (repeated annotations, config patterns that meet on it, a
 * pattern that reaches an annotated method): one call, admitted only when every limit admits it,
 * all or nothing (SPEC, "Several limits on one method").
 *
 * <p>The members are limiters of their own, each registered, named, shown and changed as any other;
 * the group holds their ids and reads each member from {@link LimiterRegistry} on every call, so a
 * live change, a config override's redirect or a draining shutdown applies to the group as to the
 * member alone. Per call:
 *
 * <ol>
 *   <li>members that decide alone do so first and take nothing from the others: an invalid member
 *       fails the call closed, a draining one refuses it, a dry-run member counts as it would alone
 *       and never refuses, a cluster member holds its slot on the backend ({@link
 *       Limiter#reserve});
 *   <li>the local members are charged together by {@link JointCharge}: planned, given one departure
 *       (the latest any of them, or a cluster member, needs), and charged at it only when each
 *       admits a call departing then; a refused call is undone on every one, exactly;
 *   <li>a call that must wait parks once, until its departure; interrupted, it gives its charges
 *       back on every limit.
 * </ol>
 *
 * <p>Counts: an admitted call is granted (and waited) on every member that charged it; a refused
 * one is rejected on each member that would refuse it alone and on no other, or, when none would
 * (one cannot wait as long as another needs), on each whose wait bound the call's wait exceeds. The
 * refusal's retry-after is the time until every member would admit the call within the shortest
 * wait bound among them, and its limiter name ({@link #refusedBy()}) the member with the longest
 * wait.
 *
 * <p>Config members are charged only by the outermost call of their limit on a thread ({@link
 * CallDepth#enterGroup}); annotated members by every call.
 *
 * <p>Thread-safe and lock-free; a call allocates a few small arrays.
 */
public final class LimitGroup extends Limiter {
  /** The names of the limits that refused this thread's last refused call, longest wait first. */
  private static final ThreadLocal<String[][]> REFUSED_BY =
      new ThreadLocal<String[][]>() {
        @Override
        protected String[][] initialValue() {
          return new String[1][];
        }
      };

  private final int[] ids;
  private final boolean[] keyed;
  private final boolean[] config;
  private final int[] configIds;

  /** Two keyless members charged by every call: the common case has a path of its own. */
  private final boolean pair;

  /**
   * A group of limiters that every call of one method takes.
   *
   * @param name a name for messages: the members' names joined by {@code " + "}
   * @param origin the method
   * @param ids the members' ids in {@link LimiterRegistry}, at least two
   * @param keyed whether each member takes the call's key
   * @param config whether each member is a config pattern's (charged only outermost)
   */
  public LimitGroup(String name, String origin, int[] ids, boolean[] keyed, boolean[] config) {
    super(name, origin);
    this.ids = ids.clone();
    this.keyed = keyed.clone();
    this.config = config.clone();
    int n = 0;
    for (boolean c : config) {
      n += c ? 1 : 0;
    }
    configIds = new int[n];
    pair = ids.length == 2 && n == 0 && !keyed[0] && !keyed[1];
    for (int i = 0, j = 0; i < ids.length; i++) {
      if (config[i]) {
        configIds[j++] = ids[i];
      }
    }
  }

  /** The config members' ids, not copied: for the bridge, which never writes them. */
  int[] configMembers() {
    return configIds;
  }

  @Override
  public long acquire() {
    return acquire(null, null);
  }

  @Override
  public long acquire(String key) {
    return acquire(key == null ? "null" : key, null);
  }

  /**
   * Takes the permits of one call on every member that charges it.
   *
   * @param key the call's key for the keyed members; null when none is keyed
   * @param cell the cell {@link CallDepth#enterGroup} returned; null to charge every member (no
   *     member is a config pattern's, or the method is a constructor, charged on every call)
   * @return as {@link Limiter#acquire()}
   * @throws IllegalStateException if a member is invalid (fails closed)
   */
  public long acquire(String key, int[] cell) {
    if (pair) {
      long fast = acquirePair();
      if (fast != NOT_AT_ONCE) {
        return fast;
      }
    }
    Call call = Call.take(ids.length);
    try {
      return acquire(call, key, cell);
    } finally {
      call.release();
    }
  }

  private long acquire(Call call, String key, int[] cell) {
    long minWait = 0;
    for (int i = 0; i < ids.length; i++) {
      if (config[i] && cell != null && !CallDepth.charges(ids[i], cell)) {
        continue; // nested in another call of that config limit: free
      }
      Limiter member = LimiterRegistry.limiter(ids[i]);
      String k = keyed[i] ? (key == null ? "null" : key) : null;
      if (member instanceof BucketLimiter && isLocal((BucketLimiter) member)) {
        BucketLimiter b = (BucketLimiter) member;
        if (b.bucket().warmUpNanos() > 0) { // an override may bring one: fail closed, loudly
          throw new IllegalStateException(
              "weir: '"
                  + b.name()
                  + "' has a warm-up, which a method with several limits ("
                  + origin()
                  + ") does not support yet; every call of it is refused");
        }
        call.add(b, b.heldKey(k));
        continue;
      }
      long alone = decideAlone(member, k, call);
      if (alone != ADMITTED) {
        call.withdrawAll();
        return refused(member.name(), alone);
      }
      minWait = Math.max(minWait, call.heldWait());
    }
    long result = call.m == 0 ? ADMITTED : call.charge(minWait);
    if (result == ADMITTED && call.held > 0) {
      result = call.awaitHeld();
    }
    if (result != ADMITTED) {
      call.withdrawAll(); // cluster slots held for a call that does not proceed
      REFUSED_BY.get()[0] = call.refusedBy; // interrupted: the limit whose wait it was
    }
    return result;
  }

  /** Result of {@link #acquirePair}: not decided there; the general path decides. */
  private static final long NOT_AT_ONCE = Long.MIN_VALUE;

  /**
   * The common case on its own path: two keyless annotated members, local, live, both admitting the
   * call now. Plans and charges them as the general path does, with nothing stored but two CAS;
   * anything else (a wait, a refusal, a moved state, a member of another kind) is left to the
   * general path, which plans again from the start.
   */
  private long acquirePair() {
    Limiter x = LimiterRegistry.limiter(ids[0]);
    Limiter y = LimiterRegistry.limiter(ids[1]);
    if (!(x instanceof BucketLimiter) || !(y instanceof BucketLimiter)) {
      return NOT_AT_ONCE;
    }
    BucketLimiter a = (BucketLimiter) x;
    BucketLimiter b = (BucketLimiter) y;
    GcraBucket ga = a.bucket();
    GcraBucket gb = b.bucket();
    NanoClock clock = a.clock();
    if (!isLocal(a)
        || !isLocal(b)
        || ga.warmUpNanos() > 0
        || gb.warmUpNanos() > 0
        || clock != b.clock()) {
      return NOT_AT_ONCE;
    }
    long now = clock.nanoTime();
    long na = JointCharge.plan(ga, now, a.permits(), false);
    long nb = JointCharge.plan(gb, now, b.permits(), false);
    if (na <= 0
        || nb <= 0
        || JointCharge.waitNanos(ga, na) != 0
        || JointCharge.waitNanos(gb, nb) != 0) {
      return NOT_AT_ONCE;
    }
    long[] first = new long[JointCharge.SLOT]; // does not escape: the JIT keeps it in registers
    if (JointCharge.chargeAt(ga, now, 0, a.permits(), first, 0) != JointCharge.CHARGED) {
      return NOT_AT_ONCE;
    }
    long[] second = new long[JointCharge.SLOT];
    if (JointCharge.chargeAt(gb, now, 0, b.permits(), second, 0) != JointCharge.CHARGED) {
      JointCharge.undo(ga, first, 0, clock);
      return NOT_AT_ONCE;
    }
    a.counts().admit();
    b.counts().admit();
    return ADMITTED;
  }

  private static boolean isLocal(BucketLimiter b) {
    return !b.dryRun() && b.cluster() == null;
  }

  /**
   * A member that decides alone: an invalid one throws, a draining one refuses, a dry run admits; a
   * cluster member holds its slot in {@code call}.
   */
  private static long decideAlone(Limiter member, String key, Call call) {
    if (member instanceof BucketLimiter && !((BucketLimiter) member).dryRun()) {
      Reservation r = member.reserve(key);
      if (r.isLimited()) {
        return r.retryAfterNanos();
      }
      call.hold(r, (BucketLimiter) member, key);
      return ADMITTED;
    }
    long result = key == null ? member.acquire() : member.acquire(key);
    return result >= 0 ? result : ~result;
  }

  private static long refused(String name, long retryAfterNanos) {
    REFUSED_BY.get()[0] = new String[] {name};
    return Math.max(1, retryAfterNanos);
  }

  /**
   * The name of the member that refused this thread's last refused call of a group: the one with
   * the longest wait.
   *
   * @return the name, or null if no group refused a call on this thread
   */
  public static String refusedBy() {
    String[] names = REFUSED_BY.get()[0];
    return names == null ? null : names[0];
  }

  /**
   * Every limit that refused this thread's last refused call of a group, the longest wait first.
   *
   * @return the names, or null if no group refused a call on this thread
   */
  public static String[] refusingLimits() {
    return REFUSED_BY.get()[0];
  }

  @Override
  public String settings() {
    return "all of: " + name();
  }

  /**
   * One call's work: the local members and their states, the slots charged, what is held. Each
   * thread keeps one for its calls ({@link #take}), so an admitted call allocates nothing.
   */
  private static final class Call {
    private static final ThreadLocal<Call[]> KEPT =
        new ThreadLocal<Call[]>() {
          @Override
          protected Call[] initialValue() {
            return new Call[1];
          }
        };

    private boolean busy;

    /** This thread's call of at least {@code n} members, cleared; a new one if it is in use. */
    static Call take(int n) {
      Call[] kept = KEPT.get();
      Call c = kept[0];
      if (c == null || c.busy || c.members.length < n) {
        c = new Call(n);
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

    Call(int n) {
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
     * Plans and charges the local members, all or nothing, departing no earlier than {@code
     * minWait} from now; waits for the departure unless cluster slots are held (then {@link
     * #awaitHeld} does).
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
            needed == GcraBucket.NEVER
                ? Long.MAX_VALUE
                : JointCharge.waitNanos(state.bucket, needed);
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
     * Counts a refused call rejected where it would be alone; if none would (one cannot wait as
     * long as another needs), where the call's wait is beyond the bound; returns the names of the
     * limits that refused it, the one with the longest wait first.
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
      return ADMITTED;
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
            return ADMITTED;
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
     * Ends the held cluster slots once the local members admitted the call: their slots come no
     * later than its departure, which included their waits.
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
      return ADMITTED;
    }
  }
}
