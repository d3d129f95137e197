/**
 * The Redis client side of cluster scope: {@code RedisBackend} implements the boot tier's {@code
 * Backend} with a Lua script ({@code gcra.lua}) that mirrors {@code GcraBucket.acquire} line for
 * line, over the relocated Jedis, with call deadlines, TLS and the eviction watch. See
 * docs/cluster.md.
 *
 * <p>Agent tier. May import: {@code config}, the boot tier, the relocated Jedis and the JDK.
 */
package dev.weir.agent.backend;
