package dev.weir.agent.config;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.LimitRules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One limit's settings, validated and immutable: what an annotation or a config entry asks for,
 * with the defaults of {@code @TokenBucket} and {@code @LeakyBucket} applied.
 *
 * <p>Built with {@link #builder(Discipline)}; {@link Builder#problems()} lists every invalid value
 * in the form {@code attribute must be RULE, was VALUE}, which each front end (annotation, config
 * file) prefixes with where the value came from. Thread-safe (immutable).
 */
public final class LimitSpec {
  /** The default {@code maxWaitMillis} of {@code @TokenBucket}. */
  public static final long TOKEN_BUCKET_MAX_WAIT_MILLIS = 1000;

  /** The default {@code maxWaitMillis} of {@code @LeakyBucket}: no bound beyond the capacity. */
  public static final long LEAKY_BUCKET_MAX_WAIT_MILLIS = Long.MAX_VALUE;

  private final String name;
  private final Discipline discipline;
  private final double rate;
  private final TimeUnit per;
  private final long capacity;
  private final int permits;
  private final boolean waitOnLimit;
  private final long maxWaitMillis;
  private final long warmUpMillis;

  private LimitSpec(Builder b) {
    this.name = b.name;
    this.discipline = b.discipline;
    this.rate = b.rate;
    this.per = b.per;
    this.capacity = b.capacity == 0 ? LimitRules.defaultCapacity(b.rate) : b.capacity;
    this.permits = b.permits;
    this.waitOnLimit = b.waitOnLimit;
    this.maxWaitMillis = b.maxWaitMillis;
    this.warmUpMillis = b.warmUpMillis;
  }

  /**
   * Starts a spec with the annotation defaults of the discipline.
   *
   * @param discipline token bucket, leaky policing or leaky shaping
   * @return a builder
   */
  public static Builder builder(Discipline discipline) {
    return new Builder(discipline);
  }

  /**
   * Why these settings cannot be a cluster limit's: durations the shared core, in Lua's doubles,
   * cannot count exactly ({@link GcraBucket#sharedProblem}).
   *
   * @return null if they can; otherwise what is too long, in words
   */
  public String clusterProblem() {
    return bucket(0).sharedProblem(permits);
  }

  /**
   * The bucket these settings describe, full (a leaky bucket: empty) at {@code nowNanos}.
   *
   * @param nowNanos the instant, on the clock of the limiter that will hold it
   * @return a new bucket
   */
  public GcraBucket bucket(long nowNanos) {
    long maxWaitNanos =
        maxWaitMillis >= Long.MAX_VALUE / 1_000_000L ? Long.MAX_VALUE : maxWaitMillis * 1_000_000L;
    return GcraBucket.create(
        discipline,
        rate,
        per,
        capacity,
        waitOnLimit,
        maxWaitNanos,
        warmUpMillis * 1_000_000L,
        nowNanos);
  }

  /**
   * The explicit name.
   *
   * @return the name, or empty for the default name
   */
  public String name() {
    return name;
  }

  /**
   * The discipline.
   *
   * @return token bucket, leaky policing or leaky shaping
   */
  public Discipline discipline() {
    return discipline;
  }

  /**
   * The rate.
   *
   * @return permits per {@link #per()}
   */
  public double rate() {
    return rate;
  }

  /**
   * The unit of the rate.
   *
   * @return the time unit
   */
  public TimeUnit per() {
    return per;
  }

  /**
   * The capacity, the default already applied.
   *
   * @return permits, {@code >= 1}
   */
  public long capacity() {
    return capacity;
  }

  /**
   * Permits per call.
   *
   * @return {@code 1..capacity}
   */
  public int permits() {
    return permits;
  }

  /**
   * Whether limited calls wait.
   *
   * @return true for {@code OnLimit.WAIT}
   */
  public boolean waitOnLimit() {
    return waitOnLimit;
  }

  /**
   * The longest wait.
   *
   * @return milliseconds, {@code >= 0}
   */
  public long maxWaitMillis() {
    return maxWaitMillis;
  }

  /**
   * The warm-up period of a token bucket.
   *
   * @return milliseconds, {@code 0..LimitRules.MAX_WARM_UP_MILLIS}; 0 for none
   */
  public long warmUpMillis() {
    return warmUpMillis;
  }

  /** Collects a spec's values and the problems with them. Not thread-safe. */
  public static final class Builder {
    private final Discipline discipline;
    private final List<String> problems = new ArrayList<String>();
    private String name = "";
    private double rate = Double.NaN;
    private boolean rateSet;
    private TimeUnit per = TimeUnit.SECONDS;
    private long capacity;
    private int permits = 1;
    private boolean waitOnLimit;
    private long maxWaitMillis;
    private long warmUpMillis;

    private Builder(Discipline discipline) {
      this.discipline = discipline;
      this.maxWaitMillis =
          discipline == Discipline.TOKEN_BUCKET
              ? TOKEN_BUCKET_MAX_WAIT_MILLIS
              : LEAKY_BUCKET_MAX_WAIT_MILLIS;
    }

    /**
     * Sets the explicit name.
     *
     * @param value the name; empty for the default name
     * @return this builder
     */
    public Builder name(String value) {
      this.name = value == null ? "" : value;
      return this;
    }

    /**
     * Sets the rate; it must be finite and {@code > 0}.
     *
     * @param value permits per {@code per}
     * @return this builder
     */
    public Builder rate(double value) {
      this.rate = value;
      this.rateSet = true;
      String broken = LimitRules.rate(value, null);
      if (broken != null) {
        problems.add("rate " + broken);
      }
      return this;
    }

    /**
     * Sets the unit of the rate.
     *
     * @param value the unit
     * @return this builder
     */
    public Builder per(TimeUnit value) {
      this.per = value;
      return this;
    }

    /**
     * Sets the capacity; 0 means one {@code per} worth of the rate.
     *
     * @param value permits, {@code >= 0}
     * @return this builder
     */
    public Builder capacity(long value) {
      this.capacity = value;
      String broken = LimitRules.definedCapacity(value, String.valueOf(value));
      if (broken != null) {
        problems.add("capacity " + broken);
      }
      return this;
    }

    /**
     * Sets the permits per call; must be between 1 and the capacity (checked in {@link
     * #problems()}, once the capacity is known).
     *
     * @param value permits per call
     * @return this builder
     */
    public Builder permits(int value) {
      this.permits = value;
      return this;
    }

    /**
     * Sets whether limited calls wait.
     *
     * @param value true for {@code OnLimit.WAIT}
     * @return this builder
     */
    public Builder waitOnLimit(boolean value) {
      this.waitOnLimit = value;
      return this;
    }

    /**
     * Sets the longest wait.
     *
     * @param value milliseconds, {@code >= 0}
     * @return this builder
     */
    public Builder maxWaitMillis(long value) {
      this.maxWaitMillis = value;
      String broken = LimitRules.maxWaitMillis(value, String.valueOf(value));
      if (broken != null) {
        problems.add("maxWaitMillis " + broken);
      }
      return this;
    }

    /**
     * Sets the warm-up period of a token bucket.
     *
     * @param value milliseconds, {@code 0..LimitRules.MAX_WARM_UP_MILLIS}
     * @return this builder
     */
    public Builder warmUpMillis(long value) {
      String broken = LimitRules.warmUpMillis(value, String.valueOf(value));
      if (broken != null) {
        problems.add("warmUpMillis " + broken);
      } else {
        this.warmUpMillis = value;
      }
      return this;
    }

    /**
     * The warm-up set so far (a valid one).
     *
     * @return milliseconds; 0 for none
     */
    public long warmUpMillis() {
      return warmUpMillis;
    }

    /**
     * Records a problem found by the front end (an unsupported attribute, say), in the same form.
     *
     * @param problem {@code attribute must be RULE, was VALUE}
     * @return this builder
     */
    public Builder problem(String problem) {
      problems.add(problem);
      return this;
    }

    /**
     * Every invalid value, in the order the attributes were set; empty when the spec is valid.
     *
     * @return the problems, each {@code attribute must be RULE, was VALUE}
     */
    public List<String> problems() {
      List<String> all = new ArrayList<String>(problems);
      if (!rateSet) {
        all.add(0, "rate must be set");
      }
      if (LimitRules.rate(rate, null) == null && capacity >= 0) {
        long effective = capacity == 0 ? LimitRules.defaultCapacity(rate) : capacity;
        String broken =
            LimitRules.permits(permits, effective, capacity == 0, String.valueOf(permits));
        if (broken != null) {
          all.add("permits " + broken);
        }
      } else if (LimitRules.minPermits(permits) != null) { // no capacity to name
        all.add("permits " + LimitRules.minPermits(permits));
      }
      return Collections.unmodifiableList(all);
    }

    /**
     * Builds the spec.
     *
     * @return the spec
     * @throws IllegalStateException if {@link #problems()} is not empty
     */
    public LimitSpec build() {
      List<String> all = problems();
      if (!all.isEmpty()) {
        throw new IllegalStateException(String.join("; ", all));
      }
      return new LimitSpec(this);
    }
  }
}
