/**
 * The seam cluster scope plugs into: {@code Backend}, what a limiter shared across JVMs calls (the
 * agent tier's Redis backend implements it), and {@code ClusterScope}, what a cluster limiter does
 * while its backend fails.
 *
 * <p>Boot tier. May import: {@code bootstrap}, {@code bootstrap.core} and the JDK.
 */
package dev.weir.agent.bootstrap.cluster;
