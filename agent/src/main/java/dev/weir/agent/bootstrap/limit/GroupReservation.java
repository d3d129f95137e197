package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.cluster.SharedCharge;
import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.JointCharge;
import dev.weir.agent.bootstrap.core.NanoClock;

/**
 * The reservation of a call that several limits admitted at one departure ({@link
 * LimitGroup#reserveAll}): the local limits' charges ({@link JointCharge}), the cluster limits'
 * ({@link SharedCharge}, or slots reserved one by one), ended on every limit at once. Reached
 * ({@link #admit}), each limit counts it granted (and waited); abandoned, each gives back by the
 * rule for interrupted waiters and counts it rejected; withdrawn (another limit refused the request
 * later), each gives back the same way and counts it neither way. One admitted at once holds its
 * charges too, so that a later refusal gives them back exactly.
 *
 * <p>Thread-safe as {@link Reservation}: the first of admit, abandon and withdraw decides.
 */
final class GroupReservation extends Reservation {
  private final BucketLimiter[] members;

  /** How many of {@link #members} are local (charged in {@link #states} and {@link #slots}). */
  private final int local;

  private final String[] keys;
  private final BucketState[] states;
  private final long[] slots;

  /** The cluster limits' joint charge; null if none was made. */
  private final SharedCharge shared;

  /** Cluster limits reserved one by one: their reservations, ended with this, limiters and keys. */
  private final Reservation[] held;

  private final BucketLimiter[] holders;
  private final String[] heldKeys;

  private final NanoClock clock;

  GroupReservation(
      BucketLimiter[] members,
      int local,
      String[] keys,
      BucketState[] states,
      long[] slots,
      SharedCharge shared,
      Reservation[] held,
      BucketLimiter[] holders,
      String[] heldKeys,
      NanoClock clock,
      long reservedAtNanos,
      long waitNanos) {
    super(null, null, null, null, reservedAtNanos, 0, waitNanos, 0); // its own clock and hooks
    this.members = members;
    this.local = local;
    this.keys = keys;
    this.states = states;
    this.slots = slots;
    this.shared = shared;
    this.held = held;
    this.holders = holders;
    this.heldKeys = heldKeys;
    this.clock = clock;
  }

  @Override
  boolean holds() {
    return true;
  }

  @Override
  public NanoClock clock() {
    return clock;
  }

  @Override
  void admitted() {
    if (waits()) {
      long spent = Math.max(0, clock.nanoTime() - reservedAtNanos);
      for (BucketLimiter m : members) {
        m.counts().admitAfterWait(spent);
        m.counts().endWait();
      }
    }
    for (Reservation r : held) {
      r.admit();
    }
  }

  @Override
  long abandoned() {
    giveBack();
    long retry = 1;
    for (int i = 0; i < members.length; i++) {
      members[i].counts().reject();
      if (waits()) {
        members[i].counts().endWait();
      }
      retry = Math.max(retry, members[i].probe(keys[i]));
    }
    for (int j = 0; j < held.length; j++) {
      if (held[j].waits()) {
        retry = Math.max(retry, held[j].abandon());
      } else {
        holders[j].refund(heldKeys[j]);
        holders[j].counts().reject();
      }
    }
    return retry;
  }

  @Override
  void withdrawn() {
    giveBack();
    for (BucketLimiter m : members) {
      if (waits()) {
        m.counts().endWait();
      } else {
        m.counts().refund(); // admitted at once, counted granted: no longer
      }
    }
    for (int j = 0; j < held.length; j++) {
      GroupCall.withdraw(held[j], holders[j], heldKeys[j]);
    }
  }

  private void giveBack() {
    for (int i = 0; i < local; i++) {
      JointCharge.undo(states[i], slots, i * JointCharge.SLOT, clock);
    }
    if (shared != null) {
      shared.undo();
    }
  }
}
