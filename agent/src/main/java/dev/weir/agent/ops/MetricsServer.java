package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import javax.management.ObjectName;

/**
 * {@code prometheus=[HOST:]PORT}: {@code GET /metrics} in the Prometheus text exposition format
 * (version 0.0.4), served by {@link HttpFront}, so the agent carries no metrics or HTTP library.
 * Each limiter with an MBean gives its series, labelled {@code limiter} (and {@code loader} where
 * its MBean name has one); keys are never labels. A limiter's series go with it.
 *
 * <p>A client that sends its request slowly or not at all is closed 5 s after it connected, and at
 * most 256 connections are open (the oldest still sending its request makes room for a new one), so
 * scrapes are answered while hundreds of idle or slow connections are open; answers are computed on
 * four worker threads, which never wait for a client.
 *
 * <p>Its threads are daemons of Weir's, so they never keep the JVM alive, and a shutdown hook stops
 * them, so they never slow the JVM's exit. A port in use is one error line; the application runs
 * on. Thread-safe.
 */
final class MetricsServer implements HttpFront.Answer {
  /** The upper bounds of the wait histogram's buckets, in seconds. */
  static final double[] BOUNDS = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private static final String CONTENT_TYPE =
      "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n";

  private final Management management;

  private MetricsServer(Management management) {
    this.management = management;
  }

  /**
   * Starts serving; on the management thread.
   *
   * @param host the address to listen on; null for all interfaces
   * @param port the port; 0 for any free one
   * @param management where the limiters and their MBean names come from
   */
  static void start(String host, int port, Management management) {
    InetSocketAddress address =
        host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    String where = (host == null ? "*" : host) + ":" + port;
    try {
      if (address.isUnresolved()) {
        throw new IOException("no such host: " + host);
      }
      final HttpFront front =
          new HttpFront(
              address,
              new MetricsServer(management),
              Executors.newFixedThreadPool(4, new DaemonThreads()),
              NanoClock.SYSTEM,
              HttpFront.HEAD_DEADLINE_NANOS,
              HttpFront.MAX_CONNECTIONS);
      front.start("weir-metrics");
      // its thread waits in native code for connections, and the JVM's exit waits up to 300 ms
      // for threads in native code: stopping it first keeps the exit as quick as without it
      Thread stop =
          new Thread(
              new Runnable() {
                @Override
                public void run() {
                  front.stop();
                }
              },
              "weir-metrics-stop");
      stop.setContextClassLoader(null);
      Runtime.getRuntime().addShutdownHook(stop);
      AgentLog.info(
          "metrics at http://"
              + (host == null ? "localhost" : host.indexOf(':') >= 0 ? "[" + host + "]" : host)
              + ":"
              + front.port()
              + "/metrics");
    } catch (IOException | RuntimeException e) {
      AgentLog.error(
          "prometheus="
              + where
              + ": cannot listen ("
              + (e.getMessage() != null ? e.getMessage() : e.toString())
              + "); no metrics are served, the application runs on");
    }
  }

  /** The pool's threads: daemons of the JVM's root group, holding nothing of the application. */
  private static final class DaemonThreads implements ThreadFactory {
    private int made;

    @Override
    public synchronized Thread newThread(final Runnable task) {
      return AgentThreads.unstarted(task, "weir-metrics-" + ++made);
    }
  }

  /**
   * {@code GET} or {@code HEAD /metrics}: the exposition; another path 404, another method 405.
   * Called on a worker thread (config limits never charge a scrape: it is Weir's own).
   */
  @Override
  public byte[] answer(String method, String path) {
    if (!"/metrics".equals(path)) {
      return HttpFront.response("404 Not Found", "", new byte[0], false);
    }
    boolean head = "HEAD".equals(method);
    if (!head && !"GET".equals(method)) {
      return HttpFront.response(
          "405 Method Not Allowed", "Allow: GET, HEAD\r\n", new byte[0], false);
    }
    byte[] body = exposition(management.limiterBeans()).getBytes(StandardCharsets.UTF_8);
    return HttpFront.response("200 OK", CONTENT_TYPE, body, head);
  }

  /**
   * The exposition of these limiters: each {@link Family} in its order, a limiter's samples in each
   * in the order of their MBean names.
   *
   * @param beans the limiters and their MBean names
   * @return the text
   */
  static String exposition(Map<Limiter, ObjectName> beans) {
    List<BucketLimiter> limiters = new ArrayList<BucketLimiter>();
    List<String> labels = new ArrayList<String>();
    for (Map.Entry<Limiter, ObjectName> e : byName(beans)) {
      if (e.getKey() instanceof BucketLimiter) {
        limiters.add((BucketLimiter) e.getKey());
        String loader = e.getValue().getKeyProperty("loader");
        labels.add(
            "limiter=\""
                + escape(e.getKey().name())
                + "\""
                + (loader != null ? ",loader=\"" + escape(loader) + "\"" : ""));
      }
    }
    StringBuilder out = new StringBuilder(256 + limiters.size() * 1_024);
    for (Family f : Family.values()) {
      family(out, f.metric, f.type, f.help);
      for (int i = 0; i < limiters.size(); i++) {
        f.samples(out, labels.get(i), limiters.get(i));
      }
    }
    return out.toString();
  }

