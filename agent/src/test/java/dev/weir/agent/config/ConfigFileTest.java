package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.Discipline;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The config file: every key of the SPEC, and one exact message per rule. */
class ConfigFileTest {
  private static final String SPEC_EXAMPLE =
      String.join(
          "\n",
          "backend: redis://127.0.0.1:6379",
          "limits:",
          "  - name: db-writes",
          "    methods: \"org.h2.jdbc.JdbcPreparedStatement#executeUpdate\"",
          "    leakyBucket: { rate: 500, per: SECONDS, capacity: 100, mode: SHAPING }",
          "    onLimit: WAIT",
          "    maxWaitMillis: 2000",
          "  - name: sinks",
          "    methods: [\"com.example.Sink+#write*\", \"com.example.Other#put(int,java.lang.String)\"]",
          "    tokenBucket: { rate: 5, capacity: 5 }",
          "    onLimit: REJECT",
          "    dryRun: true",
          "  - name: orders",
          "    tokenBucket: { rate: 20, capacity: 40, per: minutes }",
          "    scope: local",
          "");

  @Test
  void readsEveryKey() {
    ConfigFile config = ConfigFile.parse("weir.yaml", SPEC_EXAMPLE);
    assertEquals(List.of(), config.errors());
    List<ConfigLimit> limits = config.limits();
    assertEquals(3, limits.size());

    ConfigLimit writes = limits.get(0);
    assertEquals("db-writes", writes.name());
    assertEquals("weir.yaml:3", writes.origin());
    assertEquals(Discipline.SHAPING, writes.spec().discipline());
    assertEquals(500, writes.spec().rate());
    assertEquals(100, writes.spec().capacity());
    assertTrue(writes.spec().waitOnLimit());
    assertEquals(2000, writes.spec().maxWaitMillis());
    assertEquals(1, writes.patterns().size());
    assertFalse(writes.dryRun());

    ConfigLimit sinks = limits.get(1);
    assertEquals(Discipline.TOKEN_BUCKET, sinks.spec().discipline());
    assertEquals(2, sinks.patterns().size());
    assertTrue(sinks.patterns().get(0).subtypes());
    assertTrue(sinks.dryRun());
    assertEquals(1000, sinks.spec().maxWaitMillis(), "the annotation default");

    ConfigLimit orders = limits.get(2);
    assertTrue(orders.patterns().isEmpty(), "no methods: an override");
    assertEquals(TimeUnit.MINUTES, orders.spec().per());
    assertEquals(40, orders.spec().capacity());
  }

  @Test
  void everyErrorOfTheFileIsReportedWithFileLineKeyRuleAndValue() {
    String text =
        String.join(
            "\n",
            "limits:",
            "  - name: a",
            "    methods: com.example.Sink",
            "    tokenBucket: { rate: -3 }",
            "  - name: b",
            "    tokenBucket: { rate: 10, capacity: 5, permits: 6, colour: red }",
            "    onLimit: LATER",
            "    maxWaitMillis: soon",
            "    key: 0",
            "    scope: cluster",
            "  - methods: \"x.Y#z\"",
            "    leakyBucket: { rate: fast, mode: SIDEWAYS, per: WEEKS }",
            "    tokenBucket: { rate: 1 }",
            "  - name: a",
            "    leakyBucket: { rate: 1 }",
            "    dryRun: maybe",
            "nonsense: 1",
            "");
    assertEquals(
        List.of(
            "weir.yaml:3: limits[0].methods must be a method pattern like com.example.Type#method,"
                + " was 'com.example.Sink'",
            "weir.yaml:4: limits[0].tokenBucket.rate must be > 0 and finite, was -3",
            "weir.yaml:6: limits[1].tokenBucket.colour is not a known key (known: rate, per,"
                + " capacity, permits, warmUpMillis)",
            "weir.yaml:6: limits[1].tokenBucket.permits must be between 1 and the capacity (5),"
                + " was 6",
            "weir.yaml:7: limits[1].onLimit must be one of REJECT, WAIT, was LATER",
            "weir.yaml:8: limits[1].maxWaitMillis must be a whole number >= 0, was soon",
            "weir.yaml:9: limits[1].key needs methods: an entry without methods overrides an"
                + " annotated limiter, which keeps its own @LimitKey, was 0",
            "weir.yaml:10: limits[1].scope cluster needs a top-level backend (backend:"
                + " redis://HOST:PORT), and the file has none",
            "weir.yaml:11: limits[2].name is required",
            "weir.yaml:11: limits[2] must have exactly one of tokenBucket and leakyBucket",
            "weir.yaml:14: limits[3].name 'a' is already used by limits[0]",
            "weir.yaml:16: limits[3].dryRun must be one of true, false, was maybe",
            "weir.yaml:17: nonsense is not a known key (known: backend, backendTimeoutMillis,"
                + " backendKeyPrefix, backendTls, backendAllowEviction, http, limits)"),
        ConfigFile.parse("weir.yaml", text).errors());
  }

