/**
 * Limiters and what woven code calls: {@code WeirBridge} (the bridge, whose signatures use only
 * {@code java.lang} types; {@code RefusingField} sets the names of every refusing limit on the
 * application's exception), {@code LimiterRegistry} (limiters by id, with the loaders that own
 * them), {@code LimitGroup} (the limits of a method with several, or of an http request's entries,
 * decided together; its per-call work in {@code GroupCall}, a request's charges in {@code
 * GroupReservation}), {@code BucketLimiter} (a call's decision over a {@code GcraBucket}, local or
 * keyed, and the live change), with the pieces it is made of: {@code ClusterBucket} (the cluster
 * path's exchanges), {@code SlotWaits} and {@code GiveBackList} (the wait for a slot, and the slots
 * of interrupted waiters given back), {@code CallCounts} (granted, rejected, waits), {@code
 * SettingsText}; the limiter of an invalid limit ({@code RefusedLimiter}, which fails closed),
 * reservations and draining.
 *
 * <p>Boot tier. May import: {@code bootstrap}, {@code bootstrap.core}, {@code bootstrap.cluster},
 * the relocated HdrHistogram and the JDK.
 */
package dev.weir.agent.bootstrap.limit;
