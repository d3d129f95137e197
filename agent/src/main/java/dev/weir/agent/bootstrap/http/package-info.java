/**
 * The HTTP gate: what the prologue woven into every servlet container's {@code doFilter} and {@code
 * service} calls ({@code HttpGate}, which matches a request with {@code RequestMatch}, keys it with
 * {@code RequestKeys} and answers it with {@code LimitedAnswer}), the {@code http} entries' rules
 * (paths, methods, keys, trusted proxies, address blocks), the waits of a request that must wait,
 * and the answer of a limited request. The servlet API is reached by reflection on the request's
 * own class ({@code ServletApi}), never linked. See docs/web-apps.md.
 *
 * <p>Boot tier. May import: {@code bootstrap}, {@code bootstrap.core}, {@code bootstrap.cluster},
 * {@code bootstrap.limit}, the {@code dev.weir} API and the JDK.
 */
package dev.weir.agent.bootstrap.http;
