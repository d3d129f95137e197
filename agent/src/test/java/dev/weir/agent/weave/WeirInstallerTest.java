package dev.weir.agent.weave;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.weir.agent.bootstrap.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** What the installer asks of the JVM's instrumentation, with the instrumentation stubbed. */
@ExtendWith(MockitoExtension.class)
class WeirInstallerTest {
  @Mock Instrumentation instrumentation;

  @AfterEach
  void restoreLogLevel() {
    AgentLog.setLevel(AgentLog.INFO);
  }

  @Test
  void killSwitchInstallsNothing() {
    WeirInstaller.install("enabled=false,log=off", instrumentation, true, "0");
    verify(instrumentation, never()).addTransformer(any(ClassFileTransformer.class), anyBoolean());
    verify(instrumentation, never()).getAllLoadedClasses();
  }

  @Test
  void premainWithoutConfigInstallsATransformerThatNeedsNoRetransformation() {
    WeirInstaller.install("log=off", instrumentation, true, "0");
    verify(instrumentation).addTransformer(any(WeirTransformer.class), eq(false));
    verify(instrumentation, never()).getAllLoadedClasses();
  }

  @Test
  void attachLooksAtTheClassesAlreadyLoaded() throws Exception {
    when(instrumentation.getAllLoadedClasses()).thenReturn(new Class<?>[] {String.class});
    WeirInstaller.install("log=off", instrumentation, false, "0");
    verify(instrumentation).addTransformer(any(WeirTransformer.class), eq(true));
    verify(instrumentation).getAllLoadedClasses();
    verify(instrumentation, never()).retransformClasses(any(Class[].class));
  }
}
