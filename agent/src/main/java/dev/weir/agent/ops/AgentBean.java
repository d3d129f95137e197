package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.weave.Weaving;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * The agent's MBean, and the one way a config reload is made (the operation, an attach with {@code
 * config=}, a watch), so that every reload is counted. Thread-safe.
 */
final class AgentBean implements AgentMBean {
  private final Weaving weaving;
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile String lastError = "";

  /** The MBeans shown, for {@link #limiterTable}; set once the management thread is made. */
  private volatile Management management;

  AgentBean(Weaving weaving) {
    this.weaving = weaving;
  }

  /**
   * Reloads, counting the outcome.
   *
   * @param path the file to read; null for the current config file
   * @param content its bytes, read already; null to read them
   * @return what changed, or every error
   */
  Weaving.Reloaded reload(String path, byte[] content) {
    return counted(content == null ? weaving.reload(path) : weaving.reload(path, content));
  }

  /**
   * A watched file found unreadable: a failed reload, counted.
   *
   * @param path the file
   * @param problem why it cannot be read
   */
  void unreadable(String path, IOException problem) {
    counted(weaving.unreadable(path, problem));
  }

  private Weaving.Reloaded counted(Weaving.Reloaded r) {
    if (r.applied) {
      succeeded.incrementAndGet();
    } else {
      failed.incrementAndGet();
      lastError = String.join("\n", r.lines);
    }
    return r;
  }

  @Override
  public String getVersion() {
    return weaving.version();
  }

  @Override
  public String getConfigFile() {
    String path = weaving.configPath();
    return path == null ? "" : path;
  }

  @Override
  public String[] getLimiters() {
    return limiterNames();
  }

  /**
   * The names of the JVM's limiters, each once however many class loaders hold a limiter of that
   * name: what {@code Limiters} shows and {@code list} counts.
   *
   * @return the names, sorted
   */
  static String[] limiterNames() {
    TreeSet<String> names = new TreeSet<String>();
    for (LimiterRegistry.Slot slot : LimiterRegistry.bucketLimiters()) {
      names.add(slot.limiter.name());
    }
    return names.toArray(new String[0]);
  }

  /**
   * Shows the limiters this management registers in {@link #limiterTable}.
   *
   * @param management the agent's management thread
   */
  void tableOf(Management management) {
    this.management = management;
  }

  @Override
  public CompositeData limiterTable() {
    Management m = management;
    return LimiterTable.of(
        m == null ? Collections.<Limiter, ObjectName>emptyMap() : m.limiterBeans());
  }

  @Override
  public long getReloadsSucceeded() {
    return succeeded.get();
  }

  @Override
  public long getReloadsFailed() {
    return failed.get();
  }

  @Override
  public String getLastReloadError() {
    return lastError;
  }

  @Override
  public String reloadConfig() {
    Weaving.Reloaded r = reload(null, null);
    if (!r.applied) {
      throw new IllegalArgumentException(String.join("\n", r.lines));
    }
    List<String> lines = new ArrayList<String>(r.lines);
    return lines.isEmpty() ? "nothing changed" : String.join("\n", lines);
  }
}
