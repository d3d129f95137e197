/**
 * Limiters and what woven code calls: {@code WeirBridge} (the bridge, whose signatures use only
 * {@code java.lang} types), {@code LimiterRegistry} (limiters by id, with the loaders that own
 * them), {@code BucketLimiter} (the local, keyed and cluster paths over a {@code GcraBucket}, the
 * waits and the live change), the limiter of an invalid limit ({@code RefusedLimiter}, which fails
 * closed), the counts and wait statistics, reservations and draining.
 *
 * <p>Boot tier. May import: {@code bootstrap}, {@code bootstrap.core}, {@code bootstrap.cluster},
 * the relocated HdrHistogram and the JDK.
 */
package dev.weir.agent.bootstrap.limit;