  @Test
  void brokenYamlIsOneErrorWithItsLine() {
    List<String> errors = ConfigFile.parse("w.yaml", "limits:\n  - name: [a\n").errors();
    assertEquals(1, errors.size());
    assertTrue(errors.get(0).startsWith("w.yaml:3: not valid YAML: "), errors.get(0));
  }

  @Test
  void aMissingFileIsAnError() {
    List<String> errors = ConfigFile.read("/no/such/weir.yaml").errors();
    assertEquals(1, errors.size());
    assertTrue(
        errors.get(0).startsWith("/no/such/weir.yaml: cannot read the config file ("),
        errors.get(0));
  }

  @Test
  void anEmptyFileIsAnErrorAndAnEmptyListOfLimitsIsNone() {
    for (String empty : new String[] {"", "\n  \n\r\n", "# nothing yet\n", "\ufeff# a BOM\n"}) {
      ConfigFile config = ConfigFile.parse("e.yaml", empty);
      assertEquals(
          List.of(
              "e.yaml: the config file is empty (nothing but blanks and comments): write"
                  + " `limits: []` to remove every limit"),
          config.errors(),
          empty);
      assertEquals(List.of(), config.limits());
    }
    for (String empty : new String[] {"---\n", "--- # nothing\n...\n", "~\n", "null\n"}) {
      assertEquals(
          List.of(
              "e.yaml: the config file's one document is empty: write `limits: []` to remove"
                  + " every limit"),
          ConfigFile.parse("e.yaml", empty).errors(),
          empty);
    }
    ConfigFile none = ConfigFile.parse("e.yaml", "limits: []\n");
    assertEquals(List.of(), none.errors());
    assertEquals(List.of(), none.limits());
    assertEquals(
        List.of("e.yaml: the config file's list of limits is empty: it limits nothing"),
        none.warnings());
    assertEquals(
        List.of("e.yaml: the config file has no limits: it limits nothing"),
        ConfigFile.parse("e.yaml", "limits:\n").warnings());
    assertEquals(List.of(), ConfigFile.parse("weir.yaml", SPEC_EXAMPLE).warnings());
  }

