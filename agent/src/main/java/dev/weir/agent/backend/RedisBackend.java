package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.cluster.SharedCharge;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.config.BackendTls;
import dev.weir.agent.config.BackendUri;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.util.Pool;

/**
 * The Redis backend of cluster scope: one script per exchange ({@link GcraScript}, the core's GCRA
 * line for line on Redis's {@code TIME}), sent as {@code EVALSHA} and as {@code EVAL} when the
 * server answers {@code NOSCRIPT} (a restarted server, a cluster node that never saw it).
 *
 * <p><b>Client.</b> Jedis, relocated into the agent: 1.3 MB, Java 8 bytecode, no event loop of its
 * own, and a blocking exchange per call on a pooled connection, so a stalled Redis holds only the
 * calls that were in flight, each until its socket timeout. One URI is a standalone server (or a
 * proxy); a list is the seed nodes of a Redis Cluster, whose slots Jedis follows. Every connect and
 * read is bounded by {@code backendTimeoutMillis}, and each call has one deadline that nothing
 * restarts ({@link CallDeadline}): every read it leads to (a new connection's TLS handshake, {@code
 * AUTH} and {@code SELECT}, the script, its reload after {@code NOSCRIPT}) waits only for what is
 * left of it ({@link DeadlineSocket}; a new connection's connect, the call's first step, has the
 * timeout). A call never waits for a pooled connection (at most {@link #MAX_CONNECTIONS}: a call
 * beyond them follows {@code onBackendFailure} at once); a cluster exchange is tried at most twice
 * (a {@code MOVED} redirect) within that bound. commons-pool2 2.12 opens no replacement for a
 * broken connection on the caller's thread (2.13 does). In a Redis Cluster without TLS, Jedis makes
 * the sockets: there a new connection's {@code AUTH} waits a timeout of its own.
 *
 * <p><b>TLS.</b> {@code rediss://} with {@code backendTls}'s PEM files ({@link BackendTls}) for
 * this backend alone, through Jedis's own TLS settings (socket factory, parameters with the host
 * name checked as HTTPS does); without them the JVM's default trust. A certificate that cannot be
 * verified is one log line naming the host and {@code backendTls}.
 *
 * <p><b>Failure.</b> An exchange that fails to connect, times out, loses its connection, or meets
 * an error of the whole server (out of memory, a read-only replica, a cluster slot down, loading, a
 * refused password or permission, a database out of range) marks the backend down: it is logged
 * once (a server that answers with an error as refusing, in its words; one that does not as not
 * answering), every later exchange is answered {@link #UNAVAILABLE} at once without touching the
 * network (nothing is queued while disconnected), and a background thread probes every {@link
 * #PROBE_MILLIS} ms with a write through the script next to the key that failed (a {@code PING}
 * would pass where calls fail) until it succeeds; the backend is then used again and that is logged
 * too. An error of one key (it holds another type) fails that key's calls only, logged once per key
 * ({@link RedisFailures} tells them apart and words them). Connecting and loading the script happen
 * on that thread as soon as the backend is made, so the first acquire finds them ready.
 *
 * <p><b>Eviction.</b> A server that evicts keys is not used while it does ({@link EvictionWatch},
 * checked each second by a thread of its own), unless {@code backendAllowEviction: true}.
 *
 * <p>Thread-safe.
 */
public final class RedisBackend extends Backend {
  /** The pause between two probes of a backend that is down, in milliseconds. */
  static final long PROBE_MILLIS = 100;

  /**
   * The most connections of one JVM (to each node of a cluster): a call that finds them all in use
   * follows {@code onBackendFailure} at once rather than wait for one.
   */
  static final int MAX_CONNECTIONS = 128;

  /** The pause between two checks of the servers' evictions, in milliseconds. */
  static final long WATCH_MILLIS = 1000;

  /**
   * At connect, the pause between the first two checks of evictions, before the backend is used,
   * when a server's policy evicts: a server that evicts as Weir connects is not used at all.
   */
  static final long SETTLE_MILLIS = 100;

  /** The connections opened ahead, once connected and after each outage. */
  static final int READY_CONNECTIONS = 8;

  /** The probe's arguments: {@code w}, a write of a probe key expiring in a second. */
  private static final List<String> PROBE_ARGUMENTS = Collections.singletonList("w");

  /**
   * The longest the first calls wait for the first connect, as the application starts (the client's
   * classes load then), in milliseconds.
   */
  static final long FIRST_CONNECT_MILLIS = 3000;

