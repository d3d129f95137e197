package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
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
  /** The names of the limits that refused this thread's last refused call, the named one first. */
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
    // one limit named twice on a method (two annotations of one name) applies once
    int distinct = 0;
    int[] distinctIds = new int[ids.length];
    boolean[] distinctKeyed = new boolean[ids.length];
    boolean[] distinctConfig = new boolean[ids.length];
    for (int i = 0; i < ids.length; i++) {
      int seen = 0;
      while (seen < distinct && distinctIds[seen] != ids[i]) {
        seen++;
      }
      if (seen == distinct) {
        distinctIds[distinct] = ids[i];
        distinctKeyed[distinct] = keyed[i];
        distinctConfig[distinct++] = config[i];
      }
    }
    this.ids = java.util.Arrays.copyOf(distinctIds, distinct);
    this.keyed = java.util.Arrays.copyOf(distinctKeyed, distinct);
    this.config = java.util.Arrays.copyOf(distinctConfig, distinct);
    int n = 0;
    for (boolean c : this.config) {
      n += c ? 1 : 0;
    }
    configIds = new int[n];
    pair = distinct == 2 && n == 0 && !this.keyed[0] && !this.keyed[1];
    for (int i = 0, j = 0; i < distinct; i++) {
      if (this.config[i]) {
        configIds[j++] = this.ids[i];
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
    GroupCall call = GroupCall.take(ids.length);
    try {
      return acquire(call, key, cell);
    } finally {
      call.release();
    }
  }

  private long acquire(GroupCall call, String key, int[] cell) {
    for (int i = 0; i < ids.length; i++) {
      if (config[i] && cell != null && !CallDepth.charges(ids[i], cell)) {
        continue; // nested in another call of that config limit: free
      }
      Limiter member = LimiterRegistry.limiter(ids[i]);
      long alone = collect(call, member, keyed[i] ? (key == null ? "null" : key) : null, origin());
      if (alone != ADMITTED) {
        return refused(member.name(), alone);
      }
    }
    return decide(call);
  }

  /**
   * The limits of an {@code http} request that several entries apply to, each under its own key,
   * charged all or nothing as a method's (SPEC, "Several limits on one method"), without waiting:
   * the request holds what it was charged, to wait for its departure elsewhere.
   *
   * @param ids the limiters' ids in {@link LimiterRegistry}
   * @param keys each one's key; null for a keyless one
   * @param n how many, {@code >= 1}
   * @param origin what the limits apply to, for messages
   * @return limited (then {@link #refusedBy()} names the limit), or what the request holds: its
   *     departure ({@link Reservation#waitNanos()}, 0 at once) and its charges, to end with {@link
   *     Reservation#admit}, {@link Reservation#abandon} or {@link Reservation#withdraw}
   * @throws IllegalStateException if a limit is invalid (fails closed)
   */
  public static Reservation reserveAll(int[] ids, String[] keys, int n, String origin) {
    GroupCall call = GroupCall.take(n);
    call.reserving = true;
    try {
      for (int i = 0; i < n; i++) {
        Limiter member = LimiterRegistry.limiter(ids[i]);
        long alone = collect(call, member, keys[i], origin);
        if (alone != ADMITTED) {
          return Reservation.limited(refused(member.name(), alone));
        }
      }
      long result = decide(call);
      if (result != ADMITTED) {
        return Reservation.limited(result);
      }
      return call.reservation != null ? call.reservation : Reservation.ADMITTED;
    } finally {
      call.release();
    }
  }

  /**
   * Puts one member in {@code call}: a local one to plan, a cluster one to charge with the others;
   * a member that decides alone does so now.
   *
   * @return {@link #ADMITTED}, or the retry-after of that member's refusal
   */
  private static long collect(GroupCall call, Limiter member, String k, String origin) {
    if (member instanceof BucketLimiter && ((BucketLimiter) member).bucket().warmUpNanos() > 0) {
      // an override may bring one, local or cluster: fail closed, loudly
      throw new IllegalStateException(
          "weir: '"
              + member.name()
              + "' has a warm-up, which several limits on one call ("
              + origin
              + ") do not support yet; every call of it is refused");
    }
    if (member instanceof BucketLimiter && isLocal((BucketLimiter) member)) {
      BucketLimiter b = (BucketLimiter) member;
      call.add(b, b.heldKey(k));
      return ADMITTED;
    }
    if (member instanceof BucketLimiter && !((BucketLimiter) member).dryRun()) {
      BucketLimiter b = (BucketLimiter) member;
      call.addShared(b, b.heldKey(k)); // a cluster member: charged with the others
      return ADMITTED;
    }
    return decideAlone(member, k);
  }

  /** Decides the members collected in {@code call}: the cluster ones, the local ones, the waits. */
  private static long decide(GroupCall call) {
    long minWait = 0;
    if (call.shares > 0) {
      long result = call.chargeShared();
      if (!call.oneByOne) {
        if (result != ADMITTED) {
          REFUSED_BY.get()[0] = call.refusedBy;
        }
        return result;
      }
      for (int j = 0; j < call.shares; j++) {
        long alone = reserve(call.sharedMembers[j], call.sharedKeys[j], call);
        if (alone != ADMITTED) {
          call.withdrawAll();
          return refused(call.sharedMembers[j].name(), alone);
        }
        minWait = Math.max(minWait, call.heldWait());
      }
    }
    long result = call.m == 0 ? ADMITTED : call.charge(minWait);
    if (result == ADMITTED && call.held > 0) {
      result = call.reserving ? call.reserveHeld() : call.awaitHeld();
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
   * A member that decides alone: an invalid one throws, a draining one refuses, a dry run admits.
   */
  private static long decideAlone(Limiter member, String key) {
    long result = key == null ? member.acquire() : member.acquire(key);
    return result >= 0 ? result : ~result;
  }

  /**
   * A cluster member reserved on its own (the backend cannot charge the call's cluster members in
   * one exchange): its slot is held in {@code call}, given back if another member refuses.
   */
  private static long reserve(BucketLimiter member, String key, GroupCall call) {
    Reservation r = member.reserve(key);
    if (r.isLimited()) {
      return r.retryAfterNanos();
    }
    call.hold(r, member, key);
    return ADMITTED;
  }

  /**
   * A call refused because the JVM is shutting down ({@link Draining}): counted rejected on each
   * member, and named by all of them.
   */
  void refusedWhileDraining() {
    String[] names = new String[ids.length];
    for (int i = 0; i < ids.length; i++) {
      Limiter member = LimiterRegistry.limiter(ids[i]);
      if (member instanceof Draining) {
        member = ((Draining) member).drained();
      }
      if (member instanceof BucketLimiter) {
        ((BucketLimiter) member).rejectedWhileDraining();
      }
      names[i] = member.name();
    }
    REFUSED_BY.get()[0] = names;
  }

  private static long refused(String name, long retryAfterNanos) {
    REFUSED_BY.get()[0] = new String[] {name};
    return Math.max(1, retryAfterNanos);
  }

  /**
   * The name of the member that refused this thread's last refused call of a group: the one whose
   * wait is furthest beyond its bound ({@code GroupCall.countRefusal}).
   *
   * @return the name, or null if no group refused a call on this thread
   */
  public static String refusedBy() {
    String[] names = REFUSED_BY.get()[0];
    return names == null ? null : names[0];
  }

  /**
   * Every limit that refused this thread's last refused call of a group, {@link #refusedBy} first.
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
}
