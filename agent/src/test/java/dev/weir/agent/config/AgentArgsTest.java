package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.BucketLimiter;
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
            "log must be info, debug or off, was 'loud'",
            "enabled must be true or false (or yes/no, on/off), was 'maybe'; the agent stays"
                + " enabled"),
        args.errors());
    assertTrue(args.enabled(), "a bad value never turns limits off");
  }

  @Test
  void maxKeysBoundsPerKeyLimiters() {
    assertEquals(BucketLimiter.DEFAULT_MAX_KEYS, AgentArgs.parse(null, new Properties()).maxKeys());
    assertEquals(5000, AgentArgs.parse("maxKeys=5_000", new Properties()).maxKeys());
    Properties system = new Properties();
    system.setProperty("weir.maxKeys", "7");
    assertEquals(7, AgentArgs.parse(null, system).maxKeys());
    AgentArgs bad = AgentArgs.parse("maxKeys=0", new Properties());
    assertEquals(BucketLimiter.DEFAULT_MAX_KEYS, bad.maxKeys());
    assertEquals(
        List.of(
            "maxKeys must be a whole number from 1 to 2147483647, was '0'; the default 100000"
                + " applies"),
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
            "watch must be true or false (or yes/no, on/off), was 'often'; the file is not watched",
            "prometheus must be [HOST:]PORT with a port from 0 to 65535, was 'host:99999'; no"
                + " metrics are served",
            "summary must be a whole number from 1 to 2147483647, was '-1'; it is off",
            "drainOnExit must be a whole number from 1 to 9223372036854775807, was 'soon'; it is"
                + " off"),
        args.errors());
    assertFalse(args.watch());
    assertEquals(-1, args.prometheusPort());
  }
}