  @Test
  void explicitCoreTagsAreTheirTypes() {
    ConfigFile config =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "limits:",
                "  - name: !!str abc",
                "    methods: !!str \"x.Y#z\"",
                "    tokenBucket: { rate: !!float 5, capacity: !!int 7 }",
                "    onLimit: !!str WAIT",
                "    dryRun: !!bool true",
                "  - name: b",
                "    tokenBucket: { rate: !!str 5 }",
                ""));
    assertEquals(
        List.of(
            "weir.yaml:8: limits[1].tokenBucket.rate must be a number, was 5 (tagged a string)"),
        config.errors());
  }

  /** YAML 1.2 core schema: a quoted number is a string, {@code 1_000} is no number at all. */
  @Test
  void valuesMustHaveTheirTypes() {
    String text =
        String.join(
            "\n",
            "limits:",
            "  - name: a",
            "    methods: \"x.Y#z\"",
            "    tokenBucket: { rate: \"1\", capacity: \"2\", permits: '1' }",
            "    key: \"0\"",
            "    maxWaitMillis: 1_000",
            "    dryRun: \"true\"",
            "  - name: 404",
            "    tokenBucket: { rate: 1_000, per: 5 }",
            "    onLimit: true",
            "  - name: c",
            "    methods: 12",
            "    leakyBucket: { rate: 2.5e1, capacity: 0x10, mode: POLICING }",
            "    dryRun: yes",
            "  - name: d",
            "    tokenBucket: { rate:, capacity: 2.0 }",
            "");
    assertEquals(
        List.of(
            "weir.yaml:4: limits[0].tokenBucket.rate must be a number, was \"1\" (quoted, so a"
                + " string)",
            "weir.yaml:4: limits[0].tokenBucket.capacity must be a whole number >= 0, was \"2\""
                + " (quoted, so a string)",
            "weir.yaml:4: limits[0].tokenBucket.permits must be a whole number >= 1, was \"1\""
                + " (quoted, so a string)",
            "weir.yaml:5: limits[0].key must be a whole number >= 0, was \"0\" (quoted, so a"
                + " string)",
            "weir.yaml:6: limits[0].maxWaitMillis must be a whole number >= 0, was 1_000",
            "weir.yaml:7: limits[0].dryRun must be one of true, false, was \"true\" (quoted, so a"
                + " string)",
            "weir.yaml:8: limits[1].name must be a string, was 404 (quote it to use it as text)",
            "weir.yaml:9: limits[1].tokenBucket.rate must be a number, was 1_000",
            "weir.yaml:9: limits[1].tokenBucket.per must be one of NANOSECONDS, MICROSECONDS,"
                + " MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS, was 5",
            "weir.yaml:10: limits[1].onLimit must be one of REJECT, WAIT, was true",
            "weir.yaml:12: limits[2].methods must be a string, was 12 (quote it to use it as text)",
            "weir.yaml:14: limits[2].dryRun must be one of true, false, was yes",
            "weir.yaml:16: limits[3].tokenBucket.rate must be a number, was nothing",
            "weir.yaml:16: limits[3].tokenBucket.capacity must be a whole number >= 0, was 2.0"),
        ConfigFile.parse("weir.yaml", text).errors());
  }

  @Test
  void numbersOfEveryCoreSchemaForm() {
    ConfigFile config =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "limits:",
                "  - name: a",
                "    methods: \"x.Y#z\"",
                "    leakyBucket: { rate: 2.5e1, capacity: 0x10, mode: POLICING }",
                "    maxWaitMillis: 0o17",
                "    dryRun: True",
                "    key: +1",
                ""));
    assertEquals(List.of(), config.errors());
    ConfigLimit a = config.limits().get(0);
    assertEquals(25.0, a.spec().rate());
    assertEquals(16, a.spec().capacity());
    assertEquals(15, a.spec().maxWaitMillis());
    assertTrue(a.dryRun());
    assertEquals(1, a.keyIndex());
  }

  @Test
  void yamlNestedTooDeeplyIsAnErrorNotACrash() {
    ConfigFile file =
        ConfigFile.parse("deep.yaml", "limits: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
    assertEquals(
        List.of("deep.yaml: not valid YAML: it nests too deeply to be read (thousands of levels)"),
        file.errors());
    assertTrue(file.limits().isEmpty());
  }

  @Test
  void httpEntriesAreValidatedAndRefusedUntilTheyCanLimit() {
    ConfigFile file =
        ConfigFile.parse(
            "web.yaml",
            String.join(
                "\n",
                "http:",
                "  trustedProxies: [10.0.0.0/8, \"fd00::/8\", proxy.example.com, 10.1.2.3/40]",
                "  status: 200",
                "  answerLimitedMethods: yes",
                "limits:",
                "  - name: api",
                "    http: { paths: [\"/api/**\", \"api/x\", \"/a/../b\"], methods: [GET, FETCH] }",
                "    key: client",
                "    tokenBucket: { rate: 10 }",
                "  - name: per-user",
                "    http: { paths: \"/orders/*\" }",
                "    key: 0",
                "    tokenBucket: { rate: 10 }",
                "  - name: by-header",
                "    http: { paths: \"/x\" }",
                "    key: \"header:\"",
                "    tokenBucket: { rate: 10 }",
                "  - name: both",
                "    methods: \"com.acme.A#b\"",
                "    http: { paths: \"/x\" }",
                "    tokenBucket: { rate: 10 }",
                "  - name: method-with-a-web-key",
                "    methods: \"com.acme.A#b\"",
                "    key: client",
                "    tokenBucket: { rate: 10 }",
                "  - name: good",
                "    http: { paths: \"/api/**\", methods: [GET, POST] }",
                "    key: \"cookie:session\"",
                "    tokenBucket: { rate: 10 }",
                ""));
    assertEquals(
        List.of(
            "web.yaml:2: http.trustedProxies[2] must be an IP address or a CIDR block (10.0.0.0/8,"
                + " fd00::/8), not a host name, was 'proxy.example.com'",
            "web.yaml:2: http.trustedProxies[3] must have a prefix length from 0 to 32 after the /,"
                + " was '10.1.2.3/40'",
            "web.yaml:3: http.status must be from 400 to 599, was 200",
            "web.yaml:4: http.answerLimitedMethods must be one of true, false, was yes",
            "web.yaml:7: limits[0].http.paths[1] must be a path starting with /, was 'api/x'",
            "web.yaml:7: limits[0].http.paths[2] must not have . or .. segments: a normalised"
                + " request path never has them, was '/a/../b'",
            "web.yaml:7: limits[0].http.methods[1] must be an HTTP method (GET, HEAD, POST, PUT,"
                + " DELETE, PATCH, OPTIONS, TRACE, CONNECT), was FETCH",
            "web.yaml:12: limits[1].key of an http entry must be client, user, header:NAME,"
                + " param:NAME or cookie:NAME, was 0 (a parameter index is for methods entries)",
            "web.yaml:16: limits[2].key of an http entry must be client, user, header:NAME,"
                + " param:NAME or cookie:NAME, was 'header:'",
            "web.yaml:20: limits[3] must have at most one of methods and http",
            "web.yaml:24: limits[4].key of a methods entry must be a parameter index, 0..254, was"
                + " 'client' (client, user, header:, param: and cookie: keys are for http entries)"),
        file.errors());
  }

  @Test
  void clusterScopeEntriesCarryTheirFailurePolicy() {
    ConfigFile good =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: redis://127.0.0.1:6379",
                "limits:",
                "  - name: payments",
                "    tokenBucket: { rate: 100 }",
                "    scope: cluster",
                "  - name: strict",
                "    methods: a.B#c",
                "    tokenBucket: { rate: 1 }",
                "    scope: cluster",
                "    onBackendFailure: reject",
                "  - name: plain",
                "    methods: a.B#d",
                "    tokenBucket: { rate: 1 }",
                ""));
    assertEquals(List.of(), good.errors());
    assertEquals(
        dev.weir.agent.bootstrap.cluster.ClusterScope.OnFailure.LOCAL,
        good.limits().get(0).onBackendFailure());
    assertEquals(
        dev.weir.agent.bootstrap.cluster.ClusterScope.OnFailure.REJECT,
        good.limits().get(1).onBackendFailure());
    assertTrue(good.limits().get(1).cluster());
    assertFalse(good.limits().get(2).cluster());
    assertEquals(
        List.of(
            "weir.yaml:6: limits[0].scope cluster cannot hold this limit: its burst plus longest"
                + " wait (8640000 s in ticks of 1/1 ns) is beyond what a cluster bucket"
                + " counts exactly (2^52 ticks)"),
        ConfigFile.parse(
                "weir.yaml",
                String.join(
                    "\n",
                    "backend: redis://127.0.0.1:6379",
                    "limits:",
                    "  - name: yearly",
                    "    methods: a.B#c",
                    "    tokenBucket: { rate: 1, per: DAYS, capacity: 100 }",
                    "    scope: cluster",
                    ""))
            .errors());
  }

  /** As Redis clients read a URI: what an environment variable holds works as it is. */
  @Test
  void backendUrisTakePasswordsAsTheyAreAndComposeHostNames() {
    BackendUri compose = BackendUri.parse("redis://redis_1:6404");
    assertEquals("redis_1", compose.host());
    assertEquals(6404, compose.port());
    BackendUri odd = BackendUri.parse("redis://app:p@ss w/rd#?x@cache.internal/2");
    assertEquals("app", odd.user());
    assertEquals("p@ss w/rd#?x", odd.password());
    assertEquals("cache.internal", odd.host());
    assertEquals(2, odd.database());
    assertEquals("redis://app:***@cache.internal:6379/2", odd.toString());
    assertEquals("50%off", BackendUri.parse("redis://:50%off@h").password());
    assertEquals("a%b@c", BackendUri.parse("redis://:a%25b%40c@h").password());
    BackendUri v6 = BackendUri.parse("rediss://[::1]:6380");
    assertEquals("::1", v6.host());
    assertEquals(6380, v6.port());
    assertTrue(v6.tls());
    for (String[] bad :
        new String[][] {
          {"redis://h:0", "must have a port from 1 to 65535"},
          {"redis://h:x", "must have a port from 1 to 65535"},
          {"redis://h/-1", "must have a database number >= 0 after the /"},
          {"redis://:pw@", "must name a host, as redis://host:6379"},
          {
            "redis://h st",
            "must name a host of letters, digits, '.', '-' and '_', as redis://host:6379"
          },
          {"redis://h?db=1", "must have no ?query or #fragment"},
          {"redis://[::1", "must close its IPv6 address with ]"},
        }) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> BackendUri.parse(bad[0]));
      assertEquals(bad[1], e.getMessage(), bad[0]);
    }
  }

  @Test
  void backendsAreReadAndTheirMistakesSayWhy() {
    ConfigFile good =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: \"redis://app:s%40cret@[::1]:6380/3\"",
                "backendTimeoutMillis: 250",
                "backendKeyPrefix: shop",
                "limits: []"));
    assertEquals(List.of(), good.errors());
    BackendUri uri = good.backends().get(0);
    assertEquals("app", uri.user());
    assertEquals("s@cret", uri.password());
    assertEquals("::1", uri.host());
    assertEquals(6380, uri.port());
    assertEquals(3, uri.database());
    assertEquals("redis://app:***@[::1]:6380/3", uri.toString(), "no password in messages");
    assertEquals(250, good.backendTimeoutMillis());
    assertEquals(100, ConfigFile.parse("x.yaml", "limits: []").backendTimeoutMillis());
    ConfigFile cluster =
        ConfigFile.parse(
            "weir.yaml", "backend: [\"rediss://:pw@10.0.0.1\", redis://10.0.0.2:7001]\nlimits: []");
    assertEquals(List.of(), cluster.errors());
    assertTrue(cluster.backends().get(0).tls());
    assertEquals(6379, cluster.backends().get(0).port());
    assertEquals(null, cluster.backends().get(0).user());
    ConfigFile bad =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: [\"http://h:1\", \"redis://:pw@h:99999\", \"redis://h/x\", \"redis://h/2\"]",
                "backendTimeoutMillis: 0",
                "backendKeyPrefix: \"{tag}\"",
                "limits: []"));
    assertEquals(
        List.of(
            "weir.yaml:1: backend[0] must be a redis:// or rediss:// URI, was 'http://h:1'",
            "weir.yaml:1: backend[1] must have a port from 1 to 65535, was"
                + " 'redis://:***@h:99999'",
            "weir.yaml:1: backend[2] must have a database number >= 0 after the /, was"
                + " 'redis://h/x'",
            "weir.yaml:1: backend[3] must use database 0: a Redis Cluster (a list of URIs) has no"
                + " other, was redis://h:6379/2",
            "weir.yaml:2: backendTimeoutMillis must be >= 1, was 0",
            "weir.yaml:3: backendKeyPrefix must be a non-empty key prefix without spaces, braces or"
                + " control characters (braces are Redis Cluster hash tags), was \"{tag}\""),
        bad.errors());
    ConfigFile socket =
        ConfigFile.parse("weir.yaml", "backend: unix:///var/run/redis/redis.sock\nlimits: []");
    assertEquals(
        List.of(
            "weir.yaml:1: backend must be a redis:// or rediss:// URI: Weir reaches Redis over TCP"
                + " only (a Unix socket is not supported; give the server's host and port, as"
                + " redis://127.0.0.1:6379), was 'unix:///var/run/redis/redis.sock'"),
        socket.errors());
  }

  @Test
  void environmentVariablesReplaceNamesInValues() {
    java.util.Map<String, String> env =
        java.util.Map.of("REDIS_PASSWORD", "s3cret", "RATE", "25", "WHO", "api");
    ConfigFile file =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: \"redis://:${REDIS_PASSWORD}@127.0.0.1:6379\"",
                "limits:",
                "  - name: ${WHO}-limit",
                "    methods: com.acme.A#b",
                "    tokenBucket:", // in block style: '{' is YAML's own in a flow map
                "      rate: ${RATE}",
                "      capacity: \"${RATE}\""),
            env);
    assertEquals(
        List.of(
            "weir.yaml:7: limits[0].tokenBucket.capacity must be a whole number >= 0, was \"25\""
                + " (quoted, so a string)"),
        file.errors(),
        "a plain value is typed after the replacement, a quoted one stays a string");
    ConfigFile ok =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: \"redis://:${REDIS_PASSWORD}@127.0.0.1:6379\"",
                "limits:",
                "  - name: ${WHO}-limit",
                "    methods: com.acme.A#b",
                "    tokenBucket:",
                "      rate: ${RATE}"),
            env);
    assertEquals(List.of(), ok.errors());
    assertEquals("s3cret", ok.backends().get(0).password());
    assertEquals("api-limit", ok.limits().get(0).name());
    assertEquals(25.0, ok.limits().get(0).spec().rate());
    assertEquals(
        List.of(
            "weir.yaml:1: backend uses ${NO_SUCH_VARIABLE}, which is not set in the environment"),
        ConfigFile.parse("weir.yaml", "backend: redis://:${NO_SUCH_VARIABLE}@h\nlimits: []", env)
            .errors());
  }

  @Test
  void moreHttpMistakesSayWhereAndWhy() {
    ConfigFile file =
        ConfigFile.parse(
            "web.yaml",
            String.join(
                "\n",
                "limits:",
                "  - name: listed-key",
                "    http: { paths: /a }",
                "    key: [client]",
                "    tokenBucket: { rate: 1 }",
                "  - name: \"two\\nlines\"",
                "    http: { paths: /a, methods: [] }",
                "    tokenBucket: { rate: 1 }",
                "  - name: encoded",
                "    http: { paths: \"/api%2Fx\" }",
                "    tokenBucket: { rate: 1 }",
                ""));
    assertEquals(
        List.of(
            "web.yaml:4: limits[0].key of an http entry must be client, user, header:NAME,"
                + " param:NAME or cookie:NAME, was a list (a parameter index is for methods"
                + " entries)",
            "web.yaml:6: limits[1].name must be one line without control characters (it names the"
                + " limit in logs and answers), was \"two\\nlines\"",
            "web.yaml:7: limits[1].http.methods must name at least one HTTP method, was an empty"
                + " list (leave it out for all)",
            "web.yaml:10: limits[2].http.paths must be a decoded path: the container decodes %2F"
                + " before matching, so write the character itself, was '/api%2Fx'"),
        file.errors());
  }

  @Test
  void httpEntriesAndSettingsAreRead() {
    ConfigFile file =
        ConfigFile.parse(
            "web.yaml",
            String.join(
                "\n",
                "http:",
                "  trustedProxies: [10.0.0.0/8, \"::1\"]",
                "  status: 503",
                "  answerLimitedMethods: false",
                "limits:",
                "  - name: api",
                "    http: { paths: [\"/api/**\", \"/v*/x\"], methods: [GET, POST, GET] }",
                "    key: \"cookie: session\"",
                "    tokenBucket: { rate: 10 }",
                "  - name: all",
                "    http: { paths: /** }",
                "    leakyBucket: { rate: 5 }",
                ""));
    assertEquals(List.of(), file.errors());
    assertEquals("[10.0.0.0/8, ::1]", file.trustedProxies().toString());
    assertEquals(503, file.httpStatus());
    assertFalse(file.answerLimitedMethods());
    ConfigLimit api = file.limits().get(0);
    assertTrue(api.isHttp());
    assertEquals("[/api/**, /v*/x]", api.paths().toString());
    assertEquals(List.of("GET", "POST"), api.httpMethods());
    assertEquals("cookie:session", api.httpKey());
    assertEquals(-1, api.keyIndex());
    assertTrue(api.patterns().isEmpty());
    ConfigLimit all = file.limits().get(1);
    assertEquals(List.of(), all.httpMethods());
    assertEquals(null, all.httpKey());
    assertEquals(429, ConfigFile.parse("x.yaml", "limits: []").httpStatus());
    assertTrue(ConfigFile.parse("x.yaml", "limits: []").answerLimitedMethods());
  }

  @Test
  void ipv6PrefixLengthIsOneTo128Bits() {
    assertEquals(64, ConfigFile.parse("x.yaml", "limits: []").ipv6PrefixLength());
    assertEquals(
        48,
        ConfigFile.parse("x.yaml", "http:\n  ipv6PrefixLength: 48\nlimits: []").ipv6PrefixLength());
    for (String[] bad :
        new String[][] {
          {"0", "x.yaml:2: http.ipv6PrefixLength must be >= 1, was 0"},
          {
            "129",
            "x.yaml:2: http.ipv6PrefixLength must be from 1 to 128 (bits of an IPv6 address),"
                + " was 129"
          },
          {
            "\"64\"",
            "x.yaml:2: http.ipv6PrefixLength must be a whole number >= 1, was \"64\" (quoted, so a string)"
          },
        }) {
      assertEquals(
          List.of(bad[1]),
          ConfigFile.parse("x.yaml", "http:\n  ipv6PrefixLength: " + bad[0] + "\nlimits: []")
              .errors(),
          bad[0]);
    }
  }

  @Test
  void maxBlockedThreadsIsAWholeNumberFromZeroAndEightUnlessGiven() {
    assertEquals(8, ConfigFile.parse("x.yaml", "limits: []").maxBlockedThreads());
    for (String value : new String[] {"0", "2", "2147483647"}) {
      ConfigFile file =
          ConfigFile.parse("x.yaml", "http: { maxBlockedThreads: " + value + " }\nlimits: []");
      assertEquals(List.of(), file.errors(), value);
      assertEquals(Integer.parseInt(value), file.maxBlockedThreads());
    }
    String[][] bad = {
      {"-1", "x.yaml:1: http.maxBlockedThreads must be >= 0, was -1"},
      {"2.5", "x.yaml:1: http.maxBlockedThreads must be a whole number >= 0, was 2.5"},
      {
        "\"8\"",
        "x.yaml:1: http.maxBlockedThreads must be a whole number >= 0, was \"8\" (quoted, so a string)"
      },
      {"2147483648", "x.yaml:1: http.maxBlockedThreads must be at most 2147483647, was 2147483648"}
    };
    for (String[] c : bad) {
      ConfigFile file =
          ConfigFile.parse("x.yaml", "http: { maxBlockedThreads: " + c[0] + " }\nlimits: []");
      assertEquals(List.of(c[1]), file.errors(), c[0]);
    }
  }

  @Test
  void aBucketsRulesReadAsAnAnnotationsDo() {
    String[][] cases = {
      // permits below 1 say so, with or without a capacity to name
      {
        "{ rate: 0, permits: 0 }",
        "w.yaml:4: limits[0].tokenBucket.rate must be > 0 and finite, was 0",
        "w.yaml:4: limits[0].tokenBucket.permits must be >= 1, was 0"
      },
      {"{ rate: 5, permits: 0 }", "w.yaml:4: limits[0].tokenBucket.permits must be >= 1, was 0"},
      // the rate is judged before its per, and as a number of its own (an annotation's too)
      {
        "{ rate: -1, per: WEEKS }",
        "w.yaml:4: limits[0].tokenBucket.rate must be > 0 and finite, was -1",
        "w.yaml:4: limits[0].tokenBucket.per must be one of NANOSECONDS, MICROSECONDS,"
            + " MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS, was WEEKS"
      },
      {"{ rate: 1.0e-320, per: DAYS }"}
    };
    for (String[] c : cases) {
      List<String> errors =
          ConfigFile.parse(
                  "w.yaml",
                  "limits:\n  - name: a\n    methods: \"com.acme.X#y\"\n    tokenBucket: "
                      + c[0]
                      + "\n")
              .errors();
      assertEquals(List.of(c).subList(1, c.length), errors, c[0]);
    }
  }

  @Test
  void warmUpMillisIsReadAndItsMistakesSayWhere() {
    ConfigFile ok =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "limits:",
                "  - name: cold",
                "    methods: \"x.Y#z\"",
                "    tokenBucket: { rate: 2, capacity: 4, warmUpMillis: 4000 }",
                "  - name: plain",
                "    methods: \"x.Y#w\"",
                "    tokenBucket: { rate: 2 }",
                ""));
    assertEquals(List.of(), ok.errors());
    assertEquals(4000, ok.limits().get(0).spec().warmUpMillis());
    assertEquals(4000_000_000L, ok.limits().get(0).spec().bucket(0).warmUpNanos());
    assertEquals(0, ok.limits().get(1).spec().warmUpMillis(), "0 unless given");

    ConfigFile bad =
        ConfigFile.parse(
            "weir.yaml",
            String.join(
                "\n",
                "backend: redis://127.0.0.1:6379",
                "limits:",
                "  - name: a",
                "    methods: \"x.Y#a\"",
                "    tokenBucket: { rate: 2, warmUpMillis: -1 }",
                "  - name: b",
                "    methods: \"x.Y#b\"",
                "    tokenBucket: { rate: 2, warmUpMillis: 1.5 }",
                "  - name: c",
                "    methods: \"x.Y#c\"",
                "    tokenBucket: { rate: 2, warmUpMillis: 86400001 }",
                "  - name: d",
                "    methods: \"x.Y#d\"",
                "    tokenBucket: { rate: 2, warmUpMillis: 100 }",
                "    key: 0",
                "  - name: e",
                "    methods: \"x.Y#e\"",
                "    tokenBucket: { rate: 999999937, warmUpMillis: 86400000 }",
                "    scope: cluster",
                "  - name: f",
                "    methods: \"x.Y#f\"",
                "    leakyBucket: { rate: 2, warmUpMillis: 100 }",
                ""));
    assertEquals(
        List.of(
            "weir.yaml:5: limits[0].tokenBucket.warmUpMillis must be between 0 and 86400000 (one"
                + " day), was -1",
            "weir.yaml:8: limits[1].tokenBucket.warmUpMillis must be a whole number >= 0, was 1.5",
            "weir.yaml:11: limits[2].tokenBucket.warmUpMillis must be between 0 and 86400000 (one"
                + " day), was 86400001",
            "weir.yaml:14: limits[3].tokenBucket.warmUpMillis is not supported with a key yet"
                + " (per-key buckets do not warm up), was 100",
            "weir.yaml:19: limits[4].scope cluster cannot hold this limit: its warm-up (86400 s in"
                + " ticks of 1/1024 ns) is beyond what a cluster bucket counts exactly (2^50 ticks)",
            "weir.yaml:22: limits[5].leakyBucket.warmUpMillis is not a known key (known: rate, per,"
                + " capacity, mode)"),
        bad.errors());
  }
}