  private final List<BackendUri> uris;
  private final int timeoutMillis;
  private final String described;
  private final boolean clusterMode;
  private final BackendTls tls;
  private final EvictionWatch evictions;

  /** The client; null until the first connect succeeded. */
  private volatile UnifiedJedis client;

  /** Whether exchanges are tried: true from a successful probe until a failed exchange. */
  private volatile boolean answering;

  private volatile boolean closed;

  /** Counted down once the first connect has succeeded or failed. */
  private final CountDownLatch firstOutcome = new CountDownLatch(1);

  /** Tests only: the clock whose readings the script takes in place of {@code TIME}; or null. */
  private volatile NanoClock scriptClock;

  /** Guards starting the probe thread. */
  private final Object probeLock = new Object();

  /** Whether the probe thread runs; guarded by {@link #probeLock}. */
  private boolean probing;

  /** Where the probe writes: next to the key whose exchange failed. */
  private volatile String probeKey;

  /** Whether the eviction watch's thread was started; guarded by {@link #probeLock}. */
  private boolean watching;

  /** How failed exchanges are told apart, and what of them was logged. */
  private final RedisFailures failures;

  private RedisBackend(
      List<BackendUri> uris,
      long timeoutMillis,
      String keyPrefix,
      BackendTls tls,
      boolean allowEviction,
      NanoClock watchClock) {
    this.uris = uris;
    this.probeKey = keyPrefix + "weir:{weir}:probe";
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    this.clusterMode = uris.size() > 1;
    this.described = describe(uris);
    this.tls = tls;
    this.evictions = new EvictionWatch(described, allowEviction, watchClock);
    this.failures = new RedisFailures(described, uris);
  }

  /**
   * Makes a backend without {@code backendTls} that does not use a server while it evicts, and
   * starts connecting to it in the background.
   *
   * @param uris one URI (a server), or the seed nodes of a Redis Cluster
   * @param timeoutMillis the bound on every call, {@code >= 1}
   * @param keyPrefix the {@code backendKeyPrefix}, or empty: the probe's key is under it
   * @return the backend; {@link #answering()} once connected
   */
  public static RedisBackend start(List<BackendUri> uris, long timeoutMillis, String keyPrefix) {
    return start(uris, timeoutMillis, keyPrefix, null, false);
  }

  /**
   * Makes a backend and starts connecting to it in the background.
   *
   * @param uris one URI (a server), or the seed nodes of a Redis Cluster
   * @param timeoutMillis the bound on every call, {@code >= 1}
   * @param keyPrefix the {@code backendKeyPrefix}, or empty: the probe's key is under it
   * @param tls {@code backendTls} for {@code rediss://} URIs; null for the JVM's default trust
   * @param allowEviction {@code backendAllowEviction}: use a server even while it evicts keys
   * @return the backend; {@link #answering()} once connected
   */
  public static RedisBackend start(
      List<BackendUri> uris,
      long timeoutMillis,
      String keyPrefix,
      BackendTls tls,
      boolean allowEviction) {
    return start(uris, timeoutMillis, keyPrefix, tls, allowEviction, NanoClock.SYSTEM);
  }

  /** As above; the minute without evictions is measured on {@code watchClock} (tests). */
  static RedisBackend start(
      List<BackendUri> uris,
      long timeoutMillis,
      String keyPrefix,
      BackendTls tls,
      boolean allowEviction,
      NanoClock watchClock) {
    RedisBackend backend =
        new RedisBackend(uris, timeoutMillis, keyPrefix, tls, allowEviction, watchClock);
    backend.probeInBackground();
    return backend;
  }

  /** Answering, and no server evicts keys (or eviction is allowed). */
  @Override
  public boolean answering() {
    return answering && !evictions.evicting();
  }

  @Override
  public String notUsedBecause() {
    return answering && evictions.evicting() ? EvictionWatch.REASON : null;
  }

