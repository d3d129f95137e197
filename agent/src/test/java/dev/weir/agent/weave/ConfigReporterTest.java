package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The report at shutdown, which does not look for near names, repeats the hint found before. */
class ConfigReporterTest {
  @Test
  void theReportAtExitRepeatsTheHintOfTheReportBefore() {
    ConfigReporter reporter = new ConfigReporter(null);
    String plain =
        "weir.yaml:3: the pattern com.acme.Ordr#place of 'orders' has matched no method yet";
    String hinted = plain + " (the closest loaded class is com.acme.Order)";
    assertEquals(hinted, reporter.noteHint(hinted));
    assertEquals(hinted, reporter.withLastHint(plain), "at exit: the same line, hint included");
    String other = "weir.yaml:9: the pattern a.B#c of 'x' has matched no method yet";
    assertEquals(other, reporter.withLastHint(other), "no hint was found for it: as it is");
  }
}
