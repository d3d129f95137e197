/**
 * The seam cluster scope plugs into: {@code Backend}, what a limiter shared across JVMs calls (the
 * agent tier's Redis backend implements it), {@code ClusterScope}, what a cluster limiter does
 * while its backend fails, and {@code SharedCharge}, the cluster limits of one call charged
 * together in one exchange.
 *
 * <p>Boot tier. May import: {@code bootstrap}, {@code bootstrap.core} and the JDK.
 */
package dev.weir.agent.bootstrap.cluster;
