package dev.weir.benchmarks;

import dev.weir.TokenBucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import io.github.bucket4j.redis.jedis.cas.JedisBasedProxyManager;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.RedisClient;

/**
 * Cluster scope's cost, as users meet it: acquires per second and their latency (p50, p99) from one
 * JVM with 1 and 8 threads, against a {@code redis-server} on this machine, beside Bucket4j's Redis
 * backend (compare-and-swap) over the same client (Jedis) and beside a plain {@code PING} round
 * trip, in the same run.
 *
 * <p>Weir's side is {@link #weirCall()}, an annotated method woven by the agent, made cluster-wide
 * by the config file's name-only override ({@code scope: cluster}), so each call is the woven
 * prologue plus one exchange with Redis. Every bucket is large enough that nothing is limited: the
 * cost measured is the exchange's.
 *
 * <p>{@code java -javaagent:weir-agent.jar=config=CONFIG -cp weir-benchmarks.jar
 * dev.weir.benchmarks.RedisThroughput PORT SECONDS MODES THREADS [START_AT_MILLIS]} with {@code
 * MODES} a comma list of {@code ping}, {@code weir}, {@code bucket4j} and {@code THREADS} a comma
 * list of thread counts; prints one line per cell: {@code redis MODE THREADS OPS_PER_S P50_US
 * P99_US}. Two JVMs given the same {@code START_AT_MILLIS} (wall clock) start their first cell
 * together and keep in step (each cell is a second of warm-up and {@code SECONDS} of measurement).
 * {@code benchmarks/run.sh} starts the server, writes the config and runs it, in one JVM and in two
 * at once.
 */
public final class RedisThroughput {
  private RedisThroughput() {}

  /** The limited call: local unless the config file makes it cluster-wide. */
  @TokenBucket(name = "redis-bench", rate = 100_000_000, capacity = 100_000_000)
  static void weirCall() {}

  /** One operation of a cell. */
  interface Op {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("--free-port")) {
      try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
        System.out.println(s.getLocalPort());
      }
      return;
    }
    int port = Integer.parseInt(args[0]);
    int seconds = Integer.parseInt(args[1]);
    String[] modes = args[2].split(",");
    String[] threads = args[3].split(",");
    long startAt = args.length > 4 ? Long.parseLong(args[4]) : 0;
    RedisClient jedis =
        RedisClient.builder().hostAndPort("127.0.0.1", port).poolConfig(pool()).build();
    JedisBasedProxyManager<byte[]> bucket4j = Bucket4jJedis.casBasedBuilder(jedis).build();
    BucketConfiguration big =
        BucketConfiguration.builder()
            .addLimit(
                limit ->
                    limit.capacity(100_000_000L).refillGreedy(100_000_000L, Duration.ofSeconds(1)))
            .build();
    BucketProxy bucket =
        bucket4j.builder().build("bucket4j-bench".getBytes(StandardCharsets.UTF_8), () -> big);
    weirCall(); // connected before the clock starts
    long wait = startAt - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
    for (String mode : modes) {
      Op op = op(mode, jedis, bucket);
      for (String t : threads) {
        int n = Integer.parseInt(t);
        cell(op, n, 1); // warm-up
        double[] r = cell(op, n, seconds);
        System.out.printf("redis %s %d %.0f %.1f %.1f%n", mode, n, r[0], r[1], r[2]);
      }
    }
    printWeirLimiter();
    jedis.close();
  }

  /** The operation of a mode: a {@code PING}, Weir's woven call, or a Bucket4j acquire. */
  private static Op op(String mode, RedisClient jedis, BucketProxy bucket) {
    Op op;
    switch (mode) {
      case "ping":
        op = jedis::ping;
        break;
      case "weir":
        op = RedisThroughput::weirCall;
        break;
      case "bucket4j":
        op =
            () -> {
              if (!bucket.tryConsume(1)) {
                throw new IllegalStateException("the benchmark's Bucket4j bucket ran dry");
              }
            };
        break;
      default:
        throw new IllegalArgumentException(mode);
    }
    return op;
  }

  /** The line of the Weir limiter's scope and counts, where the agent made its MBean. */
  private static void printWeirLimiter() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName bean = new ObjectName("dev.weir:type=Limiter,name=redis-bench");
    if (server.isRegistered(bean)) {
      System.out.println(
          "weir scope="
              + server.getAttribute(bean, "Scope")
              + " backendFailures="
              + server.getAttribute(bean, "BackendFailures")
              + " rejected="
              + server.getAttribute(bean, "Rejected"));
    }
  }

  private static org.apache.commons.pool2.impl.GenericObjectPoolConfig<
          redis.clients.jedis.Connection>
      pool() {
    org.apache.commons.pool2.impl.GenericObjectPoolConfig<redis.clients.jedis.Connection> pool =
        new org.apache.commons.pool2.impl.GenericObjectPoolConfig<>();
    pool.setMaxTotal(64);
    pool.setMaxIdle(64);
    pool.setJmxEnabled(false);
    return pool;
  }

  /**
   * Runs {@code op} on {@code threads} threads for {@code seconds}.
   *
   * @return {@code {operations per second, p50 in us, p99 in us}}
   */
  static double[] cell(Op op, int threads, int seconds) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Histogram> histograms = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Histogram h = new Histogram(60_000_000_000L, 3);
      histograms.add(h);
      Thread w =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  go.await();
                  while (!stop.get()) {
                    long start = System.nanoTime();
                    op.run();
                    h.recordValue(System.nanoTime() - start);
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      workers.add(w);
      w.start();
    }
    ready.await();
    long start = System.nanoTime();
    go.countDown();
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread w : workers) {
      w.join();
    }
    long elapsed = System.nanoTime() - start;
    if (!errors.isEmpty()) {
      throw new IllegalStateException("an operation failed", errors.get(0));
    }
    Histogram all = new Histogram(60_000_000_000L, 3);
    for (Histogram h : histograms) {
      all.add(h);
    }
    return new double[] {
      all.getTotalCount() * 1e9 / elapsed,
      all.getValueAtPercentile(50) / 1000.0,
      all.getValueAtPercentile(99) / 1000.0
    };
  }
}
