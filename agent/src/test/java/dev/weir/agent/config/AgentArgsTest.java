package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.KeyedBuckets;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentArgsTest {
  @Test
  void defaults() {
    AgentArgs args = AgentArgs.parse(null, new Properties());
    assertTrue(args.enabled());
    assertEquals(AgentLog.INFO, args.logLevel());
    assertNull(args.configPath());
    assertTrue(args.errors().isEmpty());
  }

  @Test
  void agentArgumentWinsOverSystemProperty() {
    Properties system = new Properties();
    system.setProperty("weir.config", "/from/property.yaml");
    system.setProperty("weir.enabled", "false");
    system.setProperty("weir.log", "off");
    AgentArgs args = AgentArgs.parse("config=/from/arg.yaml, enabled=true ,log=debug", system);
    assertEquals("/from/arg.yaml", args.configPath());
    assertTrue(args.enabled());
    assertEquals(AgentLog.DEBUG, args.logLevel());
  }

  @Test
  void killSwitchSpellings() {
    for (String off : new String[] {"false", "FALSE", "no", "off"}) {
      assertFalse(AgentArgs.parse("enabled=" + off, new Properties()).enabled(), off);
    }
    for (String on : new String[] {"true", "yes", "On"}) {
      assertTrue(AgentArgs.parse("enabled=" + on, new Properties()).enabled(), on);
    }
  }

  @Test
  void systemPropertiesAloneWork() {
    Properties system = new Properties();
    system.setProperty("weir.enabled", "false");
    assertFalse(AgentArgs.parse("", system).enabled());
  }

  @Test
  void badArgumentsAreErrorsNamingTheValue() {
    AgentArgs args =
        AgentArgs.parse("enabled=maybe,log=loud,colour=blue,novalue", new Properties());
    assertEquals(
        List.of(
            "unknown agent argument 'colour' (known: config, log, enabled, maxKeys, watch,"
                + " prometheus, summary, drainOnExit), was colour=blue",
            "agent argument 'novalue' must be key=value (jcmd drops '=value' unless the options"
                + " are quoted: JVMTI.agent_load weir-agent.jar '\"key=value,key=value\"')",
            "agent argument log must be info, debug or off, was 'loud'",
            "agent argument enabled must be true or false (or yes/no, on/off), was 'maybe'"),
        args.errors());
  }

  @Test
  void maxKeysBoundsPerKeyLimiters() {
    assertEquals(KeyedBuckets.DEFAULT_MAX_KEYS, AgentArgs.parse(null, new Properties()).maxKeys());
    assertEquals(5000, AgentArgs.parse("maxKeys=5_000", new Properties()).maxKeys());
    Properties system = new Properties();
    system.setProperty("weir.maxKeys", "7");
    assertEquals(7, AgentArgs.parse(null, system).maxKeys());
    AgentArgs bad = AgentArgs.parse("maxKeys=0", new Properties());
    assertEquals(KeyedBuckets.DEFAULT_MAX_KEYS, bad.maxKeys());
    assertEquals(
        List.of("agent argument maxKeys must be a whole number from 1 to 2147483647, was '0'"),
        bad.errors());
  }

  @Test
  void operatorArguments() {
    AgentArgs args =
        AgentArgs.parse(
            "watch=true,prometheus=127.0.0.1:9464,summary=30,drainOnExit=2_000", new Properties());
    assertTrue(args.errors().isEmpty(), args.errors().toString());
    assertTrue(args.watch());
    assertEquals("127.0.0.1", args.prometheusHost());
    assertEquals(9464, args.prometheusPort());
    assertEquals(30, args.summarySeconds());
    assertEquals(2000, args.drainOnExitMillis());
    assertEquals(
        List.of("watch", "prometheus", "summary", "drainOnExit"), List.copyOf(args.given()));

    AgentArgs defaults = AgentArgs.parse(null, new Properties());
    assertFalse(defaults.watch());
    assertEquals(-1, defaults.prometheusPort(), "nothing listens without the argument");
    assertEquals(0, defaults.summarySeconds());
    assertEquals(0, defaults.drainOnExitMillis());

    AgentArgs portOnly = AgentArgs.parse("prometheus=9464", new Properties());
    assertNull(portOnly.prometheusHost(), "all interfaces");
    assertEquals(9464, portOnly.prometheusPort());
    assertEquals("::1", AgentArgs.parse("prometheus=[::1]:9", new Properties()).prometheusHost());

    Properties system = new Properties();
    system.setProperty("weir.summary", "10");
    AgentArgs fromProperty = AgentArgs.parse("", system);
    assertEquals(10, fromProperty.summarySeconds());
    assertTrue(fromProperty.given().isEmpty(), "a system property is not an attach's argument");
  }

  @Test
  void badOperatorArgumentsAreErrorsAndSwitchNothingOn() {
    AgentArgs args =
        AgentArgs.parse(
            "watch=often,prometheus=host:99999,summary=-1,drainOnExit=soon", new Properties());
    assertEquals(
        List.of(
            "agent argument watch must be true or false (or yes/no, on/off), was 'often'",
            "agent argument prometheus must be [HOST:]PORT with a port from 0 to 65535, was"
                + " 'host:99999'",
            "agent argument summary must be a whole number from 0 (off) to 2147483647, was '-1'",
            "agent argument drainOnExit must be a whole number from 0 (off) to 9223372036854775807,"
                + " was 'soon'"),
        args.errors());
    assertFalse(args.watch());
    assertEquals(-1, args.prometheusPort());
  }

  /** One bad value for each key, each line naming the argument, the value and the rule. */
  @Test
  void everyKeyRefusesABadValueByName() {
    String[][] cases = {
      {"config=", "agent argument config must be the path of a config file, was ''"},
      {"log=verbose", "agent argument log must be info, debug or off, was 'verbose'"},
      {"enabled=0", "agent argument enabled must be true or false (or yes/no, on/off), was '0'"},
      {
        "maxKeys=-1", "agent argument maxKeys must be a whole number from 1 to 2147483647, was '-1'"
      },
      {
        "maxKeys=2147483648",
        "agent argument maxKeys must be a whole number from 1 to 2147483647," + " was '2147483648'"
      },
      {
        "watch=sometimes",
        "agent argument watch must be true or false (or yes/no, on/off), was" + " 'sometimes'"
      },
      {
        "prometheus=:9464",
        "agent argument prometheus must be [HOST:]PORT with a port from 0 to"
            + " 65535, was ':9464'"
      },
      {
        "prometheus=localhost",
        "agent argument prometheus must be [HOST:]PORT with a port from 0"
            + " to 65535, was 'localhost'"
      },
      {
        "summary=x",
        "agent argument summary must be a whole number from 0 (off) to 2147483647, was 'x'"
      },
      {
        "drainOnExit=1.5",
        "agent argument drainOnExit must be a whole number from 0 (off) to"
            + " 9223372036854775807, was '1.5'"
      },
    };
    for (String[] c : cases) {
      assertEquals(List.of(c[1]), AgentArgs.parse(c[0], new Properties()).errors(), c[0]);
    }
  }

  @Test
  void keysAreSpelledExactly() {
    assertEquals(
        List.of(
            "unknown agent argument 'confg' (known: config, log, enabled, maxKeys, watch,"
                + " prometheus, summary, drainOnExit), was confg=weir.yaml",
            "unknown agent argument 'maxkeys' (known: config, log, enabled, maxKeys, watch,"
                + " prometheus, summary, drainOnExit), was maxkeys=5"),
        AgentArgs.parse("confg=weir.yaml,maxkeys=5", new Properties()).errors());
  }

  @Test
  void theKillSwitchBesideABadArgumentIsStillAnError() {
    AgentArgs args = AgentArgs.parse("enabled=false,maxKeys=-1", new Properties());
    assertEquals(
        List.of("agent argument maxKeys must be a whole number from 1 to 2147483647, was '-1'"),
        args.errors());
  }

  @Test
  void blankPairsNameNothingAndAreSkipped() {
    AgentArgs args = AgentArgs.parse(",config=x,, ,log=debug,", new Properties());
    assertEquals(List.of(), args.errors());
    assertEquals("x", args.configPath());
    assertEquals(AgentLog.DEBUG, args.logLevel());
    assertEquals(List.of("config", "log"), List.copyOf(args.given()));
    assertEquals(List.of(), AgentArgs.parse(" , ", new Properties()).errors());
  }

  @Test
  void aKnownKeyWithoutAValueIsAnError() {
    AgentArgs args = AgentArgs.parse("enabled", new Properties());
    assertEquals(
        List.of(
            "agent argument 'enabled' must be key=value (jcmd drops '=value' unless the options"
                + " are quoted: JVMTI.agent_load weir-agent.jar '\"key=value,key=value\"')"),
        args.errors());
  }

  @Test
  void aBadSystemPropertyOfAnAgentKeyIsAnErrorNamingTheProperty() {
    Properties system = new Properties();
    system.setProperty("weir.maxKeys", "abc");
    system.setProperty("weir.enabled", "false");
    system.setProperty("weir.config", "");
    assertEquals(
        List.of(
            "-Dweir.config must be the path of a config file, was ''",
            "-Dweir.maxKeys must be a whole number from 1 to 2147483647, was 'abc'"),
        AgentArgs.parse(null, system).errors());
  }

  @Test
  void otherWeirPropertiesAreNotJudged() {
    Properties system = new Properties();
    system.setProperty("weir.confg", "typo.yaml");
    system.setProperty("weir.attach.report", "anything");
    system.setProperty("weir.it.jdks", "/usr/lib/jvm/x");
    assertEquals(List.of(), AgentArgs.parse(null, system).errors());
  }

  @Test
  void anAgentArgumentWinsOverABadPropertyWhichIsThenNotRead() {
    Properties system = new Properties();
    system.setProperty("weir.maxKeys", "abc");
    AgentArgs args = AgentArgs.parse("maxKeys=5", system);
    assertEquals(List.of(), args.errors());
    assertEquals(5, args.maxKeys());
  }

  @Test
  void zeroSwitchesTheSummaryAndTheDrainOff() {
    AgentArgs args = AgentArgs.parse("summary=0,drainOnExit=0", new Properties());
    assertEquals(List.of(), args.errors());
    assertEquals(0, args.summarySeconds());
    assertEquals(0, args.drainOnExitMillis());
  }
}
