package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jdi.Method;
import dev.weir.it.PathRecorder.Found;
import dev.weir.it.PathRecorder.Recording;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK-internal refusal list ({@code Unlimitable.JDK_METHODS}) is derived from the code (SPEC
 * "The config file", Patterns): this test runs Weir's paths under a debugger ({@link PathRecorder},
 * which says what each path's window is and how a section of Weir's own closes it) and fails when a
 * JDK method they enter before Weir can tell the call is its own is missing from the list, printing
 * each missing one as a line to paste into it; every method recorded, with the Weir code that led
 * to it, is written to {@code target/own-jdk-calls/JDK.txt}.
 *
 * <p>The fixture ({@code fixtures.OwnJdkCalls}) runs each acquire path a few times, its first call
 * included (class loading and initialization on the path count): annotated token and leaky buckets
 * admitting, limiting, falling back, waiting, waiting too long, and a waiter interrupted on a
 * thread of its own; per-key limits by a {@code String}, an {@code int}, an {@code Object[]}, an
 * {@code int[]} and an interface (whose identity-looking keys Weir warns about, from its sweeper's
 * thread); config patterns (nested calls of one limit, a key, a dry run); an invalid annotation
 * that fails closed. Its classes load after the agent (the weaving path), and the invalid
 * annotation's error and the weaver's debug checks run the logging path on the main thread. The
 * http gate runs on the servlet API's own {@code HttpServlet} and {@code HttpFilter} (Tomcat's
 * jar), woven, and at call sites through {@code Servlet.service} and {@code Filter.doFilter}, with
 * a request and a response that are proxies, not a container: what a container's request does is
 * the application's, not recorded. Cluster scope is not run: its exchanges with the backend run
 * inside a section.
 */
class OwnJdkCallsIT {
  private static final String FIXTURE = "dev.weir.it.fixtures.OwnJdkCalls";
  private static final String LIMITED = FIXTURE + "$Limited";
  private static final String SERVLET_SERVICE =
      "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V";
  private static final String FILTER_DO_FILTER =
      "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;"
          + "Ljakarta/servlet/FilterChain;)V";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyJdkMethodWeirsOwnPathsRunIsRefused(String jdk) throws Exception {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: legacy",
            "    methods: [\"" + LIMITED + "#legacyOuter\", \"" + LIMITED + "#legacyInner\"]",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "  - name: legacy-by-key",
            "    methods: \"" + LIMITED + "#legacyByKey\"",
            "    key: 0",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
            "  - name: trial",
            "    methods: \"" + LIMITED + "#tried\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
            "    dryRun: true",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: filtered",
            "    http: { paths: \"/filtered/**\" }",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: api-by-client",
            "    http: { paths: \"/keyed/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }");
    Recording r =
        new PathRecorder(
                OwnJdkCallsIT::woven,
                List.of(
                    LIMITED + "*",
                    "jakarta.servlet.http.HttpServlet",
                    "jakarta.servlet.http.HttpFilter"),
                Set.of(dev.weir.it.fixtures.OwnJdkCalls.WAITER))
            .run(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
                WebLimitsIT.classPath("tomcat11"),
                FIXTURE,
                120,
                "web");
    System.out.println(
        "[OwnJdkCallsIT] "
            + jdk
            + ": "
            + r.events
            + " events in "
            + r.elapsedMillis
            + " ms, "
            + r.unmatchedExits
            + " exits unmatched, windows "
            + r.windows);
    assertEquals(0, r.exitCode, r::toString);
    Map<String, String> outcomes = new ForkedJvm.Result(List.of(), 0, r.out, r.err).values;
    assertEquals("aal", outcomes.get("rejects"), r::toString);
    assertEquals("aff", outcomes.get("fallsBack"), r::toString);
    assertEquals("aaa", outcomes.get("waits"), r::toString);
    assertEquals("all", outcomes.get("waitsTooLong"), r::toString);
    assertTrue(outcomes.get("shapes").matches("aa+l*"), "departures 50 ms apart\n" + r);
    assertEquals("aal", outcomes.get("polices"), r::toString);
    for (String keyed : new String[] {"byString", "byInt", "byObjects", "byInts", "legacyByKey"}) {
      assertEquals("all", outcomes.get(keyed), keyed + "\n" + r);
    }
    assertEquals("aaa", outcomes.get("byRequest"), "every identity its own key\n" + r);
    assertEquals("aal", outcomes.get("legacyOuter"), "nested calls are charged once\n" + r);
    assertEquals("aaa", outcomes.get("tried"), "a dry run limits nothing\n" + r);
    assertEquals("cc", outcomes.get("invalid"), r::toString);
    assertEquals("a", outcomes.get("waitsUntilInterrupted"), r::toString);
    assertEquals("limited cause=InterruptedException", outcomes.get("interrupted"), r::toString);
    assertEquals("aal", outcomes.get("webDirect"), "one limit of 3 for both\n" + r);
    assertEquals("all", outcomes.get("webCallSite"), r::toString);
    assertEquals("all", outcomes.get("webKeyed"), r::toString);
    assertEquals("aal", outcomes.get("webFilter"), "one limit of 3 for both\n" + r);
    assertEquals("all", outcomes.get("webFilterCallSite"), r::toString);
    assertTrue(
        r.err.contains(
            "[weir] ERROR invalid @TokenBucket on " + FIXTURE + "$LimitedInvalid#invalid()"),
        "the invalid limit was logged as its class loaded\n" + r);
    for (String path : new String[] {PathRecorder.ACQUIRE, PathRecorder.WEAVE, PathRecorder.LOG}) {
      assertTrue(r.windows.getOrDefault(path, 0) > 0, "no " + path + " path ran\n" + r);
    }

