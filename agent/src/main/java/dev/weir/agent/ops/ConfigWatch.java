package dev.weir.agent.ops;

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
 * link (as Kubernetes mounts a ConfigMap) is followed. A file that cannot be read (deleted, a
 * directory, a link whose target is gone) for a second is a failed reload, counted once until what
 * the file holds changes again; the limits stay as they were. Runs on the management thread.
 */
final class ConfigWatch implements Runnable {
  private final AgentBean agent;
  private final Weaving weaving;
  private volatile boolean on;

  /** What the file held when last applied or refused, and at the last look. */
  private Look settled;

  private Look seen;

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
    String path = weaving.configPath();
    if (watch && !on && path != null) {
      settled = Look.at(path);
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
    Look now = Look.at(path);
    if (now.same(settled)) {
      seen = now;
      return;
    }
    if (!now.same(seen)) {
      seen = now; // changed since the last look: wait until it stays the same for a second
      return;
    }
    settled = now;
    if (now.content != null) {
      agent.reload(path, now.content);
    } else {
      agent.unreadable(path, now.problem);
    }
  }

  /** What a look at the file found: its bytes, or why it could not be read. */
  private static final class Look {
    final byte[] content;
    final IOException problem;

    private Look(byte[] content, IOException problem) {
      this.content = content;
      this.problem = problem;
    }

    static Look at(String path) {
      try {
        return new Look(Files.readAllBytes(new File(path).toPath()), null);
      } catch (IOException e) {
        return new Look(null, e);
      }
    }

    boolean same(Look other) {
      return other != null
          && (content != null
              ? Arrays.equals(content, other.content)
              : other.problem != null && problem.toString().equals(other.problem.toString()));
    }
  }
}
