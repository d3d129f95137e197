package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

/**
 * The patterns users write for JDBC, on real drivers (SQLite, Derby, HSQLDB, H2), each plain and
 * through HikariCP, in one forked JVM per pattern and JDK ({@code fixtures.JdbcDrivers}), one test
 * per phase: every write through the limited methods is charged exactly once (a pool's proxy
 * delegating to the driver pays once, not twice; a driver that inherits its implementation from a
 * superclass that is not itself the pattern's type pays too) and the writes go at the limit.
 *
 * <p>The limit is docs/config-file.md's: a SHAPING leaky bucket, 200/s, capacity 10, {@code
 * onLimit: WAIT}. Each limited phase of 300 writes on one thread must take at least {@code (300 -
 * 10) / 200} s (admitted ≤ capacity + rate × elapsed, exact but for 10 ms of clock rounding: an
 * unlimited phase takes milliseconds, one charging half the writes 0.75 s), with {@code Granted}
 * rising by exactly 300; and its calls may wait in Weir no longer than the limit's slots (290 / 200
 * s) and one late wake-up: the phase's own pace is the driver's, which a loaded machine slows.
 */
class JdbcDriversIT {
  private static final int ROWS = 300;
  private static final int RATE = 200;
  private static final int CAPACITY = 10;
  private static final long CLOCK_SLACK_NANOS = 10_000_000L;
  private static final long WAKE_UP_SLACK_NANOS = 1_000_000_000L;

  private static final String[] DRIVERS = {"sqlite", "derby", "hsqldb", "h2"};
  private static final String[] ACCESS = {"plain", "pool"};

  /** The drivers' and the pool's jars (and SLF4J's no-op provider, which keeps Hikari quiet). */
  private static final String CLASS_PATH =
      TestJars.matching(
          "/org/xerial/sqlite-jdbc/",
          "/org/apache/derby/",
          "/org/hsqldb/",
          "/com/h2database/",
          "/com/zaxxer/HikariCP/",
          "/org/slf4j/");

  /**
   * {@code java.sql.Statement+#execute*}: every {@code execute}, {@code executeUpdate}, {@code
   * executeQuery} and {@code executeBatch} of every statement, prepared ones included (a {@code
   * PreparedStatement} is a {@code Statement}), so both phases are limited.
   */
  @TestFactory
  Stream<DynamicContainer> statementPatternLimitsEveryWriteOfEveryDriverOnce() {
    Map<String, ForkedPhases.Check> checks = new LinkedHashMap<>();
    for (String driver : DRIVERS) {
      for (String access : ACCESS) {
        checks.put(driver + "." + access + ".stmt", JdbcDriversIT::limited);
        checks.put(driver + "." + access + ".prep", JdbcDriversIT::limited);
      }
    }
    checks.put(
        "methods",
        (r, phase) ->
            covers(
                r,
                "org.sqlite.jdbc4.JDBC4Statement#executeUpdate(java.lang.String) (inherited from"
                    + " org.sqlite.jdbc3.JDBC3Statement)",
                "org.sqlite.jdbc3.JDBC3PreparedStatement#executeUpdate()",
                "org.apache.derby.impl.jdbc.EmbedStatement#executeUpdate(java.lang.String)",
                "org.hsqldb.jdbc.JDBCStatement#executeUpdate(java.lang.String)",
                "org.h2.jdbc.JdbcStatement#executeUpdate(java.lang.String)",
                "com.zaxxer.hikari.pool.HikariProxyPreparedStatement#executeUpdate()",
                "com.zaxxer.hikari.pool.HikariProxyStatement#executeUpdate(java.lang.String)"));
    return ForkedPhases.perJdk(
        jdk -> run(jdk, "java.sql.Statement+#execute*"), checks, JdbcDriversIT::name);
  }

