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
   * The exposition of these limiters.
   *
   * @param beans the limiters and their MBean names
   * @return the text
   */
  static String exposition(Map<Limiter, ObjectName> beans) {
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
    List<BucketLimiter> limiters = new ArrayList<BucketLimiter>();
    List<String> labels = new ArrayList<String>();
    for (Map.Entry<Limiter, ObjectName> e : sorted) {
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
    family(out, "weir_calls_total", "counter", "Calls to limited methods, by result.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(
          out,
          "weir_calls_total",
          labels.get(i) + ",result=\"granted\"",
          limiters.get(i).granted());
      sample(
          out,
          "weir_calls_total",
          labels.get(i) + ",result=\"rejected\"",
          limiters.get(i).rejected());
    }
    family(out, "weir_waited_calls_total", "counter", "Calls admitted after waiting.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_waited_calls_total", labels.get(i), limiters.get(i).waited());
    }
    family(out, "weir_wait_seconds", "histogram", "How long admitted calls waited, in seconds.");
    for (int i = 0; i < limiters.size(); i++) {
      BucketLimiter l = limiters.get(i);
      long[] counts = l.waitCounts(BOUNDS);
      for (int b = 0; b < BOUNDS.length; b++) {
        sample(
            out,
            "weir_wait_seconds_bucket",
            labels.get(i) + ",le=\"" + number(BOUNDS[b]) + "\"",
            counts[b]);
      }
      sample(
          out, "weir_wait_seconds_bucket", labels.get(i) + ",le=\"+Inf\"", counts[BOUNDS.length]);
      sample(out, "weir_wait_seconds_sum", labels.get(i), l.totalWaitNanos() / 1e9);
      sample(out, "weir_wait_seconds_count", labels.get(i), counts[BOUNDS.length]);
    }
    family(
        out,
        "weir_backend_failures_total",
        "counter",
        "Calls the cluster backend did not serve: failed, timed out, or made while it was down.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_backend_failures_total", labels.get(i), limiters.get(i).backendFailures());
    }
    family(out, "weir_available_permits", "gauge", "Permits one call could take at once now.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_available_permits", labels.get(i), limiters.get(i).availablePermits());
    }
    family(out, "weir_waiting_calls", "gauge", "Calls waiting in Weir now.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_waiting_calls", labels.get(i), limiters.get(i).waiting());
    }
    family(out, "weir_rate_permits_per_second", "gauge", "The rate, in permits per second.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(
          out,
          "weir_rate_permits_per_second",
          labels.get(i),
          limiters.get(i).bucket().permitsPerSecond());
    }
    family(out, "weir_capacity_permits", "gauge", "The capacity, in permits.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_capacity_permits", labels.get(i), limiters.get(i).bucket().capacity());
    }
    family(out, "weir_keys", "gauge", "Keys held now by a per-key limiter.");
    for (int i = 0; i < limiters.size(); i++) {
      sample(out, "weir_keys", labels.get(i), limiters.get(i).keys());
    }
    return out.toString();
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
