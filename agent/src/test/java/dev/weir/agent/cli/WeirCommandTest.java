package dev.weir.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The command line's own parts: its table's numbers and names, its deadline on an exchange, and its
 * usage errors.
 */
class WeirCommandTest {
  @Test
  void numbersFitTheirColumns() {
    assertEquals("50", Table.compact(50, 6));
    assertEquals("0.33", Table.compact(1 / 3.0, 6));
    assertEquals("3e-04", Table.compact(1 / 3600.0, 6), "1 per hour in permits/s");
    assertEquals("123456", Table.compact(123_456, 6));
    assertEquals("123k", Table.compact(123_456, 5));
    assertEquals("12345678", Table.compact(12_345_678, 8));
    assertEquals("12.3M", Table.compact(12_345_678, 7));
    assertEquals("20.3", Table.compact(20.25, 7), "one decimal past 1");
    assertEquals("450.6", Table.compact(450.6, 6));
  }

  @Test
  void aRelativeConfigPathIsTheOperatorsNotTheTargets() {
    String cwd = new java.io.File("").getAbsolutePath();
    assertEquals(
        "config=" + cwd + "/weir.yaml,log=debug",
        AttachCommand.absoluteConfig("config=weir.yaml,log=debug"));
    assertEquals(
        "log=off,config=/etc/weir.yaml",
        AttachCommand.absoluteConfig("log=off,config=/etc/weir.yaml"));
    assertEquals(null, AttachCommand.absoluteConfig(null));
  }

  @Test
  void longNamesKeepTheirEnd() {
    assertEquals("orders", Table.fit("orders"));
    assertEquals("~heck#probe(int)", Table.fit("dev.weir.examples.AgentCheck#probe(int)"));
    assertEquals(16, Table.fit("dev.weir.examples.AgentCheck#probe(int)").length());
  }

  @Test
  void anExchangeThatDoesNotEndIsGivenUpAtItsDeadline() throws Exception {
    final CountDownLatch never = new CountDownLatch(1);
    Jvm.Failure failure =
        assertThrows(
            Jvm.Failure.class,
            () ->
                Jvm.bounded(
                    "999999999",
                    50,
                    () -> {
                      never.await();
                      return null;
                    }));
    assertEquals("JVM 999999999 did not answer within 0.05 s", failure.getMessage());
    assertTrue(failure.noAnswer);
    assertEquals("done", Jvm.bounded("1", 60_000, () -> "done"));
    IllegalStateException thrown = new IllegalStateException("its own");
    assertSame(
        thrown,
        assertThrows(
            IllegalStateException.class,
            () ->
                Jvm.bounded(
                    "1",
                    60_000,
                    () -> {
                      throw thrown;
                    })));
  }

  @Test
  void aTableRowIsNamedAsItsMBean() throws Exception {
    for (String[] c :
        new String[][] {
          {"dev.weir:type=Limiter,name=orders", "orders"},
          {"dev.weir:type=Limiter,name=orders,loader=3", "orders @3"},
          {"dev.weir:type=Limiter,name=\"a,b=c\",loader=12", "a,b=c @12"},
          {"dev.weir:type=Limiter,name=\"\"", ""},
          {"dev.weir:type=Limiter,name=Shop#buy(java.lang.String)", "Shop#buy(java.lang.String)"}
        }) {
      assertEquals(c[1], WeirMBeans.label(c[0]), c[0]);
    }
  }

  @Test
  void aBadCommandLineExitsTwoWithTheUsage() {
    for (String[] args :
        new String[][] {
          {},
          {"bogus"},
          {"status"},
          {"status", "12x"},
          {"set", "1", "orders", "rate=fast"},
          {"set", "1", "orders", "speed=3"},
          {"list", "extra"},
          {"set", "1", "orders"}
        }) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int status =
          new WeirCommand(
                  new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                  new PrintStream(err, true, StandardCharsets.UTF_8))
              .run(args);
      assertEquals(2, status, String.join(" ", args));
      assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: java -jar weir-agent.jar"));
    }
  }
}