  /** The limiters sorted by their MBean names' canonical forms. */
  private static List<Map.Entry<Limiter, ObjectName>> byName(Map<Limiter, ObjectName> beans) {
    List<Map.Entry<Limiter, ObjectName>> sorted =
        new ArrayList<Map.Entry<Limiter, ObjectName>>(beans.entrySet());
    Collections.sort(
        sorted,
        new Comparator<Map.Entry<Limiter, ObjectName>>() {
          @Override
          public int compare(Map.Entry<Limiter, ObjectName> a, Map.Entry<Limiter, ObjectName> b) {
            return a.getValue().getCanonicalName().compareTo(b.getValue().getCanonicalName());
          }
        });
    return sorted;
  }

  /**
   * The metric families, in the exposition's order: each its name, type and help, and a limiter's
   * samples in it ({@link #samples}).
   */
  private enum Family {
    CALLS("weir_calls_total", "counter", "Calls to limited methods, by result."),
    WAITED("weir_waited_calls_total", "counter", "Calls admitted after waiting."),
    WAIT_SECONDS("weir_wait_seconds", "histogram", "How long admitted calls waited, in seconds."),
    BACKEND_FAILURES(
        "weir_backend_failures_total",
        "counter",
        "Calls the cluster backend did not serve: failed, timed out, or made while it was down."),
    AVAILABLE("weir_available_permits", "gauge", "Permits one call could take at once now."),
    WAITING("weir_waiting_calls", "gauge", "Calls waiting in Weir now."),
    RATE("weir_rate_permits_per_second", "gauge", "The rate, in permits per second."),
    CAPACITY("weir_capacity_permits", "gauge", "The capacity, in permits."),
    KEYS("weir_keys", "gauge", "Keys held now by a per-key limiter.");

    /** The metric's name. */
    final String metric;

    /** Its Prometheus type: counter, gauge or histogram. */
    final String type;

    /** Its {@code # HELP} text. */
    final String help;

    Family(String metric, String type, String help) {
      this.metric = metric;
      this.type = type;
      this.help = help;
    }

    /**
     * Appends a limiter's samples of this family, labelled so: two for {@link #CALLS} (granted,
     * rejected), the buckets, sum and count for {@link #WAIT_SECONDS}, one for each other family.
     */
    void samples(StringBuilder out, String labels, BucketLimiter l) {
      switch (this) {
        case CALLS:
          sample(out, metric, labels + ",result=\"granted\"", l.granted());
          sample(out, metric, labels + ",result=\"rejected\"", l.rejected());
          return;
        case WAIT_SECONDS:
          histogram(out, labels, l);
          return;
        default:
          sample(out, metric, labels, value(l));
      }
    }

    /** A limiter's one value in a family of one sample per limiter. */
    private double value(BucketLimiter l) {
      switch (this) {
        case WAITED:
          return l.waited();
        case BACKEND_FAILURES:
          return l.backendFailures();
        case AVAILABLE:
          return l.availablePermits();
        case WAITING:
          return l.waiting();
        case RATE:
          return l.bucket().permitsPerSecond();
        case CAPACITY:
          return l.bucket().capacity();
        case KEYS:
          return l.keys();
        default:
          throw new IllegalStateException(name() + " has samples of its own");
      }
    }
  }

  /**
   * A limiter's {@code weir_wait_seconds} histogram: a bucket per bound, {@code +Inf}, sum, count.
   */
  private static void histogram(StringBuilder out, String labels, BucketLimiter l) {
    long[] counts = l.waitCounts(BOUNDS);
    for (int b = 0; b < BOUNDS.length; b++) {
      sample(
          out, "weir_wait_seconds_bucket", labels + ",le=\"" + number(BOUNDS[b]) + "\"", counts[b]);
    }
    sample(out, "weir_wait_seconds_bucket", labels + ",le=\"+Inf\"", counts[BOUNDS.length]);
    sample(out, "weir_wait_seconds_sum", labels, l.totalWaitNanos() / 1e9);
    sample(out, "weir_wait_seconds_count", labels, counts[BOUNDS.length]);
  }

  private static void family(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String labels, double value) {
    out.append(name).append('{').append(labels).append("} ").append(number(value)).append('\n');
  }

  private static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  /** A label value in the text format: backslash, double quote and line feed escaped. */
  static String escape(String value) {
    StringBuilder s = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\') {
        s.append("\\\\");
      } else if (c == '"') {
        s.append("\\\"");
      } else if (c == '\n') {
        s.append("\\n");
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }
}
