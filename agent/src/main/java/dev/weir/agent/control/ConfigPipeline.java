package dev.weir.agent.control;

import dev.weir.agent.backend.BackendSettings;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.http.HttpGate;
import dev.weir.agent.config.ConfigFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The one way a config file becomes live limits, for the agent's start, a reload, an attach and the
 * config watch alike: read the file; check it whole (the file's own rules, the key types its
 * patterns name, the live changes the kept limiters must accept), so that nothing applies unless
 * everything can; register its limiters (a reload keeps those that can carry on, {@link
 * LimitSet#reload}); install its {@code http} entries and settings in the gate. What to weave is
 * the weaving's part: it reads the patterns from {@link Applied#limits} and weaves again.
 *
 * <p>Not thread-safe: one start or reload at a time (the start runs under the initializer's lock,
 * reloads under {@code Weaving}'s).
 */
public final class ConfigPipeline {
  private ConfigPipeline() {}

  /** What a config file came to: applied, with what changed, or refused with every error. */
  public static final class Applied {
    /** The file as read; null when refused before it could be read whole. */
    public final ConfigFile file;

    /** The limits from now on: the file's when applied, those that stay when refused. */
    public final LimitSet limits;

    /** The limits before: {@code null} at the start. */
    private final LimitSet previous;

    /** A reload's account of each entry; null at the start and when refused. */
    public final LimitSet.Reload reload;

    /** Every error, naming file, line and key; empty when applied. */
    public final List<String> errors;

    /**
     * One line per change (entries, backend, http settings), as the reload's log line and the
     * {@code reload} command show them; empty at the start.
     */
    public final List<String> changes;

    private Applied(
        ConfigFile file,
        LimitSet limits,
        LimitSet previous,
        LimitSet.Reload reload,
        List<String> errors,
        List<String> changes) {
      this.file = file;
      this.limits = limits;
      this.previous = previous;
      this.reload = reload;
      this.errors = Collections.unmodifiableList(errors);
      this.changes = Collections.unmodifiableList(changes);
    }

    /**
     * Whether the file applied.
     *
     * @return true if its limits are live now
     */
    public boolean applied() {
      return errors.isEmpty();
    }

    /**
     * Closes the connection of a backend the file no longer uses; called once the weaving binds to
     * the new limits, so that no call goes to the old backend after it closed.
     */
    public void retirePrevious() {
      BackendSettings before = previous == null ? null : previous.backend();
      if (applied() && before != null && before != limits.backend()) {
        before.close(); // its cluster limits were replaced: their calls go elsewhere now
      }
    }
  }

  /**
   * The agent's start: reads the config file and applies it.
   *
   * @param path the config file's path, as the agent's {@code config=} gave it
   * @param clock the time source of the limiters
   * @return what it came to; the errors are the caller's to report
   */
  public static Applied start(String path, NanoClock clock) {
    return apply(ConfigFile.read(path), null, clock);
  }

  /**
   * A reload: reads the new version of the config file and applies it whole, or not at all.
   *
   * @param path the file's path, for messages
   * @param content the file's bytes
   * @param current the limits now live
   * @param clock the time source of new limiters
   * @return what it came to; refused, {@code current} stays, changed in nothing
   */
  public static Applied reload(String path, byte[] content, LimitSet current, NanoClock clock) {
    return apply(ConfigFile.read(path, content), current, clock);
  }

  private static Applied apply(ConfigFile read, LimitSet current, NanoClock clock) {
    List<String> errors = check(read, current);
    if (!errors.isEmpty()) {
      return new Applied(
          read,
          current == null ? LimitSet.NONE : current,
          current,
          null,
          errors,
          new ArrayList<String>());
    }
    for (String warning : read.warnings()) {
      AgentLog.warn(warning);
    }
    List<String> changes = new ArrayList<String>();
    LimitSet.Reload reload = null;
    LimitSet next;
    if (current == null) {
      next = LimitSet.register(read.limits(), clock, BackendSettings.of(read));
    } else {
      reload = current.reload(read.limits(), clock, BackendSettings.of(read));
      next = reload.next;
      changes.addAll(reload.changes);
      if (current.backend() != next.backend()) {
        changes.add(
            "backend changed: " + (next.backend() == null ? "none" : next.backend().toString()));
      }
    }
    String httpBefore = HttpGate.settingsInWords();
    HttpGate.setMaxBlockedThreads(read.maxBlockedThreads());
    HttpGate.install(
        next.httpRules(),
        read.trustedProxies(),
        read.httpStatus(),
        read.answerLimitedMethods(),
        read.ipv6PrefixLength());
    if (current != null && !httpBefore.equals(HttpGate.settingsInWords())) {
      changes.add("http settings changed: " + HttpGate.settingsInWords());
    }
    return new Applied(read, next, current, reload, new ArrayList<String>(), changes);
  }

  /**
   * Every reason the file cannot apply, none of it applied: the file's own errors; then the key
   * types its patterns name that print as their identity; then the live changes the limiters it
   * keeps would refuse.
   */
  private static List<String> check(ConfigFile read, LimitSet current) {
    List<String> errors = read.errors();
    if (errors.isEmpty()) {
      errors = KeyTypes.configErrors(read.limits(), ClassLoader.getSystemClassLoader());
    }
    if (errors.isEmpty() && current != null) {
      errors = current.reloadErrors(read.limits());
    }
    return errors;
  }
}
