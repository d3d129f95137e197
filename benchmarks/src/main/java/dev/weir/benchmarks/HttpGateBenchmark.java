package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.http.AddressBlock;
import dev.weir.agent.bootstrap.http.HttpGate;
import dev.weir.agent.bootstrap.http.HttpRule;
import dev.weir.agent.bootstrap.http.PathPattern;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the gate in front of servlets ({@link HttpGate#pass}) costs a request, on requests and
 * responses of the jakarta servlet API whose methods answer at once (so the figure is the gate's,
 * not a container's), with three entries installed:
 *
 * <ul>
 *   <li>{@code noEntries}: the config file has no http entry (the woven prologue's cost);
 *   <li>{@code unmatched}: a request to a path no entry names;
 *   <li>{@code admitted}: a request an entry keyed by client admits;
 *   <li>{@code rejected}: a request an entry limits, answered 429 with its headers and body;
 *   <li>{@code laterFilter}: what every filter and servlet after the request's entrance pays
 *       ({@link HttpGate#enter} on a request decided already).
 * </ul>
 *
 * A request through a servlet container costs tens of microseconds ({@code WebThroughput}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HttpGateBenchmark {
  private HttpServletRequest open;
  private HttpServletRequest api;
  private HttpServletRequest full;
  private HttpServletRequest entered;
  private HttpServletResponse response;

  /**
   * Registers the limiters, installs the entries (none for {@code noEntries}: each benchmark runs
   * in its own JVM) and builds the requests.
   *
   * @param params which benchmark runs
   */
  @Setup
  public void setUp(BenchmarkParams params) {
    setUp(!params.getBenchmark().endsWith("noEntries"));
  }

  void setUp(boolean entries) {
    BucketLimiter plenty = limiter("bench-api", 1e9, 1_000_000_000L);
    BucketLimiter none = limiter("bench-full", 1e-6, 1);
    none.acquire(); // empty from now on
    List<HttpRule> rules =
        List.of(
            rule("bench-api", plenty, "/api/**", "client"),
            rule("bench-total", limiter("bench-total", 1e9, 1_000_000_000L), "/api/**", null),
            rule("bench-full", none, "/full/**", null));
    HttpGate.install(entries ? rules : List.of(), List.<AddressBlock>of(), 429);
    open = request("/open", "/x");
    api = request("/api", "/orders");
    full = request("/full", "/x");
    entered =
        new HttpServletRequestWrapper(request("/api", "/orders")) {
          @Override
          public Object getAttribute(String name) {
            return HttpGate.COUNTED.equals(name) ? Boolean.TRUE : null; // decided at its entrance
          }
        };
    HttpServletResponse base = stub(HttpServletResponse.class);
    ServletOutputStream sink =
        new ServletOutputStream() {
          @Override
          public void write(int b) {}

          @Override
          public void write(byte[] b, int off, int len) {}

          @Override
          public boolean isReady() {
            return true;
          }

          @Override
          public void setWriteListener(WriteListener listener) {}
        };
    response =
        new HttpServletResponseWrapper(base) {
          @Override
          public boolean isCommitted() {
            return false;
          }

          @Override
          public ServletOutputStream getOutputStream() {
            return sink;
          }
        };
  }

  private static BucketLimiter limiter(String name, double rate, long capacity) {
    return new BucketLimiter(
        name,
        "bench",
        GcraBucket.create(
            Discipline.TOKEN_BUCKET,
            rate,
            TimeUnit.SECONDS,
            capacity,
            false,
            0,
            NanoClock.SYSTEM.nanoTime()),
        1,
        NanoClock.SYSTEM);
  }

  private static HttpRule rule(String name, BucketLimiter limiter, String path, String key) {
    int id = LimiterRegistry.register("name " + name, limiter);
    return new HttpRule(id, name, List.of(PathPattern.parse(path)), List.of(), key, false);
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Class<T> type) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> method.getReturnType() == boolean.class ? false : null);
  }

  private static HttpServletRequest request(String servletPath, String pathInfo) {
    return new HttpServletRequestWrapper(stub(HttpServletRequest.class)) {
      @Override
      public DispatcherType getDispatcherType() {
        return DispatcherType.REQUEST;
      }

      @Override
      public String getServletPath() {
        return servletPath;
      }

      @Override
      public String getPathInfo() {
        return pathInfo;
      }

      @Override
      public String getMethod() {
        return "GET";
      }

      @Override
      public Object getAttribute(String name) {
        return null; // every call is a new request
      }

      @Override
      public void setAttribute(String name, Object o) {}

      @Override
      public String getRemoteAddr() {
        return "127.0.0.1";
      }
    };
  }

  @Benchmark
  public boolean noEntries() {
    return HttpGate.pass(open, response);
  }

  @Benchmark
  public boolean unmatched() {
    return HttpGate.pass(open, response);
  }

  @Benchmark
  public boolean admitted() {
    return HttpGate.pass(api, response);
  }

  @Benchmark
  public boolean rejected() {
    return HttpGate.pass(full, response);
  }

  @Benchmark
  public boolean laterFilter() {
    return HttpGate.enter(entered, response);
  }
}
