package dev.weir.agent.bootstrap.http;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Draining;
import dev.weir.agent.bootstrap.limit.LimitGroup;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.bootstrap.limit.Reservation;
import dev.weir.agent.bootstrap.limit.WeirBridge;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The limit at the entrance of every web application (docs/web-apps.md): what the prologue woven
 * into each {@code doFilter(ServletRequest, ServletResponse, FilterChain)} and each {@code
 * service(ServletRequest, ServletResponse)} of {@code javax.servlet} and {@code jakarta.servlet}
 * calls first:
 *
 * <pre>{@code
 * if (!HttpGate.enter(request, response)) return;  // a filter's; limited: answered already
 * if (!HttpGate.pass(request, response)) return;   // a servlet's
 * ...the original body...
 * }</pre>
 *
 * and what a container's call of {@code filter.doFilter(...)} or {@code servlet.service(...)}
 * through the interface becomes ({@link #filter}, {@link #service}), which reaches filters and
 * servlets whose own class cannot be woven (a lambda's).
 *
 * <p><b>Where.</b> The first of those a request meets is its entrance: the container's first call
 * into the application, before any of its filters has run, whatever the container (its own
 * pipeline, valves and handlers, differs from one container to the next and is the operator's: a
 * proxy setting there is honoured). Every entry but those keyed by {@code user} is applied there,
 * so a request a filter answers (a login form a security filter checks) is limited too, and a
 * limited request never reaches a filter. The {@code user} entries are applied where the request
 * reaches a servlet, after the filters, on the principal of the request as they wrapped it; a
 * request they limit gets the entrance's permits back ({@link HttpPassage}), so it is charged by
 * none. A request that meets no filter is decided whole at its servlet.
 *
 * <p><b>Once per request.</b> A request is matched ({@link RequestMatch}) on the path it arrived
 * with, inside the application, as the container decoded and normalised it ({@code getServletPath()
 * + getPathInfo()}; for a forward or an async dispatch, the original path the container keeps in
 * {@code *.forward.*} and {@code *.async.*} attributes), and, where the container left dot segments
 * or path parameters in it, on its normalised forms too ({@link PathPattern#otherForms}). The
 * entrance marks it with the attribute {@value #COUNTED}, matched or not, and every later filter,
 * servlet, forward, include and async dispatch passes at once, after one {@code getAttribute}. An
 * error dispatch is never limited: it answers a request that has failed already.
 *
 * <p><b>All entries apply.</b> Every matching entry is consulted, those that answer at once before
 * those that may wait; the first that limits the request answers it, and the permits the earlier
 * ones took are given back ({@link Limiter#refund}), so a limited request is charged by none.
 *
 * <p><b>Waiting.</b> An entry that may make a request wait ({@code WAIT}, SHAPING) gives it a
 * departure slot where it is charged, at the entrance; it waits for the slot where it reaches its
 * servlet: one that passed no filter is suspended with the servlet API's async and dispatched again
 * by the container at its slot; one that passed filters waits on its thread inside them, as does
 * one that cannot be suspended, within {@code http.maxBlockedThreads}, or is limited at once beyond
 * them ({@link HttpPassage}, {@link HttpWaits}). An answer a filter gives before the request's slot
 * is held until it if not sent yet.
 *
 * <p><b>The answer</b> ({@link LimitedAnswer}) is written directly, never through {@code sendError}
 * (which would run the application's error pages): the {@code http.status} (429 by default), {@code
 * Retry-After} in whole seconds rounded up and at least 1, and a one-line {@code text/plain} body
 * naming the limit, with a {@code Content-Length} so the connection stays open. A request refused
 * because the JVM is shutting down ({@code drainOnExit}) gets 503 and no {@code Retry-After}.
 * Nothing is logged per request. A request whose limit cannot be applied (the application's request
 * wrapper throws, say) is refused with an {@link IllegalStateException} naming the entry: the
 * container answers 500.
 *
 * <p><b>Keys</b> ({@link RequestKeys}). {@code client} is read from the container's own request
 * beneath every request wrapper, so no filter chooses it; an IPv6 client is keyed by its network of
 * {@code http.ipv6PrefixLength} bits ({@code 2001:db8:0:0:0:0:0:0/64}).
 *
 * <p><b>Limited methods.</b> A {@code RateLimitedException} that escapes the servlet a container
 * calls through {@link #service} (thrown by a limited method the servlet called, and perhaps
 * wrapped by a framework) gets the same answer, with the limiter's name and retry-after, unless
 * {@code http.answerLimitedMethods} is false or the response is committed: a limit in a controller
 * is a 429, not a 500 and a stack trace in the application's log. The catch sits at the container's
 * call of the servlet, inside the application's filters, so a filter sees a request answered
 * normally, as it did when the gate sat there too; one that escapes a filter (a limited method the
 * filter called) is answered at the container's call of that filter ({@link #filter}), inside the
 * filters around it.
 *
 * <p>Thread-safe. The rules are replaced whole by a reload ({@link #install}).
 */
public final class HttpGate {
  /** The request attribute that marks a request counted already. */
  public static final String COUNTED = "dev.weir.counted";

  /** Plain wrappers looked inside, at most, around a request or a response. */
  static final int MAX_WRAPPERS = 64;

  /** {@code http.ipv6PrefixLength} by default: one host commonly holds a whole /64. */
  public static final int DEFAULT_IPV6_PREFIX_LENGTH = 64;

  private static volatile Settings settings =
      new Settings(new HttpRule[0], new AddressBlock[0], 429, true, DEFAULT_IPV6_PREFIX_LENGTH);

  /** Whether a servlet API that cannot be called was logged (once per JVM). */
  private static volatile boolean brokenReported;

  private HttpGate() {}

  static final class Settings {
    final HttpRule[] rules;
    final AddressBlock[] proxies;
    final int status;
    final boolean answerMethods;
    final int ipv6Prefix;

    Settings(
        HttpRule[] rules,
        AddressBlock[] proxies,
        int status,
        boolean answerMethods,
        int ipv6Prefix) {
      this.rules = rules;
      this.proxies = proxies;
      this.status = status;
      this.answerMethods = answerMethods;
      this.ipv6Prefix = ipv6Prefix;
    }
  }

  /**
   * Installs the config file's {@code http} entries, replacing those before, with {@code
   * http.answerLimitedMethods} on (its default). Thread-safe: a request reads the settings once,
   * whole.
   *
   * @param rules the entries, in file order
   * @param trustedProxies {@code http.trustedProxies}
   * @param status {@code http.status}, 400..599
   */
  public static void install(List<HttpRule> rules, List<AddressBlock> trustedProxies, int status) {
    install(rules, trustedProxies, status, true);
  }

  /**
   * Installs the config file's {@code http} entries and settings, replacing those before.
   *
   * @param rules the entries, in file order
   * @param trustedProxies {@code http.trustedProxies}
   * @param status {@code http.status}, 400..599
   * @param answerLimitedMethods {@code http.answerLimitedMethods}: whether a {@code
   *     RateLimitedException} that escapes a servlet is answered as a limited request
   */
  public static void install(
      List<HttpRule> rules,
      List<AddressBlock> trustedProxies,
      int status,
      boolean answerLimitedMethods) {
    install(rules, trustedProxies, status, answerLimitedMethods, DEFAULT_IPV6_PREFIX_LENGTH);
  }

  /**
   * Installs the config file's {@code http} entries and settings, replacing those before.
   *
   * @param rules the entries, in file order
   * @param trustedProxies {@code http.trustedProxies}
   * @param status {@code http.status}, 400..599
   * @param answerLimitedMethods {@code http.answerLimitedMethods}
   * @param ipv6PrefixLength {@code http.ipv6PrefixLength}, 1..128: a {@code client} key is the
   *     client's IPv6 address's network of this many bits
   * @throws IllegalArgumentException for a prefix length outside 1..128
   */
  public static synchronized void install(
      List<HttpRule> rules,
      List<AddressBlock> trustedProxies,
      int status,
      boolean answerLimitedMethods,
      int ipv6PrefixLength) {
    if (ipv6PrefixLength < 1 || ipv6PrefixLength > 128) {
      throw new IllegalArgumentException(
          "http.ipv6PrefixLength must be from 1 to 128, was " + ipv6PrefixLength);
    }
    List<HttpRule> ordered = new ArrayList<HttpRule>();
    for (HttpRule rule : rules) {
      if (!rule.waits) {
        ordered.add(rule);
      }
    }
    for (HttpRule rule : rules) {
      if (rule.waits) {
        ordered.add(rule); // a request waits only once every entry that answers at once admits it
      }
    }
    settings =
        new Settings(
            ordered.toArray(new HttpRule[0]),
            trustedProxies.toArray(new AddressBlock[0]),
            status,
            answerLimitedMethods,
            ipv6PrefixLength);
  }

  /**
   * Sets {@code http.maxBlockedThreads}: how many requests that cannot be suspended may hold their
   * thread while they wait, at once in the JVM; one beyond them that would have to wait is limited
   * at once. Applies to requests that start waiting from now on.
   *
   * @param max threads, {@code >= 0}; 0: no request ever holds its thread to wait
   * @throws IllegalArgumentException if {@code max < 0}
   */
  public static void setMaxBlockedThreads(int max) {
    HttpWaits.setMaxBlockedThreads(max);
  }

  /**
   * The top-level {@code http} settings installed, in words, for the line a reload logs.
   *
   * @return for example {@code status 429, trustedProxies [10.0.0.0/8], answerLimitedMethods true}
   *     ({@code , ipv6PrefixLength 48} and {@code , maxBlockedThreads 2} follow when they are not
   *     the defaults)
   */
  public static String settingsInWords() {
    Settings s = settings;
    return "status "
        + s.status
        + ", trustedProxies "
        + java.util.Arrays.toString(s.proxies)
        + ", answerLimitedMethods "
        + s.answerMethods
        + (s.ipv6Prefix == DEFAULT_IPV6_PREFIX_LENGTH ? "" : ", ipv6PrefixLength " + s.ipv6Prefix)
        + (HttpWaits.maxBlockedThreads() == HttpWaits.DEFAULT_MAX_BLOCKED_THREADS
            ? ""
            : ", maxBlockedThreads " + HttpWaits.maxBlockedThreads());
  }

  /**
   * Whether a {@code RateLimitedException} that escapes a servlet is answered as a limited request
   * ({@code http.answerLimitedMethods}).
   *
   * @return true unless the config file turned it off
   */
  public static boolean answersLimitedMethods() {
    return settings.answerMethods;
  }

  /**
   * Whether any {@code http} entry is installed.
   *
   * @return true if requests may be limited
   */
  public static boolean hasRules() {
    return settings.rules.length > 0;
  }

  /**
   * Decides a request where it enters the application, before its filters: called first by every
   * woven {@code doFilter(ServletRequest, ServletResponse, FilterChain)}. The first call for a
   * request applies every matching entry but those keyed by {@code user}, which wait for the
   * servlet ({@link #pass}); every later call (the next filter, a forward, an async dispatch) *
   * passes at once. A request an entry makes wait waits for its slot at its servlet; the first
   * container call of a filter inside this one ({@link #filter}) sees the request end, and settles
   * a slot no servlet took over (a filter answered).
   *
   * @param request the {@code ServletRequest} the filter was called with
   * @param response its {@code ServletResponse}
   * @return true to run the filter; false if the request was limited and answered
   * @throws IllegalStateException if a matching entry cannot be applied to the request (fails
   *     closed)
   */
  public static boolean enter(Object request, Object response) {
    return decide(request, response, PROLOGUE, null) != null;
  }

  /**
   * Decides a request as it reaches a servlet: called first by every woven {@code service}. A
   * request that passed no filter is decided here whole; one that entered through a filter is
   * checked here against the {@code user} entries its path matched, with its principal as the *
   * filters set it. A request that must wait holds its thread here within {@code
   * http.maxBlockedThreads}: it is suspended only where the container's call of the servlet names
   * it ({@link #service}) and it passed no filter.
   *
   * @param request the {@code ServletRequest} the servlet was called with
   * @param response its {@code ServletResponse}
   * @return true to run the servlet; false if the request was limited and answered
   * @throws IllegalStateException if a matching entry cannot be applied to the request (fails
   *     closed)
   */
  public static boolean pass(Object request, Object response) {
    return decide(request, response, SERVLET, null) != null;
  }

  /** Where a decision is made: a filter's own prologue, which cannot see the request end. */
  private static final int PROLOGUE = 0;

  /** The container's call of a filter: it sees the request end, and settles its slots. */
  private static final int ENTRANCE = 1;

  /** A servlet. */
  private static final int SERVLET = 2;

  /** What {@link #decide} returns for a request to run on with nothing to settle. */
  private static final Object PROCEED = Boolean.TRUE;

  /**
   * {@link #enter} or {@link #pass}: null if the request was answered (or suspended); else {@link
   * #PROCEED}, or at an {@link #ENTRANCE} the request's {@link HttpPassage} to settle once the
   * filter returns.
   *
   * @param servlet at a {@link #SERVLET}, the servlet the container calls (a suspended request is
   *     checked against it where it is dispatched again); null where unknown
   */
  private static Object decide(Object request, Object response, int where, Object servlet) {
    Settings s = settings;
    if (s.rules.length == 0 || request == null || response == null) {
      return PROCEED;
    }
    // the gate is Weir's own work: what it runs of the JDK (the servlet API's handles, parsing an
    // address, splitting a path) charges no config limit, and none need refuse it
    int[] section = CallDepth.enterWeir();
    try {
      return decideOwn(s, request, response, where, servlet);
    } finally {
      section[0]--;
    }
  }

  private static Object decideOwn(
      Settings s, Object request, Object response, int where, Object servlet) {
    Object mark = countedMark(request);
    if (mark instanceof HttpPassage) {
      return decidedBefore(s, (HttpPassage) mark, request, response, where, servlet);
    }
    if (mark != null) {
      return PROCEED;
    }
    Object servletRequest = request;
    request = httpRequest(request);
    if (request == null) {
      return PROCEED; // not an HTTP request: it has no path to match
    }
    ServletApi api = usable(ServletApi.of(request));
    RequestMatch matched = RequestMatch.of(s.rules, api, request, where != SERVLET);
    if (matched == RequestMatch.NONE) {
      return PROCEED;
    }
    HttpPassage passage = new HttpPassage(matched.atServlet, api, request, response);
    if (matched.count > 0
        && !charge(s, api, request, response, matched.now, matched.count, passage)) {
      return null;
    }
    if (where == SERVLET) {
      return passage.await(s, api, request, servletRequest, response, servlet) ? PROCEED : null;
    }
    if (matched.atServlet != null || passage.waits()) {
      if (where == ENTRANCE) {
        passage.claimSettling();
        passage.passedFilter();
      }
      try {
        call(api.setAttribute, request, COUNTED, passage); // for the servlet, with the charges
      } catch (RuntimeException | Error e) {
        passage.withdraw();
        throw e;
      }
      return where == ENTRANCE ? passage : PROCEED;
    }
    return PROCEED;
  }

  /**
   * The request's {@link #COUNTED} attribute: the one call a later filter makes.
   *
   * @return null if unmarked, or no servlet request (or one whose API cannot be called: seen by the
   *     caller); {@code Boolean.TRUE} if counted; the request's {@link HttpPassage} if it holds
   *     charges or slots for its servlet
   * @throws IllegalStateException if the attributes cannot be read
   */
  private static Object countedMark(Object request) {
    MethodHandle getAttribute = ServletApi.getAttributeOf(request);
    try {
      return getAttribute == null ? null : call(getAttribute, request, COUNTED);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Weir cannot read the attributes of this request, so its http limits cannot be applied: "
              + e,
          e);
    }
  }

  /**
   * A request an earlier call decided, which left its {@link HttpPassage}: at a servlet, its {@code
   * user} entries and its wait; at the container's call of a filter, the settling of what it holds
   * once the request ends there (claimed by the first such call).
   */
  private static Object decidedBefore(
      Settings s, HttpPassage passage, Object request, Object response, int where, Object servlet) {
    if (where == SERVLET) {
      return atServlet(s, passage, request, response, servlet);
    }
    if (where == ENTRANCE) {
      passage.passedFilter(); // a request that passed a filter is never suspended
    }
    // a filter's own prologue (or a container's holder of a filter) decided it: the first
    // container call of a filter inside it sees the request end, and settles what it holds
    return where == ENTRANCE && passage.claimSettling() ? passage : PROCEED;
  }

  /**
   * Where a request that entered through a filter reaches a servlet: its {@code user} entries,
   * keyed by the principal of the request as the filters wrapped it (refused, the entrance's
   * charges go back too), then the wait for the slots it holds.
   */
  private static Object atServlet(
      Settings s, HttpPassage passage, Object request, Object response, Object servlet) {
    if (passage.resumed()) {
      return resumedAt(s, passage, request, response, servlet);
    }
    Object http = httpRequest(request);
    if (http == null) {
      return PROCEED; // no HTTP request beneath: the entrance settles its slots
    }
    ServletApi api;
    try {
      api = usable(ServletApi.of(http));
      if (String.valueOf(call(api.dispatcherType, http)).equals("ERROR")) {
        return PROCEED; // an error page of a request that failed: the entrance settles it
      }
      call(api.setAttribute, http, COUNTED, Boolean.TRUE); // once: a forward or include passes
    } catch (RuntimeException e) {
      passage.withdraw();
      throw new IllegalStateException(
          "Weir cannot read this request, so its http limits cannot be applied: " + e, e);
    }
    if (passage.users.length > 0
        && !charge(s, api, http, response, passage.users, passage.users.length, passage)) {
      return null;
    }
    return passage.await(s, api, http, request, response, servlet) ? PROCEED : null;
  }

  /**
   * Where the dispatch Weir asked for at a request's slot reaches a servlet: it runs if this is the
   * servlet it was suspended at, reached through every filter it had passed; else it is refused
   * (answered as limited, its servlet left alone), and that servlet's requests hold their thread
   * from then on ({@link HttpWaits#notResumable}).
   */
  private static Object resumedAt(
      Settings s, HttpPassage passage, Object request, Object response, Object servlet) {
    String missed = passage.missed(servlet);
    Object http = httpRequest(request);
    ServletApi api = http == null ? null : usable(ServletApi.of(http));
    if (missed == null) {
      if (api != null) {
        call(api.setAttribute, http, COUNTED, Boolean.TRUE); // a forward or include passes
      }
      return PROCEED;
    }
    HttpWaits.notResumable(passage.servlet(), passage.waitedFor(), missed);
    if (api == null) {
      throw new IllegalStateException(
          "Weir refused a request resumed " + missed + ", and cannot answer it");
    }
    LimitedAnswer.answer(api, response, s.status, RETRY_AFTER_REFUSED_NANOS, passage.waitedFor());
    return null;
  }

  /** The {@code Retry-After} of a request refused where it was resumed: one second. */
  private static final long RETRY_AFTER_REFUSED_NANOS = 1_000_000_000L;

  /** The HTTP request behind a request: itself, or what plain wrappers wrap; null if none. */
  private static Object httpRequest(Object request) {
    ServletApi api = ServletApi.of(request);
    for (int depth = 0; api == ServletApi.NONE; depth++) {
      // a plain ServletRequestWrapper a filter put around the HTTP request: look inside it
      Object inner = unwrap(request);
      if (inner == null) {
        return null;
      }
      if (depth == MAX_WRAPPERS) {
        throw new IllegalStateException(
            "Weir's http limits cannot see through more than "
                + MAX_WRAPPERS
                + " request wrappers, so the request is refused");
      }
      request = inner;
      api = ServletApi.of(request);
    }
    return request;
  }

  /** The API, if it can be called; else the request is refused, and that is logged once. */
  private static ServletApi usable(ServletApi api) {
    if (api.broken != null) {
      if (!brokenReported) {
        brokenReported = true;
        AgentLog.error("http limits cannot be applied, so every request is refused: " + api.broken);
      }
      throw new IllegalStateException(
          "Weir's http limits cannot be applied, so the request is refused: " + api.broken);
    }
    return api;
  }

  /**
   * Charges a request to the first {@code n} entries of {@code apply}, each under its key (an entry
   * whose key the request lacks is skipped), all or nothing: one entry alone takes its permits at
   * once or, if it may wait, gives the request a slot to wait for ({@link Limiter#reserve});
   * several are charged together at one departure ({@link LimitGroup#reserveAll}), so that every
   * SHAPING entry keeps its rate and a refusal gives back exactly. What the request holds is kept
   * in {@code passage}. If the request is limited, it is answered, and everything {@code passage}
   * holds is given back, so it is charged by none.
   *
   * @return true if every entry admitted the request (or gave it a slot); false if it was limited
   *     and answered
   */
  private static boolean charge(
      Settings s,
      ServletApi api,
      Object request,
      Object response,
      HttpRule[] apply,
      int n,
      HttpPassage passage) {
    HttpRule current = apply[0];
    try {
      int[] ids = new int[n];
      String[] keys = new String[n];
      HttpRule[] rules = new HttpRule[n];
      int k = 0;
      for (int m = 0; m < n; m++) {
        current = apply[m];
        String key = RequestKeys.keyFor(s, api, request, current);
        if ("".equals(key)) {
          continue; // a request without the key is not counted, as nginx does
        }
        Limiter limiter = LimiterRegistry.limiter(current.limiterId);
        if (limiter instanceof Draining) {
          limiter.acquire(); // counted rejected
          passage.withdraw();
          LimitedAnswer.answer(api, response, 503, -1, current.name);
          return false;
        }
        ids[k] = current.limiterId;
        keys[k] = key;
        rules[k++] = current;
      }
      if (k == 0) {
        return true;
      }
      current = rules[0];
      boolean alone = k == 1 && !undoable(rules[0]);
      Reservation held =
          alone
              ? reserve(rules[0], keys[0])
              : LimitGroup.reserveAll(ids, keys, k, "the http entries of one request");
      if (held.isLimited()) {
        passage.withdraw();
        String by = alone ? rules[0].name : entryOf(rules, k, LimitGroup.refusedBy());
        LimitedAnswer.answer(api, response, s.status, held.retryAfterNanos(), by);
        return false;
      }
      if (alone && !held.waits()) {
        passage.took(LimiterRegistry.limiter(rules[0].limiterId), keys[0]);
      } else if (held.waits()) {
        passage.holds(held, rules[0]);
      } else {
        passage.tookAll(held);
      }
      return true;
    } catch (RuntimeException | Error e) {
      passage.withdraw(); // refused: charged by none
      if (e instanceof Error) {
        throw (Error) e;
      }
      throw new IllegalStateException(
          "Weir cannot apply the http limit '" + current.name + "' to this request: " + e, e);
    }
  }

  /**
   * Whether an entry alone that answers at once is charged as several are ({@link
   * LimitGroup#reserveAll}), so that a {@code user} entry that limits the request later gives its
   * permits back exactly: a live limit of a bucket without a warm-up.
   */
  private static boolean undoable(HttpRule rule) {
    Limiter limiter = LimiterRegistry.limiter(rule.limiterId);
    if (rule.waits || !(limiter instanceof BucketLimiter)) {
      return false;
    }
    BucketLimiter b = (BucketLimiter) limiter;
    return !b.dryRun() && b.bucket().warmUpNanos() == 0;
  }

  /** The name of the entry whose limiter is named {@code limiter}. */
  private static String entryOf(HttpRule[] rules, int k, String limiter) {
    for (int i = 0; i < k; i++) {
      if (LimiterRegistry.limiter(rules[i].limiterId).name().equals(limiter)) {
        return rules[i].name;
      }
    }
    return limiter;
  }

  /** One entry's charge: at once, or a slot to wait for if it may wait. */
  private static Reservation reserve(HttpRule rule, String key) {
    Limiter limiter = LimiterRegistry.limiter(rule.limiterId);
    if (rule.waits) {
      return limiter.reserve(key);
    }
    long result = key == null ? limiter.acquire() : limiter.acquire(key);
    return result == Limiter.ADMITTED
        ? Reservation.admittedAtOnce()
        : Reservation.limited(WeirBridge.retryAfterNanos(result));
  }

  /**
   * A container's call of {@code filter.doFilter(request, response, chain)}, woven to come here
   * (see {@code ServletGate}): the entrance's decision ({@link #enter}), then the call, whatever
   * filter class it reaches (a lambda's hidden class included). A {@code RateLimitedException} that
   * escapes the filter (a limited method it called: a login's user lookup) is answered as a limited
   * request, as one escaping a servlet is ({@link #service}), so the filters around it see a
   * request answered normally; anything else is thrown on unchanged.
   *
   * @param filter the filter the container calls
   * @param request the {@code ServletRequest}
   * @param response the {@code ServletResponse}
   * @param chain the {@code FilterChain}
   * @throws IllegalStateException as {@link #enter}
   */
  public static void filter(Object filter, Object request, Object response, Object chain) {
    if (filter == null) {
      throw new NullPointerException("the filter is null");
    }
    Object decided = decide(request, response, ENTRANCE, null);
    if (decided == null) {
      return;
    }
    boolean returned = false;
    try {
      MethodHandle doFilter;
      int[] section = CallDepth.enterWeir(); // finding the handle is Weir's work; the call is not
      try {
        doFilter = ServletApi.doFilterOf(filter);
      } finally {
        section[0]--;
      }
      try {
        Object none = doFilter.invokeExact(filter, request, response, chain);
      } catch (Throwable t) {
        answerOrThrow(t, request, response);
      }
      returned = true;
    } finally {
      if (decided != PROCEED) {
        // the request's entrance returns: slots its servlet never took over belong to a request
        // a filter answered (held until its slot if it came early), failed, or made asynchronous
        int[] section = CallDepth.enterWeir();
        try {
          ((HttpPassage) decided).entranceReturned(settings, !returned);
        } finally {
          section[0]--;
        }
      }
    }
  }

  /**
   * A container's call of {@code servlet.service(request, response)}, woven to come here (see
   * {@code ServletGate}): the gate, then the call, whatever servlet class it reaches (a lambda's
   * hidden class included). A {@code RateLimitedException} the servlet throws, bare or inside other
   * exceptions, is answered as a limited request ({@link #answeredLimitedMethod}); anything else it
   * throws is thrown on unchanged.
   *
   * @param servlet the servlet the container calls
   * @param request the {@code ServletRequest}
   * @param response the {@code ServletResponse}
   * @throws IllegalStateException as {@link #pass}
   */
  public static void service(Object servlet, Object request, Object response) {
    if (servlet == null) {
      throw new NullPointerException("the servlet is null");
    }
    if (decide(request, response, SERVLET, servlet) == null) {
      return; // answered, or suspended until its slot
    }
    MethodHandle service;
    int[] section = CallDepth.enterWeir(); // finding the handle is Weir's work; the call is not
    try {
      service = ServletApi.serviceOf(servlet);
    } finally {
      section[0]--;
    }
    try {
      Object none = service.invokeExact(servlet, request, response);
    } catch (Throwable t) {
      answerOrThrow(t, request, response);
    }
  }

  /**
   * What a filter or servlet threw: answered if it is a limited method's ({@link
   * #answeredLimitedMethod}), else thrown on unchanged (a {@code ServletException}, an {@code
   * IOException}: as they were).
   */
  private static void answerOrThrow(Throwable thrown, Object request, Object response) {
    boolean answered;
    int[] section = CallDepth.enterWeir();
    try {
      answered = LimitedAnswer.answeredLimitedMethod(settings, thrown, request, response);
    } finally {
      section[0]--;
    }
    if (!answered) {
      throw HttpGate.<RuntimeException>sneaky(thrown);
    }
  }

  @SuppressWarnings("unchecked")
  static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /** What a plain wrapper wraps; null if {@code message} is no wrapper. */
  static Object unwrap(Object message) {
    try {
      return ServletApi.unwrapped(message);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  /**
   * The key a request has for a rule under the installed settings, for tests.
   *
   * @param request an HTTP request
   * @param rule the rule
   * @return the key; null or empty if the request has none
   */
  static String keyOf(Object request, HttpRule rule) {
    return RequestKeys.key(settings, ServletApi.of(request), request, rule);
  }

  /** An {@link IOException} thrown by a servlet API method through a handle. */
  static final class UncheckedIo extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UncheckedIo(IOException cause) {
      super(cause);
    }
  }

  static Object call(MethodHandle h, Object a) {
    try {
      return h.invokeExact(a);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  static Object call(MethodHandle h, Object a, Object b) {
    try {
      return h.invokeExact(a, b);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  static Object call(MethodHandle h, Object a, Object b, Object c) {
    try {
      return h.invokeExact(a, b, c);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  static RuntimeException unchecked(Throwable t) {
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    if (t instanceof IOException) {
      throw new UncheckedIo((IOException) t);
    }
    throw new IllegalStateException(t);
  }
}
