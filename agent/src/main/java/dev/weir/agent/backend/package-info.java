/**
 * The Redis client side of cluster scope: {@code RedisBackend} implements the boot tier's {@code
 * Backend} with a Lua script ({@code gcra.lua}, sent by {@code GcraScript}) that mirrors {@code
 * GcraBucket.acquire} line for line, a token bucket's {@code WarmUp} (its cold zone kept beside the
 * bucket in the same key), and {@code JointCharge} for several limits of one call ({@code
 * SlotCharges}: one script call, or one per slot of a Redis Cluster), over the relocated Jedis,
 * with call deadlines, TLS, the eviction watch, and {@code RedisFailures}, which tells a refusal
 * from an outage and words it. See docs/cluster.md.
 *
 * <p>Agent tier. May import: {@code config}, the boot tier, the relocated Jedis and the JDK.
 */
package dev.weir.agent.backend;