  /**
   * docs/config-file.md's {@code java.sql.PreparedStatement+#executeUpdate()}: the prepared writes
   * are limited; the plain statement's {@code executeUpdate(String)} is another method, charged
   * nothing.
   */
  @TestFactory
  Stream<DynamicContainer> preparedStatementPatternLimitsEveryPreparedWriteOnce() {
    Map<String, ForkedPhases.Check> checks = new LinkedHashMap<>();
    for (String driver : DRIVERS) {
      for (String access : ACCESS) {
        checks.put(driver + "." + access + ".stmt", JdbcDriversIT::unlimited);
        checks.put(driver + "." + access + ".prep", JdbcDriversIT::limited);
      }
    }
    checks.put(
        "methods",
        (r, phase) ->
            covers(
                r,
                "org.sqlite.jdbc4.JDBC4PreparedStatement#executeUpdate() (inherited from"
                    + " org.sqlite.jdbc3.JDBC3PreparedStatement)",
                "org.apache.derby.impl.jdbc.EmbedPreparedStatement#executeUpdate()",
                "org.hsqldb.jdbc.JDBCPreparedStatement#executeUpdate()",
                "org.h2.jdbc.JdbcPreparedStatement#executeUpdate()",
                "com.zaxxer.hikari.pool.HikariProxyPreparedStatement#executeUpdate()",
                "com.zaxxer.hikari.pool.ProxyPreparedStatement#executeUpdate()"));
    return ForkedPhases.perJdk(
        jdk -> run(jdk, "java.sql.PreparedStatement+#executeUpdate()"),
        checks,
        JdbcDriversIT::name);
  }

  private static Result run(String jdk, String pattern) {
    Path config;
    try {
      config =
          ForkedJvm.configFile(
              "limits:",
              "  - name: writes",
              "    methods: \"" + pattern + "\"",
              "    leakyBucket: { rate: " + RATE + ", capacity: " + CAPACITY + ", mode: SHAPING }",
              "    onLimit: WAIT",
              "    maxWaitMillis: 2000");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ForkedJvm.runWithClassPath(
        jdk,
        List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
        CLASS_PATH,
        "dev.weir.it.fixtures.JdbcDrivers",
        "writes",
        String.valueOf(ROWS));
  }

  /** The phase and the statement's class, which tells which hierarchy a failure is about. */
  private static String name(Result r, String phase) {
    return phase + " (" + r.values.getOrDefault(phase + ".class", "?") + ")";
  }

  /** A limited phase: every write made, each charged once, at the limit. */
  private static void limited(Result r, String phase) {
    written(r, phase);
    long nanos = r.longValue(phase + ".nanos");
    long granted = r.longValue(phase + ".granted");
    double perSecond = ROWS * 1e9 / nanos;
    String pace =
        String.format(
            "%s: %d writes in %.3f s (%.0f/s against a limit of %d/s), Granted +%d",
            name(r, phase), ROWS, nanos / 1e9, perSecond, RATE, granted);
    assertEquals(ROWS, granted, pace + ": every write charged exactly once");
    long floorNanos = (long) ((ROWS - CAPACITY) * 1e9 / RATE) - CLOCK_SLACK_NANOS;
    assertTrue(nanos >= floorNanos, pace + ": faster than capacity + rate x elapsed allows");
    // how slow the phase is beside the limit is the driver's (an embedded Derby writing on a
    // loaded machine keeps below 200/s alone); what Weir adds is the time its calls waited, which
    // the limit bounds: the slots of ROWS - CAPACITY calls, and one late wake-up
    long waitNanos = r.longValue(phase + ".waitNanos");
    long slotsNanos = (long) ((ROWS - CAPACITY) * 1e9 / RATE);
    assertTrue(
        waitNanos >= 0 && waitNanos <= slotsNanos + WAKE_UP_SLACK_NANOS,
        String.format(
            "%s: waited %.3f s in Weir, more than the limit's %.3f s of slots",
            pace, waitNanos / 1e9, slotsNanos / 1e9));
  }

  /**
   * The limiter's {@code Methods}, as the fixture read it from its MBean at the end, lists each
   * implementation that was charged, inherited ones named with their ancestor.
   */
  private static void covers(Result r, String... expected) {
    List<String> methods = List.of(r.value("methods").split(" \\| "));
    for (String method : expected) {
      assertTrue(methods.contains(method), "Methods lacks " + method + ": " + methods);
    }
  }

  /** A phase the pattern does not reach: every write made, none charged. */
  private static void unlimited(Result r, String phase) {
    written(r, phase);
    assertEquals(0, r.longValue(phase + ".granted"), "another method: charged nothing");
  }

  /** The fixture saw its limiter, the driver worked, and every row was written, none refused. */
  private static void written(Result r, String phase) {
    assertEquals("true", r.value("registered"), "the limiter's MBean");
    String access = phase.substring(0, phase.lastIndexOf('.'));
    assertEquals("", r.values.getOrDefault(access + ".error", ""), "the driver failed");
    assertEquals(0, r.longValue(phase + ".limited"), "no write refused");
    assertEquals(ROWS, r.longValue(phase + ".writes"), "every row written");
  }
}
