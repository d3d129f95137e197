package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One forked JVM per validation rule of the config file, on each JDK: the exact message, and exit
 * status 1 before {@code main}.
 */
class ConfigValidationIT {
  /** Each case: the entry lines after "limits:\n - name: x", and the message after "FILE:". */
  private static final String[][] CASES = {
    {
      "    tokenBucket: { rate: -3 }",
      "3: limits[0].tokenBucket.rate must be > 0 and finite, was -3"
    },
    {"    tokenBucket: { rate: fast }", "3: limits[0].tokenBucket.rate must be a number, was fast"},
    {"    tokenBucket: { capacity: 3 }", "3: limits[0].tokenBucket.rate is required"},
    {
      "    tokenBucket: { rate: 1, per: WEEKS }",
      "3: limits[0].tokenBucket.per must be one of NANOSECONDS, MICROSECONDS, MILLISECONDS,"
          + " SECONDS, MINUTES, HOURS, DAYS, was WEEKS"
    },
    {
      "    tokenBucket: { rate: 1, capacity: -1 }",
      "3: limits[0].tokenBucket.capacity must be >= 0 (0 means one 'per' worth of the rate),"
          + " was -1"
    },
    {
      "    tokenBucket: { rate: 10, capacity: 5, permits: 6 }",
      "3: limits[0].tokenBucket.permits must be between 1 and the capacity (5), was 6"
    },
    {
      "    tokenBucket: { rate: 1, mode: SHAPING }",
      "3: limits[0].tokenBucket.mode is not a known key (known: rate, per, capacity, permits, warmUpMillis)"
    },
    {
      "    leakyBucket: { rate: 1, mode: SIDEWAYS }",
      "3: limits[0].leakyBucket.mode must be one of SHAPING, POLICING, was SIDEWAYS"
    },
    {"    methods: a.B#c", "2: limits[0] must have exactly one of tokenBucket and leakyBucket"},
    {
      "    methods: a.B\n    tokenBucket: { rate: 1 }",
      "3: limits[0].methods must be a method pattern like com.example.Type#method, was 'a.B'"
    },
    {
      "    tokenBucket: { rate: 1 }\n    onLimit: LATER",
      "4: limits[0].onLimit must be one of REJECT, WAIT, was LATER"
    },
    {
      "    tokenBucket: { rate: 1 }\n    maxWaitMillis: -5",
      "4: limits[0].maxWaitMillis must be >= 0, was -5"
    },
    {
      "    tokenBucket: { rate: 1 }\n    key: 0",
      "4: limits[0].key needs methods: an entry without methods overrides an annotated limiter,"
          + " which keeps its own @LimitKey, was 0"
    },
    {
      "    methods: a.B#c\n    tokenBucket: { rate: 1 }\n    key: -1",
      "5: limits[0].key must be >= 0, was -1"
    },
    {
      "    methods: a.B#c\n    tokenBucket: { rate: 1 }\n    key: 300",
      "5: limits[0].key must be a parameter index, 0..254, was 300"
    },
    {
      "    tokenBucket: { rate: 1 }\n    scope: cluster",
      "4: limits[0].scope cluster needs a top-level backend (backend: redis://HOST:PORT), and the"
          + " file has none"
    },
    {
      "    tokenBucket: { rate: 1 }\n    dryRun: maybe",
      "4: limits[0].dryRun must be one of true, false, was maybe"
    },
    {
      "    tokenBucket: { rate: 1 }\n    colour: red",
      "4: limits[0].colour is not a known key (known: name, methods, http, tokenBucket, leakyBucket,"
          + " onLimit, maxWaitMillis, key, scope, onBackendFailure, dryRun)"
    },
    {
      "    methods: []\n    tokenBucket: { rate: 1 }",
      "3: limits[0].methods must name at least one method pattern, was an empty list"
    },
    // YAML 1.2 core schema: a quoted number is a string, 1_000 is no number at all
    {
      "    tokenBucket: { rate: \"1\" }",
      "3: limits[0].tokenBucket.rate must be a number, was \"1\" (quoted, so a string)"
    },
    {
      "    tokenBucket: { rate: 1, capacity: \"2\" }",
      "3: limits[0].tokenBucket.capacity must be a whole number >= 0, was \"2\" (quoted, so a"
          + " string)"
    },
    {
      "    methods: a.B#c\n    tokenBucket: { rate: 1 }\n    key: \"0\"",
      "5: limits[0].key must be a whole number >= 0, was \"0\" (quoted, so a string)"
    },
    {
      "    tokenBucket: { rate: 1_000 }",
      "3: limits[0].tokenBucket.rate must be a number, was 1_000"
    },
    {
      "    tokenBucket: { rate: 1, capacity: 1_000 }",
      "3: limits[0].tokenBucket.capacity must be a whole number >= 0, was 1_000"
    },
    {
      "    tokenBucket: { rate: 1 }\n    dryRun: \"true\"",
      "4: limits[0].dryRun must be one of true, false, was \"true\" (quoted, so a string)"
    },
    {
      "    tokenBucket: { rate: 1 }\n    onBackendFailure: allow",
      "4: limits[0].onBackendFailure is for scope: cluster limits (a local limit has no backend"
          + " to fail), was allow"
    },
    // http entries
    {
      "    http: { paths: \"api/**\" }\n    tokenBucket: { rate: 1 }",
      "3: limits[0].http.paths must be a path starting with /, was 'api/**'"
    },
    {
      "    http: { paths: \"/api/**x\" }\n    tokenBucket: { rate: 1 }",
      "3: limits[0].http.paths must have ** as a whole segment, as in /api/**, was '/api/**x'"
    },
    {
      "    http: { paths: /a, methods: [GET, FETCH] }\n    tokenBucket: { rate: 1 }",
      "3: limits[0].http.methods[1] must be an HTTP method (GET, HEAD, POST, PUT, DELETE, PATCH,"
          + " OPTIONS, TRACE, CONNECT), was FETCH"
    },
    {
      "    http: { paths: /a }\n    tokenBucket: { rate: 1 }\n    key: ip",
      "5: limits[0].key of an http entry must be client, user, header:NAME, param:NAME or"
          + " cookie:NAME, was 'ip'"
    },
    {
      "    http: { paths: /a }\n    tokenBucket: { rate: 1 }\n    key: 0",
      "5: limits[0].key of an http entry must be client, user, header:NAME, param:NAME or"
          + " cookie:NAME, was 0 (a parameter index is for methods entries)"
    },
    {
      "    methods: a.B#c\n    tokenBucket: { rate: 1 }\n    key: client",
      "5: limits[0].key of a methods entry must be a parameter index, 0..254, was 'client'"
          + " (client, user, header:, param: and cookie: keys are for http entries)"
    },
    {
      "    http: { paths: /a }\n    methods: a.B#c\n    tokenBucket: { rate: 1 }",
      "3: limits[0] must have at most one of methods and http"
    },
    {
      "    tokenBucket: [1, 2]",
      "3: limits[0].tokenBucket must be a map of keys (rate, per,"
          + " capacity, permits, warmUpMillis), was a list"
    },
  };

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    ForkedJvm.jdks()
        .forEach(
            jdk -> {
              for (String[] c : CASES) {
                all.add(Arguments.of(jdk, c[0], c[1]));
              }
            });
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void eachRuleHasItsMessageAndStopsTheJvm(String jdk, String entry, String message)
      throws IOException {
    Path file = Files.createTempFile("weir", ".yaml");
    Files.write(file, ("limits:\n  - name: x\n" + entry + "\n").getBytes(StandardCharsets.UTF_8));
    try {
      Result r = ForkedJvm.withAgent(jdk, "config=" + file, "dev.weir.it.fixtures.Legacy");
      r.assertExit(1);
      assertFalse(r.out.contains("load="), "main must not run");
      assertTrue(r.err.contains("[weir] ERROR " + file + ":" + message + "\n"), r.err);
      assertTrue(r.err.contains(": 1 error(s); stopping the JVM before main (exit code 1)"), r.err);
    } finally {
      Files.delete(file);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void badHttpSettingsStopTheJvm(String jdk) throws IOException {
    Path file =
        ForkedJvm.configFile(
            "http:",
            "  trustedProxies: [10.0.0.0/8, 10.1.0.0/33, proxy.internal]",
            "  status: 302",
            "limits:",
            "  - name: api",
            "    http: { paths: /api/** }",
            "    tokenBucket: { rate: 1 }");
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, "dev.weir.it.fixtures.Legacy");
    r.assertExit(1);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":2: http.trustedProxies[1] must have a prefix length from 0 to 32 after the /,"
                + " was '10.1.0.0/33'\n"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":2: http.trustedProxies[2] must be an IP address or a CIDR block (10.0.0.0/8,"
                + " fd00::/8), not a host name, was 'proxy.internal'\n"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] ERROR " + file + ":3: http.status must be from 400 to 599, was 302\n"),
        r.err);
    assertTrue(r.err.contains(": 3 error(s); stopping the JVM before main (exit code 1)"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anEmptyConfigFileStopsTheJvmAndAnEmptyListOfLimitsStartsWithAWarning(String jdk)
      throws IOException {
    Path file = ForkedJvm.configFile("# limits come later", "");
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, "dev.weir.it.fixtures.Legacy");
    r.assertExit(1);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ": the config file is empty (nothing but blanks and comments): write `limits: []`"
                + " to remove every limit\n"),
        r.err);
    assertTrue(r.err.contains(": 1 error(s); stopping the JVM before main (exit code 1)"), r.err);

    Path none = ForkedJvm.configFile("limits: []");
    Result started =
        ForkedJvm.withAgent(jdk, "config=" + none, "dev.weir.it.fixtures.Legacy").assertExit(0);
    assertTrue(
        started.err.contains(
            "[weir] WARN "
                + none
                + ": the config file's list of limits is empty: it limits nothing"),
        started.err);
    assertTrue(started.err.contains("started: 0 limits from " + none), started.err);
  }
}
