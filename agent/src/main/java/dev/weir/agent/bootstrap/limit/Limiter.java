package dev.weir.agent.bootstrap.limit;

/**
 * One limiter: what a woven method calls, through {@link WeirBridge}, before its body runs.
 *
 * <p>{@link #acquire()} returns a code the woven prologue understands: {@code 0} admitted (after
 * any wait); {@code > 0} limited, the value being the retry-after in nanoseconds; {@code < 0} the
 * waiting call was interrupted, the retry-after being {@code ~value}. Implementations are
 * thread-safe.
 */
public abstract class Limiter {
  /** Result of {@link #acquire()}: the call may proceed. */
  public static final long ADMITTED = 0L;

  private final String name;
  private final String origin;

  Limiter(String name, String origin) {
    this.name = name;
    this.origin = origin;
  }

  /**
   * Takes the permits of one call, waiting if the limiter's policy says so.
   *
   * @return {@link #ADMITTED}; a positive retry-after in nanoseconds if limited; {@code
   *     ~retryAfterNanos} if the call was interrupted while waiting (interrupt flag kept)
   * @throws IllegalStateException if the limiter is invalid (fails closed)
   */
  public abstract long acquire();

  /**
   * Takes the permits of one call from the bucket of {@code key} (per-key limits:
   * {@code @LimitKey}, or {@code key:} in the config file), waiting if the limiter's policy says
   * so.
   *
   * @param key {@code String.valueOf} of the key argument
   * @return as {@link #acquire()}
   * @throws IllegalStateException if the limiter is invalid (fails closed)
   */
  public abstract long acquire(String key);

  /**
   * Takes the permits of one call as {@link #acquire(String)} does, without waiting for a slot: a
   * call that would wait holds its slot in the answer, charged exactly as a waiting call is, and
   * ends it with {@link Reservation#admit} at the slot or {@link Reservation#abandon} before it.
   * This implementation waits on the calling thread ({@link #acquire(String)}), for limiters that
   * hold no bucket. Never blocks in {@link BucketLimiter}.
   *
   * @param key the key; null for the keyless bucket
   * @return the answer: admitted, limited (with its retry-after), or a held slot
   * @throws IllegalStateException if the limiter is invalid (fails closed)
   */
  public Reservation reserve(String key) {
    long result = key == null ? acquire() : acquire(key);
    return result == ADMITTED
        ? Reservation.ADMITTED
        : Reservation.limited(result > 0 ? result : ~result);
  }

  /**
   * Gives back the permits a call admitted at once has just taken, because another limit that
   * applies to the same request refused it ({@code http} entries: a request limited by one entry is
   * charged by none). Does nothing for a limiter that holds no bucket.
   *
   * @param key the key the call was admitted with; null for the keyless bucket
   */
  public void refund(String key) {}

  /**
   * How long until a call would be admitted at once, without taking anything.
   *
   * @param key the key; null for the keyless bucket
   * @return nanoseconds, {@code >= 0}; {@link Long#MAX_VALUE} for never; 0 for a limiter that holds
   *     no bucket
   */
  public long probe(String key) {
    return 0;
  }

  /**
   * Says that some of this limiter's keys come from a parameter whose type cannot tell whether its
   * values print as themselves (an interface, an abstract class, {@code Object}): the limiter then
   * looks at each new key, and warns once if one looks like an identity string ({@code
   * ClassName@hash}), which would give every call its own bucket. Called while weaving; never on
   * the acquire path. Does nothing for a limiter without keys.
   *
   * @param keySource the parameter, for the warning: {@code parameter 0
   *     (jakarta.servlet.ServletRequest) of com.acme.Api#service(...)}
   */
  public void keysMayBeIdentities(String keySource) {}

  /**
   * Told once the limiter has been dropped from the registry (its class loader was collected): it
   * lets go of what it registered elsewhere. Never called on the acquire path.
   */
  void dropped() {}

  /**
   * The settings in words; two limiters with equal settings may share a name.
   *
   * @return for example {@code token bucket 10.0/SECONDS capacity 20 permits 1 REJECT}
   */
  public abstract String settings();

  /**
   * The limiter's name: the one the exception carries.
   *
   * @return the name
   */
  public final String name() {
    return name;
  }

  /**
   * Where the limiter was declared, for messages: for example {@code com.acme.Orders#place(int)}.
   *
   * @return the declaration site
   */
  public final String origin() {
    return origin;
  }
}
