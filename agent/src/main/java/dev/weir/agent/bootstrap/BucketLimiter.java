package dev.weir.agent.bootstrap;

import java.util.ArrayList;

/**
 * A limiter over one {@link GcraBucket}: the clock read, the decision, and the wait to a deadline
 * for {@code WAIT} and {@code SHAPING}.
 *
 * <p>Waiting parks ({@link NanoClock#parkNanos}) in a loop until the deadline, so virtual threads
 * do not pin. A waiter that is interrupted keeps its interrupt flag, gives its slot back when no
 * later call holds a slot after it, and reports the interruption so that the woven code throws
 * {@code RateLimitedException} with an {@link InterruptedException} as its cause.
 *
 * <p>Thread-safe; the admitted path allocates nothing.
 */
public final class BucketLimiter extends Limiter {
  private final GcraBucket bucket;
  private final long permits;
  private final NanoClock clock;
  private final String settings;
  private volatile KeyedBuckets keyed;

  /** Guards {@link #holes}. */
  private final Object holesLock = new Object();

  /**
   * Slots of interrupted waiters that later calls held slots after; null until the first. Guarded
   * by {@link #holesLock}.
   */
  private ArrayList<Hole> holes;

  /** A slot not given back: its state, and where it ends and starts, in the bucket's ticks. */
  private static final class Hole {
    final BucketState state;
    final long end;
    final long start;

    Hole(BucketState state, long end, long start) {
      this.state = state;
      this.end = end;
      this.start = start;
    }
  }

  /** The first key parameter whose type cannot be judged, or null. */
  private volatile String identitySource;

  /**
   * Creates a limiter.
   *
   * @param name the limiter's name
   * @param origin where it was declared, for messages
   * @param bucket the bucket
   * @param permits permits per call, {@code 1..bucket.capacity()}
   * @param clock the time source the bucket was created with
   */
  public BucketLimiter(
      String name, String origin, GcraBucket bucket, long permits, NanoClock clock) {
    super(name, origin);
    this.bucket = bucket;
    this.permits = permits;
    this.clock = clock;
    this.settings = describe(bucket, permits);
  }

  @Override
  public long acquire() {
    long now = clock.nanoTime();
    long result = bucket.acquire(now, permits, false);
    if (result == 0) {
      return ADMITTED;
    }
    return notAtOnce(now, result);
  }

  /**
   * Takes the permits of one call from the bucket of {@code key}: one bucket per distinct key, made
   * full (a leaky bucket: empty) when the key is first seen and dropped once idle again. Waits as
   * {@link #acquire()} does.
   *
   * @param key the key, {@code String.valueOf} of the key argument
   * @return as {@link #acquire()}; a new key past the bound on keys is limited, its retry-after the
   *     time until a held key may go idle
   */
  @Override
  public long acquire(String key) {
    if (key == null) {
      key = "null"; // a toString() that returns null
    }
    KeyedBuckets states = keyedBuckets();
    long now = clock.nanoTime();
    BucketState state = states.state(key, now);
    for (; ; ) {
      if (state == null) { // a new key at the bound
        long retryAfter = states.retryAfterBoundNanos(now);
        if (retryAfter != 0) {
          return retryAfter;
        }
        state = states.slowState(key, now); // a held key went idle meanwhile: room for this one
        continue;
      }
      long result = bucket.acquire(state, now, permits, false);
      if (result == 0) {
        return ADMITTED;
      }
      if (result != GcraBucket.STATE_RETIRED) {
        result = notAtOnce(state, key, now, result);
        if (result != GcraBucket.STATE_RETIRED) {
          return result;
        }
      }
      state = states.slowState(key, now);
    }
  }

  /** The default bound on keys of each per-key limiter (the agent's {@code maxKeys}). */
  public static final int DEFAULT_MAX_KEYS = 100_000;