    List<String> listed = listed();
    List<String> missing = new ArrayList<>();
    StringBuilder report = new StringBuilder();
    for (Map.Entry<String, Found> m : r.methods.entrySet()) {
      Found found = m.getValue();
      String line = "{\"" + m.getKey() + "\", \"" + found.path() + "\"},";
      report.append(line).append('\n');
      found.callers.forEach(
          (caller, openings) ->
              report
                  .append("    by ")
                  .append(caller)
                  .append(found.everyCall.contains(caller) ? " (every call)" : " (first call)")
                  .append("\n      in ")
                  .append(String.join("\n      in ", openings))
                  .append('\n'));
      if (!listed.contains(m.getKey())) {
        missing.add(line);
      }
    }
    report.append("\nwindows by opening:\n");
    r.openings.forEach((k, v) -> report.append(v).append(' ').append(k).append('\n'));
    Path written =
        Path.of("target", "own-jdk-calls", Path.of(jdk).getFileName() + ".txt").toAbsolutePath();
    Files.createDirectories(written.getParent());
    Files.write(written, report.toString().getBytes(StandardCharsets.UTF_8));
    if (!missing.isEmpty()) {
      fail(
          "Weir's own paths run JDK methods that Unlimitable.JDK_METHODS does not list (on "
              + jdk
              + "; what each is on and who calls it: "
              + written
              + "); add:\n"
              + String.join("\n", missing));
    }
  }

  /**
   * {@code Unlimitable.jdkMethods()} as the built agent jar carries it: the agent tier's classes
   * are kept apart in the jar (under {@code inst/}), where no class path reaches them, so the class
   * is defined here from its bytes (it needs only {@code java.util}).
   */
  @SuppressWarnings("unchecked")
  private static List<String> listed() throws Exception {
    byte[] bytes;
    try (JarFile jar = new JarFile(ForkedJvm.AGENT_JAR)) {
      JarEntry entry = jar.getJarEntry("inst/dev/weir/agent/weave/Unlimitable.classdata");
      try (InputStream in = jar.getInputStream(entry)) {
        bytes = in.readAllBytes();
      }
    }
    java.lang.reflect.Method jdkMethods =
        new OneClass(bytes)
            .loadClass("dev.weir.agent.weave.Unlimitable")
            .getDeclaredMethod("jdkMethods");
    jdkMethods.setAccessible(true);
    return (List<String>) jdkMethods.invoke(null);
  }

  /** A loader of one class from its bytes, over the JDK's. */
  private static final class OneClass extends ClassLoader {
    private final byte[] bytes;

    OneClass(byte[] bytes) {
      super(null);
      this.bytes = bytes;
    }

    @Override
    protected Class<?> findClass(String name) {
      return defineClass(name, bytes, 0, bytes.length);
    }
  }

  /**
   * The fixture's limited methods, and the servlet API's methods that the http gate is woven into.
   */
  private static boolean woven(Method method) {
    String owner = method.declaringType().name();
    return owner.startsWith(LIMITED)
        || owner.equals("jakarta.servlet.http.HttpServlet")
            && method.name().equals("service")
            && method.signature().equals(SERVLET_SERVICE)
        || owner.equals("jakarta.servlet.http.HttpFilter")
            && method.name().equals("doFilter")
            && method.signature().equals(FILTER_DO_FILTER);
  }
}
