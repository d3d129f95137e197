package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

/**
 * The patterns users write for HTTP clients, on the real clients calling a local server ({@code
 * com.sun.net.httpserver} on 127.0.0.1, counting what arrives), in one forked JVM per JDK ({@code
 * fixtures.HttpCalls}), one test per client's phase: each client sends at the limit, every request
 * charged exactly once.
 *
 * <p>Each client has its own limit: a token bucket of 20/s, capacity 2, {@code onLimit: WAIT} (the
 * wait bounded at 10 s, so {@code sendAsync}'s calls issued at once all wait their turn). Each
 * phase makes 40 calls: the server must see all 40, and never more than capacity + rate in any
 * second, plus half a second's worth for the jitter between a call's admission and its arrival on a
 * loaded machine (22 + 10 of 40: unlimited, all 40 arrive within a second); on the client's side
 * {@code Granted} rises by exactly 40 and the phase takes at least {@code (40 - 2) / 20} s
 * (admitted ≤ capacity + rate × elapsed, exact but for 10 ms of clock rounding), and it runs at a
 * quarter of the limit at least (loose: the machine may be loaded).
 */
class HttpClientsIT {
  private static final int CALLS = 40;
  private static final int RATE = 20;
  private static final int CAPACITY = 2;
  private static final double JITTER_SECONDS = 0.5;
  private static final long CLOCK_SLACK_NANOS = 10_000_000L;

  /**
   * Apache HttpClient 5 with HttpCore and SLF4J (its no-op provider too); OkHttp 5 with Okio and
   * the Kotlin standard library.
   */
  private static final String CLASS_PATH =
      TestJars.matching(
          "/org/apache/httpcomponents/",
          "/org/slf4j/",
          "/com/squareup/okhttp3/",
          "/com/squareup/okio/",
          "/org/jetbrains/kotlin/kotlin-stdlib/");

  /** Each limiter and the pattern a user would write for that client. */
  private static final Map<String, String> PATTERNS = new LinkedHashMap<>();

  /** Each phase of the fixture and the limiter that must limit it, in the order they run. */
  private static final Map<String, String> PHASES = new LinkedHashMap<>();

  static {
    // the JDK's client: HttpClient is an abstract class whose send and sendAsync the JDK's own
    // jdk.internal.net.http.HttpClientFacade and HttpClientImpl implement
    PATTERNS.put("jdk-http", "java.net.http.HttpClient+#send*");
    // HttpURLConnection: getResponseCode, declared by java.net.HttpURLConnection itself, for the
    // usual idiom (the status, then the body): the getInputStream it calls, and the JDK's
    // implementation calls back, pass free inside it. (A caller that reads getInputStream alone
    // would pay twice a request: sun.net.www.protocol.http.HttpURLConnection#getInputStream0
    // calls getResponseCode twice, one after the other; such a caller limits getInputStream.)
    PATTERNS.put("url-connection", "java.net.HttpURLConnection+#getResponseCode");
    // Apache HttpClient 5, classic API: every execute overload of the interface
    PATTERNS.put("apache", "org.apache.hc.client5.http.classic.HttpClient+#execute");
    // OkHttp: the synchronous call
    PATTERNS.put("okhttp", "okhttp3.Call+#execute");
    PHASES.put("jdk.send", "jdk-http");
    PHASES.put("jdk.sendAsync", "jdk-http");
    PHASES.put("huc.code", "url-connection");
    PHASES.put("apache", "apache");
    PHASES.put("okhttp", "okhttp");
  }

  @TestFactory
  Stream<DynamicContainer> everyClientSendsAtTheLimitEachRequestChargedOnce() {
    Map<String, ForkedPhases.Check> checks = new LinkedHashMap<>();
    PHASES.forEach((phase, limiter) -> checks.put(phase, HttpClientsIT::atTheLimit));
    return ForkedPhases.perJdk(HttpClientsIT::run, checks, HttpClientsIT::name);
  }