  @Override
  public boolean awaitAnswering() {
    if (!answering && firstOutcome.getCount() > 0) {
      try {
        // the first attempt's steps (connect, handshake, SCRIPT LOAD, the probe's write) are each
        // bounded by the timeout; the JVM loading the client's classes as it starts is not
        firstOutcome.await(
            Math.max(FIRST_CONNECT_MILLIS, 5L * timeoutMillis), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // kept for the caller; this call takes its fallback
      }
    }
    return answering();
  }

  /**
   * Backend URIs for messages, passwords hidden.
   *
   * @param uris one URI, or a cluster's seed nodes
   * @return the URI, or the list of them
   */
  static String describe(List<BackendUri> uris) {
    return uris.size() == 1 ? uris.get(0).toString() : uris.toString();
  }

  @Override
  public long exchange(ClusterScope scope, char op, String key, GcraBucket bucket, long permits) {
    UnifiedJedis c = client;
    if (c == null || !answering || evictions.evicting()) {
      return UNAVAILABLE;
    }
    long outer = CallDeadline.start(timeoutMillis);
    try {
      List<String> args = GcraScript.arguments(scope, op, bucket, permits, scriptClock);
      return ((Long) GcraScript.run(c, key, args)).longValue();
    } catch (RuntimeException e) {
      failed(e, key, true);
      return UNAVAILABLE;
    } finally {
      CallDeadline.end(outer);
    }
  }

  /**
   * The joint charge of {@code call}'s keys ({@link SlotCharges}): one script call on one server,
   * one per slot on a Redis Cluster. A key's own error (it holds another type) answers {@link
   * #UNAVAILABLE} without marking the backend down: each limit alone then meets, and logs, its own.
   */
  @Override
  protected long chargeAll(SharedCharge call, long minWaitNanos, long maxWaitNanos) {
    UnifiedJedis c = client;
    if (c == null || !answering || evictions.evicting()) {
      return UNAVAILABLE;
    }
    long outer = CallDeadline.start(timeoutMillis);
    try {
      return SlotCharges.charge(c, clusterMode, call, minWaitNanos, maxWaitNanos, scriptClock);
    } catch (RuntimeException e) {
      failed(e, call.key(0), false);
      return UNAVAILABLE;
    } finally {
      CallDeadline.end(outer);
    }
  }

  /** Undoes the charges of {@link #chargeAll} ({@link SlotCharges#undo}). */
  @Override
  protected void undoAll(SharedCharge call, Object record) {
    UnifiedJedis c = client;
    if (c == null || !answering) {
      return; // the charges stay taken: less is admitted, never more
    }
    long outer = CallDeadline.start(timeoutMillis);
    try {
      SlotCharges.undo(c, call, (SlotCharges.Charged) record, scriptClock);
    } catch (RuntimeException e) {
      failed(e, call.key(0), false);
    } finally {
      CallDeadline.end(outer);
    }
  }

  /**
   * What a failed exchange means ({@link RedisFailures}): an error of one key (it holds something
   * else than a bucket: its calls fail, logged if {@code logKey}), a full pool (more calls at once
   * than connections: those beyond follow onBackendFailure, Redis is fine), or a server that cannot
   * serve (OOM, READONLY, CLUSTERDOWN, LOADING, NOAUTH, a timeout, ...): down.
   */
  private void failed(RuntimeException e, String key, boolean logKey) {
    if (e instanceof JedisDataException && RedisFailures.ofOneKey((JedisDataException) e)) {
      if (logKey) {
        failures.keyRefused(key, (JedisDataException) e);
      }
    } else if (!(e instanceof JedisDataException) && RedisFailures.poolExhausted(e)) {
      failures.poolFull();
    } else {
      down(e, key);
    }
  }

  /**
   * A failed exchange: the backend is down until a probe gets an answer.
   *
   * @param key the key whose exchange failed: the probe writes next to it (the same node of a Redis
   *     Cluster)
   */
  private void down(RuntimeException e, String key) {
    probeKey = key + ":probe";
    boolean first;
    synchronized (probeLock) {
      first = answering && !closed;
      answering = false;
    }
    if (first) {
      dropIdleConnections(); // a restarted server left them dead: none is tried again
      evictions.outage(); // a restarted or failed-over server: its policy is read again
      failures.logDown(e, " again");
    }
    probeInBackground();
  }

  /** Closes the pooled connections not in use, of every node. */
  private void dropIdleConnections() {
    poolsDo(client, false);
  }

  /**
   * Closes the idle connections of every node's pool, or opens {@link #READY_CONNECTIONS} in each.
   * A failure is noted at debug level: either is an optimisation.
   */
  private void poolsDo(UnifiedJedis c, boolean open) {
    List<Pool<Connection>> pools = new java.util.ArrayList<Pool<Connection>>();
    try {
      if (c instanceof RedisClient) {
        pools.add(((RedisClient) c).getPool());
      } else if (c instanceof RedisClusterClient) {
        pools.addAll(((RedisClusterClient) c).getClusterNodes().values());
      }
      for (Pool<Connection> pool : pools) {
        if (open) {
          pool.preparePool();
        } else {
          pool.clear();
        }
      }
    } catch (Exception e) {
      AgentLog.debug(
          "backend "
              + described
              + (open ? ": opening connections ahead" : ": dropping idle connections")
              + " failed: "
              + e);
    }
  }

  /** Starts the probe thread unless it runs. */
  private void probeInBackground() {
    synchronized (probeLock) {
      if (probing || closed) {
        return;
      }
      probing = true;
    }
    AgentThreads.start(
        new Runnable() {
          @Override
          public void run() {
            probe();
          }
        },
        "weir-backend");
  }

  /** Connects if needed and probes until Redis answers (or the backend is closed). */
  private void probe() {
    boolean starting = firstOutcome.getCount() > 0;
    long started = System.nanoTime();
    boolean reported = !starting;
    try {
      while (!closed) {
        try {
          UnifiedJedis c = client;
          if (c == null) {
            c = connect();
            client = c;
          }
          ready(c);
          // logged before it is used: whoever sees it answer finds the line written
          logAnswering(reported, started);
          nowAnswering();
          return;
        } catch (RuntimeException e) {
          if (!reported) { // logged before the first calls are let go: they find the line written
            reported = true;
            failures.logDown(e, "");
          }
          firstOutcome.countDown();
        }
        LockSupport.parkNanos(PROBE_MILLIS * 1_000_000L);
      }
    } finally {
      synchronized (probeLock) {
        probing = false;
      }
    }
  }

  /**
   * Makes a connected client ready for calls, on the probe's thread: the script loaded, a probe
   * write through it, connections opened ahead, the servers' evictions checked.
   *
   * @throws RuntimeException as the exchanges throw it: the backend is not ready
   */
  private void ready(UnifiedJedis c) {
    loadScript(c);
    // a write through the script, where the failed call went: what calls need, not a
    // PING that a full, read-only, paused or partly down server still answers
    GcraScript.run(c, probeKey, PROBE_ARGUMENTS);
    poolsDo(c, true); // so that calls seldom open one
    checkEvictions(c); // at connect and after each outage: the policies read again
    if (evictions.watchesEvictions()) { // evicting now? then it is not used from the start
      LockSupport.parkNanos(SETTLE_MILLIS * 1_000_000L);
      checkEvictions(c);
    }
  }

  /**
   * The line of a probe that got its answer: info after an outage (or a start that found the
   * backend down), else a debug line with the time since {@code startedNanos}.
   */
  private void logAnswering(boolean again, long startedNanos) {
    if (again) { // after an outage, or a start that found it down
      AgentLog.info("backend " + described + " answers again; cluster limits use it");
    } else if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "backend "
              + described
              + " connected, script "
              + GcraScript.SHA
              + " loaded, in "
              + (System.nanoTime() - startedNanos) / 1_000_000L
              + " ms");
    }
  }

  /**
   * Lets calls use the backend again, unless it was closed meanwhile, and starts the eviction
   * watch's thread the first time.
   */
  private void nowAnswering() {
    boolean startWatch;
    synchronized (probeLock) {
      if (closed) {
        return;
      }
      answering = true;
      probing = false;
      startWatch = !watching;
      watching = true;
    }
    firstOutcome.countDown();
    if (startWatch) {
      watchInBackground();
    }
  }

  private void loadScript(UnifiedJedis c) {
    if (clusterMode) {
      return; // each node loads it with its first EVAL after NOSCRIPT
    }
    c.scriptLoad(GcraScript.SOURCE);
  }

  /** Checks the evictions of every server each {@link #WATCH_MILLIS} until closed. */
  private void watchInBackground() {
    AgentThreads.start(
        new Runnable() {
          @Override
          public void run() {
            while (!closed) {
              LockSupport.parkNanos(WATCH_MILLIS * 1_000_000L);
              UnifiedJedis c = client;
              if (c != null && answering && !closed) {
                checkEvictions(c);
              }
            }
          }
        },
        "weir-backend-evictions");
  }

  /** One check of the servers' eviction policies and evictions ({@link EvictionWatch}). */
  private void checkEvictions(UnifiedJedis c) {
    final Map<String, Pool<Connection>> servers = servers(c);
    evictions.check(
        servers.keySet(),
        new EvictionWatch.Info() {
          @Override
          public String read(String server, String section) {
            long outer = CallDeadline.start(timeoutMillis);
            try (Connection connection = servers.get(server).getResource()) {
              connection.sendCommand(Protocol.Command.INFO, section);
              return connection.getBulkReply();
            } finally {
              CallDeadline.end(outer);
            }
          }
        });
  }

  /** Each server's pool by {@code host:port}: the one server, or a cluster's nodes. */
  private Map<String, Pool<Connection>> servers(UnifiedJedis c) {
    Map<String, Pool<Connection>> servers = new LinkedHashMap<String, Pool<Connection>>();
    try {
      if (c instanceof RedisClient) {
        BackendUri uri = uris.get(0);
        servers.put(uri.host() + ":" + uri.port(), ((RedisClient) c).getPool());
      } else if (c instanceof RedisClusterClient) {
        servers.putAll(((RedisClusterClient) c).getClusterNodes());
      }
    } catch (RuntimeException e) {
      AgentLog.debug("backend " + described + ": its servers not listed: " + e);
    }
    return servers;
  }

  /**
   * Tests only: one check of the servers' evictions now, as the watch's thread makes each second.
   */
  void checkEvictionsForTests() {
    UnifiedJedis c = client;
    if (c != null) {
      checkEvictions(c);
    }
  }

  /** Tests only: closes the idle connections, so that the next calls open new ones. */
  void dropIdleConnectionsForTests() {
    dropIdleConnections();
  }

  private UnifiedJedis connect() {
    BackendUri first = uris.get(0);
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .ssl(first.tls())
            .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
    if (first.tls()) {
      SSLParameters parameters = new SSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the host name is checked
      config.sslSocketFactory(new DeadlineSocket.Tls(sslSocketFactory())).sslParameters(parameters);
    }
    if (first.user() != null) {
      config.user(first.user());
    }
    if (first.password() != null) {
      config.password(first.password());
    }
    if (!clusterMode && first.database() != 0) {
      config.database(first.database());
    }
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<Connection>();
    pool.setMaxTotal(MAX_CONNECTIONS);
    pool.setMaxIdle(MAX_CONNECTIONS);
    pool.setMinIdle(READY_CONNECTIONS);
    // never wait for a connection: a waiter makes the pool open a new one on the thread of any
    // call whose connection broke, which then waits a second timeout
    pool.setBlockWhenExhausted(false);
    pool.setJmxEnabled(false); // no MBeans of the pool in the application's MBean server
    pool.setTestOnBorrow(false);
    if (clusterMode) {
      Set<HostAndPort> nodes = new LinkedHashSet<HostAndPort>();
      for (BackendUri uri : uris) {
        nodes.add(new HostAndPort(uri.host(), uri.port()));
      }
      return RedisClusterClient.builder()
          .nodes(nodes)
          .clientConfig(config.build())
          .poolConfig(pool)
          .maxAttempts(2)
          .maxTotalRetriesDuration(Duration.ofMillis(timeoutMillis))
          .build();
    }
    JedisClientConfig clientConfig = config.build();
    HostAndPort server = new HostAndPort(first.host(), first.port());
    ConnectionFactory connections =
        new ConnectionFactory(new DeadlineSocket.Factory(server, clientConfig), clientConfig);
    return RedisClient.builder()
        .clientConfig(clientConfig)
        .connectionProvider(new PooledConnectionProvider(connections, pool))
        .build();
  }

  /** The TLS sockets: {@code backendTls}'s context, or the JVM's default one without it. */
  private SSLSocketFactory sslSocketFactory() {
    if (tls == null) {
      return (SSLSocketFactory) SSLSocketFactory.getDefault();
    }
    try {
      return tls.sslContext().getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("backendTls: this JVM cannot make its TLS context: " + e, e);
    }
  }

  /**
   * Tests only: the script takes this clock's readings (in microseconds) in place of Redis's {@code
   * TIME}, so that a test can put the shared bucket and a local one at the same instants.
   *
   * @param clock the clock; null for Redis's own
   */
  void useClockForTests(NanoClock clock) {
    scriptClock = clock;
  }

  /**
   * Stops probing and closes the connections; exchanges answer {@link #UNAVAILABLE} from now on.
   */
  public void close() {
    synchronized (probeLock) {
      closed = true;
      answering = false;
    }
    firstOutcome.countDown();
    UnifiedJedis c = client;
    if (c != null) {
      try {
        c.close();
      } catch (RuntimeException ignored) {
        // closing: nothing to do about it
      }
    }
  }
}
