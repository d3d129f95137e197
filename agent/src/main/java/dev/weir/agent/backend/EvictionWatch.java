package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether the backend's servers evict keys: a server that evicts a bucket's key hands out a full
 * bucket at the next call, so a limit on it multiplies without a sign. Each server's {@code
 * maxmemory} and {@code maxmemory_policy} are read ({@code INFO memory}) when the backend connects
 * and after each outage, and when a server first appears (a Redis Cluster's failover); a server
 * with {@code maxmemory} set and a policy other than {@code noeviction} (every Weir key has an
 * expiry, so {@code volatile-*} policies evict them too) is warned once and its {@code
 * evicted_keys} ({@code INFO stats}) is read at each {@link #check}: at connect, and again {@link
 * RedisBackend#SETTLE_MILLIS} later before the backend is used (a server found evicting then is not
 * used at all), then each second. From a check that sees it grow until a minute ({@link
 * #QUIET_NANOS}) of checks see it still, the backend is not used ({@link #evicting()}): its limits
 * follow {@code onBackendFailure}, logged once when it starts and once when it ends. With {@code
 * backendAllowEviction: true} a risky policy is warned and the backend used all the same. A policy
 * that cannot be read is warned once and read again at the next check. A Redis Cluster is not used
 * while any of its servers evicts.
 *
 * <p>Thread-safe: {@link #check} and {@link #outage} are synchronized; {@link #evicting} is a
 * volatile read, for the call path.
 */
final class EvictionWatch {
  /** How long a server must go without evicting before it is used again: a minute. */
  static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** {@link #evicting()}'s reason, as the {@code Scope} attribute shows it. */
  static final String REASON = "Redis evicts keys";

  /** Reads one {@code INFO} section of one server. */
  interface Info {
    /**
     * One {@code INFO} section.
     *
     * @param server the server, {@code host:port}
     * @param section {@code memory} or {@code stats}
     * @return the reply's text
     * @throws RuntimeException if the server does not answer or refuses
     */
    String read(String server, String section);
  }

  /** What is known of one server; guarded by the watch. */
  private static final class Server {
    /**
     * Its policy when {@code maxmemory} is set; {@code noeviction} when it is not; null: unread.
     */
    String policy;

    /** Whether its policy must be read (again). */
    boolean unread = true;

    /** The risky policy last warned of; null for none. */
    String warnedPolicy;

    /** Whether a policy that could not be read was warned. */
    boolean unreadableWarned;

    /** {@code evicted_keys} at the last check; -1 before the first. */
    long evicted = -1;

    /** Whether an eviction was seen; then {@link #lastEvictionNanos} is its check's time. */
    boolean everEvicted;

    long lastEvictionNanos;

    /** Keys evicted between the last two checks, for the log. */
    long lastEvictedCount;

    boolean risky() {
      return policy != null && !policy.equals("noeviction");
    }
  }

  private final String described;
  private final boolean allowEviction;
  private final NanoClock clock;
  private final Map<String, Server> servers = new LinkedHashMap<String, Server>();

  /** The server that evicts, with its policy, for the log; null while none does. */
  private volatile String evicting;

  /**
   * Creates the watch of one backend.
   *
   * @param described the backend, for the log
   * @param allowEviction {@code backendAllowEviction}
   * @param clock the clock of the minute without evictions
   */
  EvictionWatch(String described, boolean allowEviction, NanoClock clock) {
    this.described = described;
    this.allowEviction = allowEviction;
    this.clock = clock;
  }

  /**
   * Whether the backend is not to be used because a server evicts keys; a volatile read.
   *
   * @return true from a check that saw an eviction until a minute without one
   */
  boolean evicting() {
    return evicting != null;
  }

  /**
   * Whether a server's evictions are watched: its policy evicts, and eviction is not allowed.
   *
   * @return true if a {@link #check} reads evictions
   */
  synchronized boolean watchesEvictions() {
    if (allowEviction) {
      return false;
    }
    for (Server s : servers.values()) {
      if (s.risky()) {
        return true;
      }
    }
    return false;
  }

  /**
   * After an outage: every server's policy is read again at the next check (a restart, a new one).
   */
  synchronized void outage() {
    for (Server s : servers.values()) {
      s.unread = true;
    }
  }

  /**
   * One check of the backend's servers: the policies not read yet, then the evictions of those
   * whose policy evicts. A server that does not answer is skipped (its outage is the calls' to
   * find).
   *
   * @param names the servers now ({@code host:port}: a cluster's nodes)
   * @param info how to read a server's {@code INFO}
   */
  synchronized void check(Iterable<String> names, Info info) {
    long now = clock.nanoTime();
    String evictor = null;
    long count = 0;
    for (String name : names) {
      Server s = servers.get(name);
      if (s == null) {
        s = new Server();
        servers.put(name, s);
      }
      if (s.unread) {
        readPolicy(name, s, info);
      }
      if (s.risky() && !allowEviction) {
        readEvictions(name, s, info, now);
      }
      if (s.everEvicted && now - s.lastEvictionNanos < QUIET_NANOS && evictor == null) {
        evictor = name + " (maxmemory-policy " + s.policy + ")";
        count = s.lastEvictedCount;
      }
    }
    String was = evicting;
    if (was == null && evictor != null) {
      AgentLog.error(
          "backend "
              + described
              + ": "
              + evictor
              + " evicts keys ("
              + count
              + " since the check before), and an evicted bucket comes back full: cluster limits follow"
              + " onBackendFailure until it has not evicted for a minute. Set maxmemory-policy"
              + " noeviction (or give Weir a Redis of its own), or backendAllowEviction: true to"
              + " use it anyway");
    } else if (was != null && evictor == null) {
      AgentLog.info(
          "backend "
              + described
              + ": "
              + was
              + " has not evicted keys for a minute; cluster limits use it again");
    }
    evicting = evictor;
  }

  private void readPolicy(String name, Server s, Info info) {
    long maxmemory;
    String policy;
    try {
      String memory = info.read(name, "memory");
      String max = field(memory, "maxmemory");
      policy = field(memory, "maxmemory_policy");
      if (max == null || policy == null || !max.matches("[0-9]+")) {
        throw new IllegalStateException("INFO memory has no maxmemory and maxmemory_policy");
      }
      maxmemory = Long.parseLong(max);
    } catch (RuntimeException e) {
      s.policy = null;
      if (!s.unreadableWarned) {
        s.unreadableWarned = true;
        AgentLog.warn(
            "backend "
                + described
                + ": cannot read the maxmemory_policy of "
                + name
                + " ("
                + RedisFailures.words(e)
                + "), so Weir cannot tell whether it evicts its buckets (an evicted bucket comes"
                + " back full): make sure its maxmemory-policy is noeviction");
      }
      return; // read again at the next check
    }
    s.unread = false;
    warnIfWritableReplica(name, info);
    s.policy = maxmemory == 0 ? "noeviction" : policy;
    if (s.risky() && !s.policy.equals(s.warnedPolicy)) {
      s.warnedPolicy = s.policy;
      AgentLog.warn(
          "backend "
              + described
              + ": "
              + name
              + " has maxmemory "
              + maxmemory
              + " with maxmemory-policy "
              + policy
              + ", so it may evict Weir's buckets (they all expire, so volatile-* policies evict"
              + " them too), and an evicted bucket comes back full; "
              + (allowEviction
                  ? "backendAllowEviction: true, so Weir uses it even while it evicts"
                  : "Weir watches its evictions and stops using it while it evicts")
              + ". Set maxmemory-policy noeviction (or give Weir a Redis of its own)");
    }
  }

  /**
   * Warns once per connect when the server is a replica that accepts writes ({@code
   * replica-read-only no}): the buckets Weir writes there reach neither its master nor the other
   * replicas, so JVMs that reach different servers keep different buckets and together admit more
   * than the limit. A replica that refuses writes needs no warning: every call fails and follows
   * {@code onBackendFailure}, loudly.
   */
  private void warnIfWritableReplica(String name, Info info) {
    String replication;
    try {
      replication = info.read(name, "replication");
    } catch (RuntimeException e) {
      return; // a server that hides its role: nothing to say of it
    }
    if (replication == null) {
      return;
    }
    String readOnly = field(replication, "slave_read_only");
    if (readOnly == null) {
      readOnly = field(replication, "replica_read_only");
    }
    if ("slave".equals(field(replication, "role")) && "0".equals(readOnly)) {
      AgentLog.warn(
          "backend "
              + described
              + ": "
              + name
              + " is a replica that accepts writes (replica-read-only no): the buckets Weir writes"
              + " there are not replicated to its master or to other replicas, so JVMs that reach"
              + " different servers keep different buckets and together admit more than the"
              + " limit. Point backend at the master");
    }
  }

  private static void readEvictions(String name, Server s, Info info, long now) {
    long evicted;
    try {
      String value = field(info.read(name, "stats"), "evicted_keys");
      if (value == null || !value.matches("[0-9]+")) {
        return;
      }
      evicted = Long.parseLong(value);
    } catch (RuntimeException e) {
      if (AgentLog.debugEnabled()) {
        AgentLog.debug("backend evictions of " + name + " not read: " + e);
      }
      return;
    }
    if (s.evicted >= 0 && evicted > s.evicted) {
      s.everEvicted = true;
      s.lastEvictionNanos = now;
      s.lastEvictedCount = evicted - s.evicted;
    }
    s.evicted = evicted; // a restarted server counts from 0 again: a new baseline
  }

  /** The value of {@code name:value} in an {@code INFO} reply; null if absent. */
  static String field(String info, String name) {
    String prefix = name + ":";
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).trim();
      }
    }
    return null;
  }
}