  /** Each phase's limiter's {@code Methods} (read from its MBean) names the client's code. */
  static final Map<String, String> COVERED =
      Map.of(
          "jdk.send",
          "jdk.internal.net.http.HttpClientFacade#send(java.net.http.HttpRequest,"
              + "java.net.http.HttpResponse$BodyHandler)",
          "jdk.sendAsync",
          "jdk.internal.net.http.HttpClientImpl#sendAsync(java.net.http.HttpRequest,"
              + "java.net.http.HttpResponse$BodyHandler)",
          "huc.code",
          "java.net.HttpURLConnection#getResponseCode()",
          "apache",
          "org.apache.hc.client5.http.impl.classic.CloseableHttpClient#execute("
              + "org.apache.hc.core5.http.ClassicHttpRequest,"
              + "org.apache.hc.core5.http.io.HttpClientResponseHandler)",
          "okhttp",
          "okhttp3.internal.connection.RealCall#execute()");

  private static Result run(String jdk) {
    List<String> config = new ArrayList<>(List.of("limits:"));
    PATTERNS.forEach(
        (limiter, pattern) -> {
          config.add("  - name: " + limiter);
          config.add("    methods: \"" + pattern + "\"");
          config.add("    tokenBucket: { rate: " + RATE + ", capacity: " + CAPACITY + " }");
          config.add("    onLimit: WAIT");
          config.add("    maxWaitMillis: 10000");
        });
    Path file;
    try {
      file = ForkedJvm.configFile(config.toArray(new String[0]));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> args = new ArrayList<>(List.of(String.valueOf(CALLS)));
    PHASES.forEach((phase, limiter) -> args.add(phase + "=" + limiter));
    return ForkedJvm.runWithClassPath(
        jdk,
        List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + file),
        CLASS_PATH,
        "dev.weir.it.fixtures.HttpCalls",
        args.toArray(new String[0]));
  }

  /** The phase, the class behind the client's interface, and the phase's limiter. */
  private static String name(Result r, String phase) {
    return phase
        + " ("
        + r.values.getOrDefault(phase + ".client", "?")
        + ", "
        + PHASES.get(phase)
        + ")";
  }

  private static void atTheLimit(Result r, String phase) {
    assertEquals("", r.values.getOrDefault(phase + ".error", ""), "the phase failed");
    assertEquals(0, r.longValue(phase + ".limited"), "no call refused");
    assertEquals(CALLS, r.longValue(phase + ".ok"), "every call answered");
    List<String> methods = List.of(r.value(phase + ".methods").split(" \\| "));
    assertTrue(
        methods.contains(COVERED.get(phase)),
        "Methods lacks " + COVERED.get(phase) + ": " + methods);
    long nanos = r.longValue(phase + ".nanos");
    long granted = r.longValue(phase + ".granted");
    long arrived = r.longValue(phase + ".arrived");
    long peak = r.longValue(phase + ".peakPerSecond");
    double perSecond = CALLS * 1e9 / nanos;
    String pace =
        String.format(
            "%s: %d calls in %.3f s (%.0f/s against a limit of %d/s), at most %d arrived in"
                + " one second, Granted +%d",
            name(r, phase), CALLS, nanos / 1e9, perSecond, RATE, peak, granted);
    assertEquals(CALLS, arrived, pace + ": each call sent once");
    assertEquals(CALLS, granted, pace + ": every call charged exactly once");
    long floorNanos = (long) ((CALLS - CAPACITY) * 1e9 / RATE) - CLOCK_SLACK_NANOS;
    assertTrue(nanos >= floorNanos, pace + ": faster than capacity + rate x elapsed allows");
    assertTrue(
        peak <= CAPACITY + RATE * (1 + JITTER_SECONDS),
        pace + ": more arrived in one second than the limit admits");
    assertTrue(perSecond >= RATE / 4.0, pace + ": far below the limit");
  }
}
