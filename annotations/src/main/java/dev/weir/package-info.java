/**
 * Weir's API, the only classes an application compiles against: {@code @TokenBucket} (bursts up to
 * a capacity, an average rate bounded), {@code @LeakyBucket} (a strict constant rate, a bounded
 * queue), {@code @LimitKey} (one bucket per key), {@code OnLimit} and {@code RateLimitedException}.
 * The annotations do nothing alone: the agent ({@code -javaagent: weir-agent.jar}) weaves the
 * limits into the annotated methods as their classes load. See docs/annotations.md.
 *
 * <p>No dependencies; Java 8 bytecode.
 */
package dev.weir;
