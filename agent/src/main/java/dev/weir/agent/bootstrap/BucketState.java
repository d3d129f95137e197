package dev.weir.agent.bootstrap;

/**
 * The mutable state of one bucket: GCRA's theoretical arrival time, the instant the bucket is full
 * again, in the ticks of the {@link GcraBucket} that owns the arithmetic. A keyless bucket is its
 * own state ({@link GcraBucket} extends this class); a per-key limiter keeps one bare state per
 * key, 24 bytes with compressed class pointers.
 *
 * <p>Only {@link GcraBucket} reads or writes {@link #fullAt}, by plain volatile reads and CAS.
 */
class BucketState {
  /** GCRA's theoretical arrival time, in ticks (wrapping): when the bucket is full again. */
  volatile long fullAt;

  BucketState(long fullAt) {
    this.fullAt = fullAt;
  }
}
