/**
 * The arithmetic of a limit: {@code GcraBucket} (the generic cell rate algorithm, ITU-T I.371, as a
 * token bucket or a leaky bucket over one {@code volatile long}, its theoretical arrival time;
 * {@code EmissionInterval}, its time unit), {@code JointCharge} (the all-or-nothing charge of a
 * call several limits apply to), the warm-up of a token bucket ({@code WarmUp}, a cold zone in a
 * second word), the keyed buckets of a per-key limit and their sweep, the key digest, the back-off
 * and spin of a waiting call, the nanosecond clock, and {@code LimitRules}, the one place the rules
 * of a limit's values and their messages live.
 *
 * <p>Boot tier. May import: {@code dev.weir.agent.bootstrap} and the JDK. Lock-free classes open
 * with numbered invariants naming the tests that guard them.
 */
package dev.weir.agent.bootstrap.core;
