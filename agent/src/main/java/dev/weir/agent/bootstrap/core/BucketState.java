package dev.weir.agent.bootstrap.core;

/**
 * The mutable state of one bucket: GCRA's theoretical arrival time, the instant the bucket is full
 * again, in the ticks of the {@link GcraBucket} that owns the arithmetic, {@link #bucket}. A
 * keyless bucket is its own state ({@link GcraBucket} extends this class); a per-key limiter keeps
 * one bare state per key, 24 bytes with compressed class pointers and references (the reference to
 * the bucket fills what would be padding).
 *
 * <p>A state belongs to one bucket for its life: a live change of the settings retires it (see
 * {@link GcraBucket#RETIRED}) and puts a converted copy in a state of the new bucket. Only {@link
 * GcraBucket} reads or writes {@link #fullAt}, by plain volatile reads and CAS.
 */
public class BucketState {
  /** GCRA's theoretical arrival time, in ticks (wrapping): when the bucket is full again. */
  public volatile long fullAt;

  /** The bucket whose ticks and settings {@link #fullAt} is in: itself, for a keyless bucket. */
  public final GcraBucket bucket;

  /**
   * A per-key state.
   *
   * @param fullAt the initial value, in {@code bucket}'s ticks
   * @param bucket the bucket whose settings the state follows
   */
  BucketState(long fullAt, GcraBucket bucket) {
    this.fullAt = fullAt;
    this.bucket = bucket;
  }

  /** The state of a keyless bucket, which is its own bucket. */
  BucketState() {
    this.bucket = (GcraBucket) this;
  }
}
