package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.weave.Weaving;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;

/**
 * {@code watch=true}: reads the config file once a second and reloads it once its content has
 * changed and then stayed the same for a second, so that a file being written is never applied
 * half-written (and a half-written file that stays so is refused, as any bad file, and applied once
 * complete). The file is read through its path each time, so a file replaced through a symbolic
 * link (as Kubernetes mounts a ConfigMap) is followed. Runs on the management thread.
 */
final class ConfigWatch implements Runnable {
  private final AgentBean agent;
  private final Weaving weaving;
  private volatile boolean on;

  /** The content last applied or refused, and the content seen at the last look. */
  private byte[] settled;

  private byte[] seen;
  private String unreadable;

  ConfigWatch(AgentBean agent, Weaving weaving) {
    this.agent = agent;
    this.weaving = weaving;
  }

  /**
   * Switches watching on or off; on, the file's content now counts as applied.
   *
   * @param watch true to watch
   */
  synchronized void set(boolean watch) {
    if (watch && !on) {
      settled = read(weaving.configPath());
      seen = settled;
    }
    on = watch;
  }

  @Override
  public synchronized void run() {
    String path = weaving.configPath();
    if (!on || path == null) {
      return;
    }
    byte[] now = read(path);
    if (now == null) {
      return; // reported once by read
    }
    if (Arrays.equals(now, settled)) {
      seen = now;
      return;
    }
    if (!Arrays.equals(now, seen)) {
      seen = now; // changed since the last look: wait until it stays the same for a second
      return;
    }
    settled = now;
    agent.reload(path, now);
  }

  private byte[] read(String path) {
    if (path == null) {
      return null;
    }
    try {
      byte[] content = Files.readAllBytes(new File(path).toPath());
      unreadable = null;
      return content;
    } catch (IOException e) {
      String problem = String.valueOf(e);
      if (!problem.equals(unreadable)) {
        AgentLog.error(
            path + ": the watched config file cannot be read (" + problem + "); limits stay");
        unreadable = problem;
      }
      return null;
    }
  }
}
