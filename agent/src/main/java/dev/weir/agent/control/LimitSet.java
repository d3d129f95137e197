package dev.weir.agent.control;

import dev.weir.agent.backend.BackendSettings;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.http.HttpRule;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.ConfigLimit;
import dev.weir.agent.config.LimitSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The config file's limits, registered as limiters: by name (an entry without {@code methods}
 * overrides the annotated limiter of that name), each under its registry id. One object per version
 * of the file: a reload ({@link #reload}) builds the next, keeping the limiter (and its state) of
 * each entry whose kind, key, scope and patterns stayed, with a live change of its rate, capacity
 * and dry run. What to weave is read from it by the weaving ({@link #entries}, {@link #idOf}): the
 * patterns and the limiter each binds to.
 *
 * <p>Immutable after construction, but for the names annotated limiters have claimed ({@link
 * #override}), which weaving threads note concurrently. Registration and reload run on one thread
 * at a time (the agent's start, or a reload under {@code Weaving}'s lock).
 */
public final class LimitSet {
  /** No config file: no limits. */
  public static final LimitSet NONE = new LimitSet(null);

  private final Map<String, Integer> idsByName = new LinkedHashMap<String, Integer>();
  private final Map<String, ConfigLimit> limitsByName = new LinkedHashMap<String, ConfigLimit>();

  /** The entries without methods or http: name to origin ({@code weir.yaml:7}). */
  private final Map<String, String> overrides = new LinkedHashMap<String, String>();

  /** The file's backend, shared with the versions before and after that keep it; or null. */
  private final BackendSettings backend;

  /** The names of entries that annotated limiters were found for (their calls redirected). */
  private final Set<String> claimed =
      Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

  private LimitSet(BackendSettings backend) {
    this.backend = backend;
  }

  /**
   * Registers a limiter for each config limit, those of {@code scope: cluster} on the backend.
   *
   * @param limits the config file's limits, valid
   * @param clock the time source
   * @param backend the file's backend settings; null if it names none (then it has no cluster
   *     limits)
   * @return the registered limits
   */
  public static LimitSet register(
      List<ConfigLimit> limits, NanoClock clock, BackendSettings backend) {
    LimitSet set = new LimitSet(backend);
    if (backend != null) {
      backend.connect(); // in the background: the first acquire finds it ready
    }
    for (ConfigLimit limit : limits) {
      set.add(
          limit, LimiterRegistry.register("name " + limit.name(), set.newLimiter(limit, clock)));
    }
    return set;
  }

  private BucketLimiter newLimiter(ConfigLimit limit, NanoClock clock) {
    return Limiters.newLimiter(
        limit.spec(),
        limit.name(),
        limit.origin(),
        clock,
        limit.dryRun(),
        limit.cluster() ? backend.scopeFor(limit) : null);
  }

  private void add(ConfigLimit limit, int id) {
    idsByName.put(limit.name(), id);
    limitsByName.put(limit.name(), limit);
    if (limit.patterns().isEmpty() && !limit.isHttp()) {
      overrides.put(limit.name(), limit.origin());
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "config limit '"
              + limit.name()
              + "' from "
              + limit.origin()
              + ": "
              + ((BucketLimiter) LimiterRegistry.limiter(id)).currentSettings()
              + (limit.patterns().isEmpty() ? " (overrides the annotated limiter)" : ""));
    }
  }

  /**
   * The file's backend settings.
   *
   * @return the settings; null if the file names no backend
   */
  public BackendSettings backend() {
    return backend;
  }

  /**
   * The entries, in file order.
   *
   * @return the config limits, unmodifiable
   */
  public Collection<ConfigLimit> entries() {
    return Collections.unmodifiableCollection(limitsByName.values());
  }

  /**
   * The registry id of the entry of this name.
   *
   * @param name an entry's name
   * @return its limiter's id; -1 if the file has no entry of that name
   */
  public int idOf(String name) {
    Integer id = idsByName.get(name);
    return id == null ? -1 : id;
  }

  /** What a reload did: the next limits, what changed, and which entries kept their limiter. */
  public static final class Reload {
    /** The limits from now on. */
    public final LimitSet next;

    /** One line per entry changed, added, replaced or removed; empty if nothing changed. */
    public final List<String> changes = new ArrayList<String>();

    /** The names of the entries that kept their limiter (and so their woven classes). */
    public final Set<String> kept = new LinkedHashSet<String>();

    /** Whether a pattern, its key or the limiter it binds to changed: woven classes may change. */
    public boolean patternsChanged;

    Reload(LimitSet next) {
      this.next = next;
    }
  }

  /**
   * The errors a reload to {@code limits} would meet in the limiters it keeps (a live change the
   * core refuses), none applied: a reload is validated whole before anything changes.
   *
   * @param limits the new file's limits, valid as a file
   * @return one line per error, naming file and line; empty if the reload can be applied
   */
  public List<String> reloadErrors(List<ConfigLimit> limits) {
    List<String> errors = new ArrayList<String>();
    for (ConfigLimit limit : limits) {
      ConfigLimit before = limitsByName.get(limit.name());
      if (before != null && sameShape(before, limit)) {
        BucketLimiter limiter =
            (BucketLimiter) LimiterRegistry.limiter(idsByName.get(limit.name()));
        LimitSpec s = limit.spec();
        String refused = limiter.checkChange(s.rate(), s.per(), s.capacity());
        if (refused != null) {
          errors.add(limit.origin() + ": " + refused);
        }
      }
    }
    return errors;
  }

  /**
   * Applies a new version of the file, validated whole by the caller ({@link #reloadErrors}
   * included): an entry whose kind, mode, permits, {@code onLimit}, {@code maxWaitMillis}, {@code
   * warmUpMillis}, key, scope and patterns stayed keeps its limiter, with a live change of rate,
   * capacity and dry run; any other entry gets a new limiter in place of the old (state as a new
   * one's); entries removed stop limiting once their classes are woven again. The calls of
   * annotated limiters of an entry's name go to the entry's limiter (an override), at once; when
   * the entry goes, they go back to their own. Backend settings alike keep the connection and the
   * cluster limits; other settings replace every cluster limit (their buckets are elsewhere now),
   * and the caller closes the old connection once {@code next} is installed.
   *
   * @param limits the new file's limits
   * @param clock the time source of new limiters
   * @param backend the new file's backend settings, or null
   * @return what changed; the caller installs {@code next} and weaves again
   */
  public Reload reload(List<ConfigLimit> limits, NanoClock clock, BackendSettings backend) {
    boolean backendKept = this.backend != null && this.backend.sameAs(backend);
    Reload reload = new Reload(new LimitSet(backendKept ? this.backend : backend));
    if (reload.next.backend != null) {
      reload.next.backend.connect();
    }
    for (ConfigLimit limit : limits) {
      ConfigLimit before = limitsByName.get(limit.name());
      boolean kept =
          before != null && sameShape(before, limit) && (backendKept || !limit.cluster());
      int id = kept ? keep(limit, reload) : replace(limit, before, clock, reload);
      reload.next.add(limit, id);
    }
    for (ConfigLimit before : limitsByName.values()) {
      if (!reload.next.limitsByName.containsKey(before.name())) {
        int id = LimiterRegistry.supersede("name " + before.name());
        reload.changes.add("'" + before.name() + "' removed");
        reload.next.redirectAnnotated(before.name(), null, id, -1); // back to their own
        reload.patternsChanged |= !before.patterns().isEmpty();
      }
    }
    return reload;
  }

  /** An entry that keeps its limiter: a live change of rate, capacity and dry run. */
  private int keep(ConfigLimit limit, Reload reload) {
    LimitSpec s = limit.spec();
    int id = idsByName.get(limit.name());
    BucketLimiter limiter = (BucketLimiter) LimiterRegistry.limiter(id);
    if (limiter.change(s.rate(), s.per(), s.capacity(), limit.dryRun())) {
      reload.changes.add("'" + limit.name() + "' changed: " + limiter.currentSettings());
    }
    if (claimed.contains(limit.name())) {
      reload.next.claimed.add(limit.name());
    }
    reload.kept.add(limit.name());
    return id;
  }

  /** An entry that is new, or whose limiter cannot carry on: a new limiter under its name. */
  private int replace(ConfigLimit limit, ConfigLimit before, NanoClock clock, Reload reload) {
    BucketLimiter limiter = reload.next.newLimiter(limit, clock);
    int id = LimiterRegistry.replace("name " + limit.name(), limiter, null);
    reload.changes.add(
        "'"
            + limit.name()
            + (before == null ? "' added: " : "' replaced: ")
            + limiter.currentSettings());
    reload.patternsChanged |=
        !limit.patterns().isEmpty() || before != null && !before.patterns().isEmpty();
    Integer oldId = idsByName.get(limit.name());
    if (!limit.isHttp()
        && reload.next.redirectAnnotated(limit.name(), limiter, id, oldId == null ? -1 : oldId)) {
      reload.next.claimed.add(limit.name());
    }
    return id;
  }

  /**
   * Redirects the calls of the annotated limiters named {@code name} to {@code target}, or back to
   * their own ({@code target} null).
   *
   * @param configId the entry's new id, not an annotated limiter's
   * @param oldConfigId the entry's previous id, -1 if none
   * @return true if there was an annotated limiter of that name
   */
  private boolean redirectAnnotated(String name, Limiter target, int configId, int oldConfigId) {
    boolean any = false;
    Set<Limiter> continued = Collections.newSetFromMap(new IdentityHashMap<Limiter, Boolean>());
    for (int id : LimiterRegistry.idsNamed(name)) {
      if (id != configId && id != oldConfigId) {
        // the limiter that takes the calls carries on the state of the one that had them, when
        // they treat calls alike: an override that comes or goes is a live change, not a fresh
        // burst
        Limiter serving = LimiterRegistry.limiter(id);
        Limiter next = target != null ? target : LimiterRegistry.original(id);
        if (next != serving
            && next instanceof BucketLimiter
            && serving instanceof BucketLimiter
            && ((BucketLimiter) next).sameShape((BucketLimiter) serving)
            && continued.add(next)) {
          ((BucketLimiter) next).continueFrom((BucketLimiter) serving);
        }
        LimiterRegistry.redirect(id, target);
        any = true;
      }
    }
    return any;
  }

  /**
   * Whether two versions of an entry can share one limiter: all but rate, capacity and dry run
   * agree (those change live).
   *
   * @param a one version
   * @param b the other
   * @return true if they can
   */
  public static boolean sameShape(ConfigLimit a, ConfigLimit b) {
    LimitSpec x = a.spec();
    LimitSpec y = b.spec();
    return x.discipline() == y.discipline()
        && x.permits() == y.permits()
        && x.waitOnLimit() == y.waitOnLimit()
        && x.maxWaitMillis() == y.maxWaitMillis()
        && x.warmUpMillis() == y.warmUpMillis()
        && a.keyIndex() == b.keyIndex()
        && a.patterns().toString().equals(b.patterns().toString())
        && a.paths().toString().equals(b.paths().toString())
        && a.httpMethods().equals(b.httpMethods())
        && String.valueOf(a.httpKey()).equals(String.valueOf(b.httpKey()))
        && a.onBackendFailure() == b.onBackendFailure();
  }

  /**
   * The config limit overriding the annotated limiter {@code name}, if the file names one: the
   * calls of {@code annotatedId} are redirected to it. Thread-safe.
   *
   * @param name the annotated limiter's name
   * @param annotatedId its id
   * @return the config limit's limiter, or null if the file has no entry of that name
   */
  public Limiter override(String name, int annotatedId) {
    Integer id = idsByName.get(name);
    if (id == null || limitsByName.get(name).isHttp()) {
      return null;
    }
    Limiter target = LimiterRegistry.limiter(id);
    LimiterRegistry.redirect(annotatedId, target);
    claimed.add(name);
    return target;
  }

  /**
   * The entries that override an annotated limiter and have found none yet.
   *
   * @return {@code origin: 'name' ...} lines, in file order
   */
  public List<String> unclaimedOverrides() {
    List<String> lines = new ArrayList<String>();
    for (Map.Entry<String, String> override : overrides.entrySet()) {
      if (!claimed.contains(override.getKey())) {
        lines.add(
            override.getValue()
                + ": '"
                + override.getKey()
                + "' overrides an annotated limiter, but no annotated method of that name has"
                + " loaded yet");
      }
    }
    return lines;
  }

  /**
   * The {@code http} entries as messages name them: {@code weir.yaml:7: the http entry 'api'}.
   *
   * @return one line each, in file order
   */
  public List<String> httpEntries() {
    List<String> entries = new ArrayList<String>();
    for (ConfigLimit limit : limitsByName.values()) {
      if (limit.isHttp()) {
        entries.add(limit.origin() + ": the http entry '" + limit.name() + "'");
      }
    }
    return entries;
  }

  /**
   * The {@code http} entries, as the gate applies them.
   *
   * @return one rule per entry, in file order
   */
  public List<HttpRule> httpRules() {
    List<HttpRule> rules = new ArrayList<HttpRule>();
    for (ConfigLimit limit : limitsByName.values()) {
      if (limit.isHttp()) {
        LimitSpec s = limit.spec();
        rules.add(
            new HttpRule(
                idsByName.get(limit.name()),
                limit.name(),
                limit.paths(),
                limit.httpMethods(),
                limit.httpKey(),
                s.waitOnLimit() || s.discipline() == Discipline.SHAPING));
      }
    }
    return rules;
  }

  /**
   * Whether the file has an entry of this name that can override an annotated limiter.
   *
   * @param name a limiter name
   * @return true if it has
   */
  public boolean names(String name) {
    ConfigLimit limit = limitsByName.get(name);
    return limit != null && !limit.isHttp(); // an http entry overrides no annotated limiter
  }

  /**
   * The entries' names.
   *
   * @return the names, in file order
   */
  public List<String> names() {
    return new ArrayList<String>(idsByName.keySet());
  }

  /**
   * The limiters of this file's entries that run dry now (a live change may have switched one).
   *
   * @return the limiters
   */
  public List<BucketLimiter> dryRuns() {
    List<BucketLimiter> dry = new ArrayList<BucketLimiter>();
    for (Integer id : idsByName.values()) {
      Limiter limiter = LimiterRegistry.limiter(id);
      if (limiter instanceof BucketLimiter && ((BucketLimiter) limiter).dryRun()) {
        dry.add((BucketLimiter) limiter);
      }
    }
    return dry;
  }

  /**
   * Whether this limiter is the file's entry of that name.
   *
   * @param name the limiter's name
   * @param limiter the limiter
   * @return true if the file's entry of that name is served by it
   */
  public boolean isEntryLimiter(String name, Limiter limiter) {
    Integer id = idsByName.get(name);
    return id != null && LimiterRegistry.limiter(id) == limiter;
  }
}