  /**
   * Sets the bound on keys of per-key limiters created from now on (the agent's {@code maxKeys}).
   * Past it, a call with a new key is limited until a held key goes idle; held keys are unaffected.
   *
   * @param maxKeys keys per limiter, {@code >= 1}
   * @throws IllegalArgumentException if {@code maxKeys < 1}
   */
  public static void setMaxKeys(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be >= 1, was " + maxKeys);
    }
    KeyedBuckets.defaultMaxKeys = maxKeys;
  }

  @Override
  public void keysMayBeIdentities(String keySource) {
    synchronized (this) {
      if (identitySource == null) {
        identitySource = keySource;
      }
    }
    KeyedBuckets states = keyed;
    if (states != null) {
      states.checkForIdentities(identitySource);
    }
  }

  KeyedBuckets keyedBuckets() {
    KeyedBuckets states = keyed;
    return states != null ? states : createKeyedBuckets();
  }

  private synchronized KeyedBuckets createKeyedBuckets() {
    KeyedBuckets states = keyed;
    if (states == null) {
      boolean background = clock == NanoClock.SYSTEM;
      states = new KeyedBuckets(bucket, clock, KeyedBuckets.defaultMaxKeys, name());
      if (identitySource != null) {
        states.checkForIdentities(identitySource);
      }
      keyed = states;
      if (background) {
        KeySweeper.register(states);
      }
    }
    return states;
  }

  /**
   * The per-key states, for tests and diagnostics.
   *
   * @return the states, or null if no keyed call was made
   */
  KeyedBuckets keyedStates() {
    return keyed;
  }

  private long notAtOnce(long now, long result) {
    return notAtOnce(bucket, null, now, result);
  }

  /**
   * The outcome of a call whose first try did not admit it at once: the clock-reading protocol of
   * {@link GcraBucket}, then a wait or a limit. Returns {@link GcraBucket#STATE_RETIRED} if a
   * per-key state was retired meanwhile (nothing taken; look the key up again).
   *
   * @param key the key of a per-key state; null for the keyless bucket
   */
  private long notAtOnce(BucketState state, String key, long now, long result) {
    boolean perKey = key != null;
    if (result == GcraBucket.STALE_CLOCK) {
      now = clock.nanoTime();
      result = bucket.acquire(state, now, permits, true, perKey);
      if (result == GcraBucket.CLOCK_STEPPED_BACK) {
        bucket.resetAfterClockStep(state, clock.nanoTime(), perKey);
        now = clock.nanoTime();
        result = bucket.acquire(state, now, permits, true, perKey);
        if (result == GcraBucket.CLOCK_STEPPED_BACK) {
          // readings that keep jumping back and forth: refuse this call rather than spin
          return bucket.intervalNanos();
        }
      }
      if (result == 0 || result == GcraBucket.STATE_RETIRED) {
        return result;
      }
    }
    if (result < 0) {
      return bucket.retryAfterNanos(result);
    }
    return await(state, key, now, result);
  }

  /**
   * Parks until the call's slot. The wait counts forward clock time only, so a clock that steps
   * back while a call waits never lengthens that wait.
   */
  private long await(BucketState state, String key, long now, long waitTicks) {
    boolean perKey = key != null;
    long remaining = bucket.toNanosCeil(waitTicks);
    long last = now;
    for (; ; ) {
      long reading = clock.nanoTime();
      long progress = reading - last;
      last = reading;
      if (progress > 0) {
        remaining -= progress;
      }
      if (remaining <= 0) {
        return ADMITTED;
      }
      clock.parkNanos(remaining);
      if (Thread.currentThread().isInterrupted()) {
        giveBack(state, key, bucket.slotEnd(now, waitTicks));
        return ~bucket.probeRetryAfterNanos(state, clock.nanoTime(), permits);
      }
    }
  }

  /**
   * Gives an interrupted waiter's slot back if no later call holds a slot after it; otherwise keeps
   * it as a hole, given back once the calls after it have given theirs back (interrupted too) and
   * it is the last again. A hole whose slot has passed is forgotten: giving it back would change
   * nothing. Only interrupted waiters come here.
   */
  private void giveBack(BucketState state, String key, long slotEnd) {
    boolean perKey = key != null;
    long now = clock.nanoTime();
    long start = bucket.slotStart(slotEnd, permits);
    synchronized (holesLock) {
      if (!bucket.giveBack(state, slotEnd, start, perKey)) {
        if (holes == null) {
          holes = new ArrayList<Hole>();
        }
        for (int i = holes.size() - 1; i >= 0; i--) {
          if (bucket.isOver(holes.get(i).end, now)) {
            holes.remove(i);
          }
        }
        holes.add(new Hole(state, slotEnd, start));
        return;
      }
      for (boolean more = holes != null; more; ) { // the holes that are the last again
        more = false;
        for (int i = 0; i < holes.size(); i++) {
          Hole hole = holes.get(i);
          if (hole.state == state
              && hole.end == start
              && bucket.giveBack(state, hole.end, hole.start, perKey)) {
            start = hole.start;
            holes.remove(i);
            more = true;
            break;
          }
        }
      }
    }
    if (perKey) { // its idle instant moved earlier, to no earlier than the first slot given back
      keyed.gaveBack(key, Math.min(now, bucket.nanosAtOrBefore(start, now)));
    }
  }

  /**
   * Permits per call.
   *
   * @return permits, {@code >= 1}
   */
  public long permits() {
    return permits;
  }

  /**
   * The time source.
   *
   * @return the clock
   */
  public NanoClock clock() {
    return clock;
  }

  /**
   * The bucket, for diagnostics and tests.
   *
   * @return the bucket
   */
  public GcraBucket bucket() {
    return bucket;
  }

  @Override
  public String settings() {
    return settings;
  }

  private static String describe(GcraBucket bucket, long permits) {
    StringBuilder s =
        new StringBuilder(bucket.discipline().description())
            .append(' ')
            .append(bucket.rate())
            .append('/')
            .append(bucket.per())
            .append(" capacity ")
            .append(bucket.capacity());
    if (bucket.discipline() == Discipline.TOKEN_BUCKET) {
      s.append(" permits ").append(permits);
    }
    s.append(bucket.waitOnLimit() ? " WAIT" : " REJECT");
    long maxWait = bucket.maxWaitNanos();
    if (maxWait != Long.MAX_VALUE
        && (bucket.waitOnLimit() || bucket.discipline() == Discipline.SHAPING)) {
      s.append(" maxWait ").append(maxWait / 1_000_000L).append(" ms");
    }
    return s.toString();
  }
}
