package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.Backend;
import dev.weir.agent.bootstrap.ClusterScope;
import dev.weir.agent.bootstrap.GcraBucket;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.config.BackendUri;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.Pool;

/**
 * The Redis backend of cluster scope: one script per exchange ({@code gcra.lua}, the core's GCRA
 * line for line on Redis's {@code TIME}), sent as {@code EVALSHA} and as {@code EVAL} when the
 * server answers {@code NOSCRIPT} (a restarted server, a cluster node that never saw it).
 *
 * <p><b>Client.</b> Jedis, relocated into the agent: 1.3 MB, Java 8 bytecode, no event loop of its
 * own, and a blocking exchange per call on a pooled connection, so a stalled Redis holds only the
 * calls that were in flight, each until its socket timeout. One URI is a standalone server (or a
 * proxy); a list is the seed nodes of a Redis Cluster, whose slots Jedis follows. Every connect and
 * read is bounded by {@code backendTimeoutMillis}; a call never waits for a pooled connection (at
 * most {@link #MAX_CONNECTIONS}: a call beyond them follows {@code onBackendFailure} at once), so a
 * call on an open connection is answered within one timeout; a cluster exchange is tried at most
 * twice (a {@code MOVED} redirect) within that bound. commons-pool2 2.12 opens no replacement for a
 * broken connection on the caller's thread (2.13 does, which costs a second timeout).
 *
 * <p><b>Failure.</b> An exchange that fails to connect, times out, loses its connection, or meets
 * an error of the whole server (out of memory, a read-only replica, a cluster slot down, loading)
 * marks the backend down: it is logged once, every later exchange is answered {@link #UNAVAILABLE}
 * at once without touching the network (nothing is queued while disconnected), and a background
 * thread probes every {@link #PROBE_MILLIS} ms with a write through the script next to the key that
 * failed (a {@code PING} would pass where calls fail) until it succeeds; the backend is then used
 * again and that is logged too. An error of one key (it holds another type) fails that key's calls
 * only, logged once per key. Connecting and loading the script happen on that thread as soon as the
 * backend is made, so the first acquire finds them ready.
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

  /** The connections opened ahead, once connected and after each outage. */
  static final int READY_CONNECTIONS = 8;

  /** The probe's arguments: {@code w}, a write of a probe key expiring in a second. */
  private static final List<String> PROBE_ARGUMENTS = Collections.singletonList("w");

  /**
   * The longest the first calls wait for the first connect, as the application starts (the client's
   * classes load then), in milliseconds.
   */
  static final long FIRST_CONNECT_MILLIS = 3000;

  /** The script: the core's GCRA on one key. */
  static final String SCRIPT = resource("gcra.lua");

  /** Its SHA-1, as {@code EVALSHA} takes it. */
  static final String SHA = sha1(SCRIPT);

  private final List<BackendUri> uris;
  private final int timeoutMillis;
  private final String described;
  private final boolean clusterMode;

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

  /** Whether a full pool was logged. */
  private volatile boolean poolFullLogged;

  /** Keys whose refusal was logged (one line each). */
  private final Set<String> loggedErrors = Collections.synchronizedSet(new LinkedHashSet<String>());

  private RedisBackend(List<BackendUri> uris, long timeoutMillis, String keyPrefix) {
    this.uris = uris;
    this.probeKey = keyPrefix + "weir:{weir}:probe";
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    this.clusterMode = uris.size() > 1;
    this.described = describe(uris);
  }

  /**
   * Makes a backend and starts connecting to it in the background.
   *
   * @param uris one URI (a server), or the seed nodes of a Redis Cluster
   * @param timeoutMillis the bound on every exchange, {@code >= 1}
   * @param keyPrefix the {@code backendKeyPrefix}, or empty: the probe's key is under it
   * @return the backend; {@link #answering()} once connected
   */
  public static RedisBackend start(List<BackendUri> uris, long timeoutMillis, String keyPrefix) {
    RedisBackend backend = new RedisBackend(uris, timeoutMillis, keyPrefix);
    backend.probeInBackground();
    return backend;
  }

  @Override
  public boolean answering() {
    return answering;
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
    return answering;
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
    if (c == null || !answering) {
      return UNAVAILABLE;
    }
    try {
      return ((Long) run(c, key, arguments(scope, op, bucket, permits))).longValue();
    } catch (JedisDataException e) {
      String message = String.valueOf(e.getMessage());
      if (!message.startsWith("WEIR_STATE") && !message.startsWith("WRONGTYPE")) {
        down(e, key); // the server cannot serve (OOM, READONLY, CLUSTERDOWN, LOADING, NOAUTH, ...)
        return UNAVAILABLE;
      }
      // this key holds something else than a bucket: its calls fail, no other's
      if (loggedErrors.size() < 100 && loggedErrors.add(key)) {
        AgentLog.error(
            "cluster bucket "
                + key
                + " on "
                + described
                + ": Redis refused the exchange ("
                + message
                + "); its calls follow onBackendFailure");
      }
      return UNAVAILABLE;
    } catch (RuntimeException e) {
      if (poolExhausted(e)) {
        // more calls at once than connections: those beyond follow onBackendFailure, Redis is fine
        if (!poolFullLogged) {
          poolFullLogged = true;
          AgentLog.warn(
              "backend "
                  + described
                  + ": more than "
                  + MAX_CONNECTIONS
                  + " calls at once; the calls beyond follow onBackendFailure (logged once)");
        }
        return UNAVAILABLE;
      }
      down(e, key);
      return UNAVAILABLE;
    }
  }

  /** One script call: EVALSHA, and EVAL if this server has not the script (yet, or any more). */
  private static Object run(UnifiedJedis c, String key, List<String> args) {
    List<String> keys = Collections.singletonList(key);
    try {
      return c.evalsha(SHA, keys, args);
    } catch (JedisNoScriptException e) {
      return c.eval(SCRIPT, keys, args); // loads it into this server's script cache
    }
  }

  /** Whether the pool had no connection to give (all in use, at {@link #MAX_CONNECTIONS}). */
  private static boolean poolExhausted(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof NoSuchElementException) {
        return true;
      }
    }
    return false;
  }

  /**
   * A limiter's settings as script arguments: derived once per bucket (a live change's new one).
   */
  private static final class Prepared {
    final GcraBucket bucket;
    final long permits;
    final String[] settings;

    Prepared(GcraBucket bucket, long permits) {
      this.bucket = bucket;
      this.permits = permits;
      long[] s = bucket.sharedSettings(permits);
      settings = new String[s.length + 1];
      for (int i = 0; i < s.length; i++) {
        settings[i] = Long.toString(s[i]);
      }
      switch (bucket.discipline()) {
        case TOKEN_BUCKET:
          settings[s.length] = "t";
          break;
        case POLICING:
          settings[s.length] = "p";
          break;
        default:
          settings[s.length] = "s";
      }
    }
  }

  private static final String[] OPS = new String[128];

  static {
    for (char op : new char[] {ACQUIRE, PROBE, REFUND, VIEW}) {
      OPS[op] = String.valueOf(op);
    }
  }

  /** ARGV: the operation, the settings, and in tests the test clock's reading. */
  private List<String> arguments(ClusterScope scope, char op, GcraBucket bucket, long permits) {
    Object slot = scope.prepared();
    Prepared p = slot instanceof Prepared ? (Prepared) slot : null;
    if (p == null || p.bucket != bucket || p.permits != permits) {
      p = new Prepared(bucket, permits);
      scope.prepared(p);
    }
    NanoClock testClock = scriptClock;
    String[] values = new String[p.settings.length + (testClock == null ? 1 : 2)];
    values[0] = OPS[op];
    System.arraycopy(p.settings, 0, values, 1, p.settings.length);
    if (testClock != null) {
      values[values.length - 1] = Long.toString(Math.floorDiv(testClock.nanoTime(), 1000L));
    }
    return Arrays.asList(values);
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
      logDown(e, " again");
    }
    probeInBackground();
  }

  /** The one line of an outage, or of a start that finds the backend down. */
  private void logDown(RuntimeException e, String again) {
    AgentLog.error(
        "backend "
            + described
            + " does not answer ("
            + reason(e)
            + "); cluster limits follow onBackendFailure until it answers"
            + again);
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
          loadScript(c);
          // a write through the script, where the failed call went: what calls need, not a
          // PING that a full, read-only, paused or partly down server still answers
          run(c, probeKey, PROBE_ARGUMENTS);
          poolsDo(c, true); // so that calls seldom open one
          synchronized (probeLock) {
            if (closed) {
              return;
            }
            answering = true;
            probing = false;
          }
          firstOutcome.countDown();
          if (reported) { // after an outage, or a start that found it down
            AgentLog.info("backend " + described + " answers again; cluster limits use it");
          } else if (AgentLog.debugEnabled()) {
            AgentLog.debug(
                "backend "
                    + described
                    + " connected, script "
                    + SHA
                    + " loaded, in "
                    + (System.nanoTime() - started) / 1_000_000L
                    + " ms");
          }
          return;
        } catch (RuntimeException e) {
          firstOutcome.countDown();
          if (!reported) {
            reported = true;
            logDown(e, "");
          }
        }
        LockSupport.parkNanos(PROBE_MILLIS * 1_000_000L);
      }
    } finally {
      synchronized (probeLock) {
        probing = false;
      }
    }
  }

  private void loadScript(UnifiedJedis c) {
    if (clusterMode) {
      return; // each node loads it with its first EVAL after NOSCRIPT
    }
    c.scriptLoad(SCRIPT);
  }

  private UnifiedJedis connect() {
    BackendUri first = uris.get(0);
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .ssl(first.tls())
            .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
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
    return RedisClient.builder()
        .hostAndPort(first.host(), first.port())
        .clientConfig(config.build())
        .poolConfig(pool)
        .build();
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

  private static String reason(RuntimeException e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    if (cause instanceof java.net.UnknownHostException) {
      message = "unknown host " + message;
    }
    String kind = e instanceof JedisConnectionException ? "" : e.getClass().getSimpleName() + ": ";
    return kind + (message != null ? message : cause.getClass().getSimpleName());
  }

  private static String resource(String name) {
    try (InputStream in = RedisBackend.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("weir: the agent jar lacks " + name);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return new String(out.toByteArray(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("weir: cannot read " + name + " from the agent jar", e);
    }
  }

  private static String sha1(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("weir: no SHA-1 in this JVM", e);
    }
  }
}
