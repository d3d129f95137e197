package dev.weir.agent.bootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.lang.invoke.MethodHandle;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The limit in front of every servlet: what the prologue woven into each {@code
 * service(ServletRequest, ServletResponse)} of {@code javax.servlet} and {@code jakarta.servlet}
 * calls first (SPEC "Legacy web apps"):
 *
 * <pre>{@code
 * if (!HttpGate.pass(request, response)) return;   // limited: answered already
 * ...the original body...
 * }</pre>
 *
 * and what a container's call of {@code servlet.service(request, response)} through the interface
 * becomes ({@link #service}), which reaches servlets whose own class cannot be woven (a lambda's).
 *
 * <p><b>Where.</b> {@code Servlet.service} is where every container hands a request to the
 * application's servlet, after the application's filters have run (so a security filter's principal
 * is seen), and it is a public API method every container calls the same way; a container's own
 * pipeline (valves, handlers) differs from one container to the next, and runs before the filters.
 *
 * <p><b>Once per request.</b> A request is matched on the path it arrived with, inside the
 * application, as the container decoded and normalised it ({@code getServletPath() +
 * getPathInfo()}; for a forward or an async dispatch, the original path the container keeps in
 * {@code *.forward.*} and {@code *.async.*} attributes). A request that matches an entry is marked
 * with the attribute {@value #COUNTED} when first seen, and passes free whenever it reaches a
 * servlet again (a forward, an include, an async dispatch, an override calling {@code super}). An
 * error dispatch is never limited: it answers a request that has failed already.
 *
 * <p><b>All entries apply.</b> Every matching entry is consulted, those that answer at once before
 * those that may wait; the first that limits the request answers it, and the permits the earlier
 * ones took are given back ({@link Limiter#refund}), so a limited request is charged by none.
 *
 * <p><b>The answer</b> is written directly, never through {@code sendError} (which would run the
 * application's error pages): the {@code http.status} (429 by default), {@code Retry-After} in
 * whole seconds rounded up and at least 1, and a one-line {@code text/plain} body naming the limit,
 * with a {@code Content-Length} so the connection stays open. A request refused because the JVM is
 * shutting down ({@code drainOnExit}) gets 503 and no {@code Retry-After}. Nothing is logged per
 * request. A request whose limit cannot be applied (the application's request wrapper throws, say)
 * is refused with an {@link IllegalStateException} naming the entry: the container answers 500.
 *
 * <p><b>Limited methods.</b> A {@code RateLimitedException} that escapes the servlet a container
 * calls through {@link #service} (thrown by a limited method the servlet called, and perhaps
 * wrapped by a framework) gets the same answer, with the limiter's name and retry-after, unless
 * {@code http.answerLimitedMethods} is false or the response is committed: a limit in a controller
 * is a 429, not a 500 and a stack trace in the application's log. The catch sits at the container's
 * call, inside the application's filters, so a filter sees a request answered normally.
 *
 * <p>Thread-safe. The rules are replaced whole by a reload ({@link #install}).
 */
public final class HttpGate {
  /** The request attribute that marks a request counted already. */
  public static final String COUNTED = "dev.weir.counted";

  private static final String CLIENT_HEADER = "X-Forwarded-For";

  /** Plain wrappers looked inside, at most, around a request or a response. */
  private static final int MAX_WRAPPERS = 64;

  private static volatile Settings settings =
      new Settings(new HttpRule[0], new AddressBlock[0], 429, true);

  /**
   * The limiters whose exception reached a committed response, each logged once; at most {@link
   * #MAX_COMMITTED_REPORTED} names (then one line says no more are named). Guarded by itself.
   */
  private static final Set<String> COMMITTED_REPORTED = new HashSet<String>();

  private static final int MAX_COMMITTED_REPORTED = 1000;

  /** Whether a servlet API that cannot be called was logged (once per JVM). */
  private static volatile boolean brokenReported;

  private HttpGate() {}

  private static final class Settings {
    final HttpRule[] rules;
    final AddressBlock[] proxies;
    final int status;
    final boolean answerMethods;

    Settings(HttpRule[] rules, AddressBlock[] proxies, int status, boolean answerMethods) {
      this.rules = rules;
      this.proxies = proxies;
      this.status = status;
      this.answerMethods = answerMethods;
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
  public static synchronized void install(
      List<HttpRule> rules,
      List<AddressBlock> trustedProxies,
      int status,
      boolean answerLimitedMethods) {
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
            answerLimitedMethods);
  }

  /**
   * The top-level {@code http} settings installed, in words, for the line a reload logs.
   *
   * @return for example {@code status 429, trustedProxies [10.0.0.0/8], answerLimitedMethods true}
   */
  public static String settingsInWords() {
    Settings s = settings;
    return "status "
        + s.status
        + ", trustedProxies "
        + java.util.Arrays.toString(s.proxies)
        + ", answerLimitedMethods "
        + s.answerMethods;
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
   * Decides a request as it reaches a servlet: called first by every woven {@code service}.
   *
   * @param request the {@code ServletRequest} the servlet was called with
   * @param response its {@code ServletResponse}
   * @return true to run the servlet; false if the request was limited and answered
   * @throws IllegalStateException if a matching entry cannot be applied to the request (fails
   *     closed)
   */
  public static boolean pass(Object request, Object response) {
    Settings s = settings;
    if (s.rules.length == 0 || request == null || response == null) {
      return true;
    }
    // the gate is Weir's own work: what it runs of the JDK (the servlet API's handles, parsing an
    // address, splitting a path) charges no config limit, and none need refuse it
    int[] section = CallDepth.enterWeir();
    try {
      return passOwn(s, request, response);
    } finally {
      section[0]--;
    }
  }

  private static boolean passOwn(Settings s, Object request, Object response) {
    ServletApi api = ServletApi.of(request);
    for (int depth = 0; api == ServletApi.NONE; depth++) {
      // a plain ServletRequestWrapper a filter put around the HTTP request: look inside it
      Object inner = unwrap(request);
      if (inner == null) {
        return true; // not an HTTP request: it has no path to match
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
    if (api.broken != null) {
      if (!brokenReported) {
        brokenReported = true;
        AgentLog.error("http limits cannot be applied, so every request is refused: " + api.broken);
      }
      throw new IllegalStateException(
          "Weir's http limits cannot be applied, so the request is refused: " + api.broken);
    }
    String path;
    String method;
    try {
      String type = String.valueOf(call(api.dispatcherType, request));
      if (type.equals("ERROR")) {
        return true;
      }
      path = path(api, request, type);
      Object verb = call(api.method, request);
      method = verb == null ? "" : ((String) verb).toUpperCase(Locale.ROOT); // once, for all rules
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Weir cannot read the path of this request, so its http limits cannot be applied: " + e,
          e);
    }
    HttpRule[] rules = s.rules;
    String[] segments = PathPattern.segments(path);
    int[] matched = null;
    int n = 0;
    for (int i = 0; i < rules.length; i++) {
      if (rules[i].matches(method, segments)) {
        if (matched == null) {
          matched = new int[rules.length - i];
        }
        matched[n++] = i;
      }
    }
    if (n == 0) {
      return true;
    }
    HttpRule current = rules[matched[0]];
    Limiter[] taken = new Limiter[n];
    String[] keys = new String[n];
    int t = 0;
    try {
      if (call(api.getAttribute, request, COUNTED) != null) {
        return true;
      }
      call(api.setAttribute, request, COUNTED, Boolean.TRUE);
      for (int m = 0; m < n; m++) {
        current = rules[matched[m]];
        String key = keyFor(s, api, request, current);
        if ("".equals(key)) {
          continue; // a request without the key is not counted, as nginx does
        }
        Limiter limiter = LimiterRegistry.limiter(current.limiterId);
        long result = key == null ? limiter.acquire() : limiter.acquire(key);
        if (result != Limiter.ADMITTED) {
          for (int j = 0; j < t; j++) {
            taken[j].refund(keys[j]);
          }
          t = 0; // given back: never twice
          if (limiter instanceof Draining) {
            answer(api, response, 503, -1, current.name);
            return false;
          }
          long retryAfter = WeirBridge.retryAfterNanos(result);
          for (int k = m + 1; k < n && retryAfter != Long.MAX_VALUE; k++) {
            HttpRule later = rules[matched[k]];
            String laterKey = keyFor(s, api, request, later);
            if (!"".equals(laterKey)) {
              retryAfter =
                  Math.max(retryAfter, LimiterRegistry.limiter(later.limiterId).probe(laterKey));
            }
          }
          answer(api, response, s.status, retryAfter, current.name);
          return false;
        }
        taken[t] = limiter;
        keys[t++] = key;
      }
      return true;
    } catch (RuntimeException | Error e) {
      for (int j = 0; j < t; j++) {
        taken[j].refund(keys[j]); // refused: charged by none
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      throw new IllegalStateException(
          "Weir cannot apply the http limit '" + current.name + "' to this request: " + e, e);
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
    if (!pass(request, response)) {
      return;
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
      boolean answered;
      section = CallDepth.enterWeir();
      try {
        answered = answeredLimitedMethod(t, request, response);
      } finally {
        section[0]--;
      }
      if (answered) {
        return;
      }
      throw HttpGate.<RuntimeException>sneaky(t); // ServletException, IOException: as they were
    }
  }

  /**
   * Answers a request whose servlet threw a {@code RateLimitedException} (a limited method it
   * called: a controller, a service, a JDBC call), found in what it threw however wrapped ({@link
   * LimitedCause}), as a limited request: {@code http.status}, {@code Retry-After} and the one-line
   * body naming the limiter (503 and no {@code Retry-After} while {@code drainOnExit} refuses every
   * call), nothing logged. It is left to the container, as before, when {@code
   * http.answerLimitedMethods} is false; when the request is an include or an error dispatch (the
   * dispatch that included it, or the container's error handling, decides); when it went
   * asynchronous (its asynchronous context would stay open); and when the response is committed
   * (its status is sent already: the container ends it as it ends any failed request), which is
   * logged once per limiter. Never throws.
   *
   * @return true if the request was answered; false to throw {@code thrown} on
   */
  private static boolean answeredLimitedMethod(Throwable thrown, Object request, Object response) {
    Settings s = settings;
    if (!s.answerMethods || request == null || response == null) {
      return false;
    }
    LimitedCause limited = LimitedCause.in(thrown);
    if (limited == null) {
      return false;
    }
    try {
      Object http = request;
      ServletApi api = ServletApi.of(http);
      for (int depth = 0; api == ServletApi.NONE && http != null && depth < MAX_WRAPPERS; depth++) {
        http = unwrap(http); // a plain ServletRequestWrapper around the HTTP request
        api = http == null ? ServletApi.NONE : ServletApi.of(http);
      }
      if (api == ServletApi.NONE || api.broken != null) {
        return false;
      }
      String type = String.valueOf(call(api.dispatcherType, http));
      if (type.equals("INCLUDE")
          || type.equals("ERROR")
          || Boolean.TRUE.equals(call(api.isAsyncStarted, http))) {
        return false;
      }
      Object httpResponse = httpResponse(api, response);
      if (Boolean.TRUE.equals(call(api.isCommitted, httpResponse))) {
        reportCommitted(limited.limiterName, s.status);
        return false;
      }
      if (limited.retryAfterNanos == Long.MAX_VALUE
          && LimiterRegistry.isDraining(limited.limiterName)) {
        answer(api, httpResponse, 503, -1, limited.limiterName);
      } else {
        answer(api, httpResponse, s.status, limited.retryAfterNanos, limited.limiterName);
      }
      return true;
    } catch (RuntimeException | LinkageError cannotAnswer) {
      return false; // the container gets what the servlet threw, as it did before
    }
  }

  /** One line per limiter whose exception reached a response committed already. */
  private static void reportCommitted(String limiterName, int status) {
    String line;
    synchronized (COMMITTED_REPORTED) {
      if (COMMITTED_REPORTED.size() > MAX_COMMITTED_REPORTED
          || !COMMITTED_REPORTED.add(limiterName)) {
        return;
      }
      line =
          COMMITTED_REPORTED.size() > MAX_COMMITTED_REPORTED
              ? "more limiters' RateLimitedExceptions reached committed responses: no more are named"
              : "a RateLimitedException of '"
                  + limiterName
                  + "' escaped a servlet after the response was committed, so the request could"
                  + " not be answered with "
                  + status
                  + " and is left to the container (logged once per limiter): call the limited"
                  + " method before writing the response";
    }
    AgentLog.warn(line);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static Object unwrap(Object message) {
    try {
      return ServletApi.unwrapped(message);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  /** The HTTP response behind a response: itself, or what plain wrappers wrap. */
  private static Object httpResponse(ServletApi api, Object response) {
    Object r = response;
    for (int depth = 0; r != null && !api.responseType.isInstance(r); depth++) {
      r = depth < MAX_WRAPPERS ? unwrap(r) : null;
    }
    if (r == null) {
      throw new IllegalStateException(
          "the response " + response.getClass().getName() + " is no HTTP response");
    }
    return r;
  }

  /** The path inside the application the request arrived with, as the container normalised it. */
  private static String path(ServletApi api, Object request, String dispatcherType) {
    Object servletPath = null;
    Object pathInfo = null;
    String kept =
        dispatcherType.equals("FORWARD")
            ? ".forward."
            : dispatcherType.equals("ASYNC") ? ".async." : null;
    if (kept != null) {
      servletPath = call(api.getAttribute, request, api.prefix + kept + "servlet_path");
      pathInfo = call(api.getAttribute, request, api.prefix + kept + "path_info");
    }
    if (servletPath == null) {
      servletPath = call(api.servletPath, request);
      pathInfo = call(api.pathInfo, request);
    }
    String path =
        (servletPath == null ? "" : (String) servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }

  /**
   * The key a rule charges a request under: null for a rule of one bucket; empty if the rule is
   * keyed and the request's key is missing or empty (it is not counted).
   */
  private static String keyFor(Settings s, ServletApi api, Object request, HttpRule rule) {
    if (rule.keyKind == HttpRule.ONE_BUCKET) {
      return null;
    }
    String key = key(s, api, request, rule);
    return key == null ? "" : key;
  }

  /** The request's key for a rule; null or empty if it has none. */
  private static String key(Settings s, ServletApi api, Object request, HttpRule rule) {
    switch (rule.keyKind) {
      case HttpRule.CLIENT:
        return client(s, api, request);
      case HttpRule.USER:
        Object user = call(api.userPrincipal, request);
        return user == null ? null : ((Principal) user).getName();
      case HttpRule.HEADER:
        return (String) call(api.header, request, rule.keyName);
      case HttpRule.PARAM:
        return queryParameter((String) call(api.queryString, request), rule.keyName);
      case HttpRule.COOKIE:
        Object cookies = call(api.cookies, request);
        if (cookies != null) {
          for (Object cookie : (Object[]) cookies) {
            if (rule.keyName.equals(call(api.cookieName, cookie))) {
              return (String) call(api.cookieValue, cookie);
            }
          }
        }
        return null;
      default:
        throw new IllegalStateException("unknown key kind " + rule.keyKind);
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
    return key(settings, ServletApi.of(request), request, rule);
  }

  /**
   * The client's address: the connection's; or, if that is a trusted proxy, the last {@code
   * X-Forwarded-For} hop that is not one (nginx's {@code real_ip_recursive}), never a hop the
   * client could have written unless every proxy after it is trusted.
   */
  private static String client(Settings s, ServletApi api, Object request) {
    String remote = (String) call(api.remoteAddr, request);
    if (remote == null) {
      return null;
    }
    String client = remote;
    byte[] address = AddressBlock.bytesOf(remote); // each hop is parsed once
    if (s.proxies.length > 0 && trusted(s, address)) {
      List<String> hops = new ArrayList<String>();
      Object values = call(api.headers, request, CLIENT_HEADER);
      if (values != null) {
        for (Enumeration<?> e = (Enumeration<?>) values; e.hasMoreElements(); ) {
          for (String hop : String.valueOf(e.nextElement()).split(",")) {
            if (!hop.trim().isEmpty()) {
              hops.add(hop.trim());
            }
          }
        }
      }
      for (int i = hops.size() - 1; i >= 0; i--) {
        client = hops.get(i);
        address = AddressBlock.bytesOf(client);
        if (!trusted(s, address)) {
          break;
        }
      }
    }
    // as a key: canonical if it is an IP literal, else as given
    return address != null ? AddressBlock.canonical(address) : client.trim();
  }

  private static boolean trusted(Settings s, byte[] address) {
    for (AddressBlock block : s.proxies) {
      if (block.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first value of a query parameter, decoded as a form is ({@code +} is a space), read from
   * the query string alone: a request body is never read.
   *
   * @param query the raw query string, or null
   * @param name the parameter's name
   * @return the value; "" for a name without {@code =}; null if absent or not decodable
   */
  static String queryParameter(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String part : query.split("&")) {
      int eq = part.indexOf('=');
      String rawName = eq < 0 ? part : part.substring(0, eq);
      String decodedName = decode(rawName);
      if (name.equals(decodedName)) {
        return eq < 0 ? "" : decode(part.substring(eq + 1));
      }
    }
    return null;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, "UTF-8");
    } catch (UnsupportedEncodingException | IllegalArgumentException e) {
      return null; // a malformed escape: not the parameter
    }
  }

  /**
   * Writes the answer to a limited request, unless the response is committed already.
   *
   * @param retryAfterNanos nanoseconds until it would be admitted; {@code Long.MAX_VALUE} for
   *     never, {@code -1} for no {@code Retry-After} (503 while draining)
   */
  private static void answer(
      ServletApi api, Object plainResponse, int status, long retryAfterNanos, String name) {
    Object response = httpResponse(api, plainResponse);
    if (Boolean.TRUE.equals(call(api.isCommitted, response))) {
      return; // a filter answered already: the servlet is still not run
    }
    call(api.resetBuffer, response);
    call(api.setStatus, response, status);
    String text;
    if (retryAfterNanos < 0) {
      text = "the server is shutting down: '" + name + "' admits no more requests\n";
    } else if (retryAfterNanos == Long.MAX_VALUE) {
      text = "rate limited by '" + name + "'\n";
    } else {
      long seconds = Math.max(1, retryAfterNanos / 1_000_000_000L);
      if (seconds * 1_000_000_000L < retryAfterNanos) {
        seconds++; // whole seconds, rounded up: a client that waits that long is admitted
      }
      call(api.setHeader, response, "Retry-After", Long.toString(seconds));
      text = "rate limited by '" + name + "': retry after " + seconds + " s\n";
    }
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    call(api.setContentType, response, "text/plain;charset=UTF-8");
    try {
      Object out;
      try {
        out = call(api.outputStream, response);
      } catch (IllegalStateException writerInUse) {
        // the writer keeps the encoding it was given: no Content-Length, which would count bytes
        // of another encoding (the container ends the body itself)
        ((Writer) call(api.writer, response)).write(text);
        return;
      }
      call(api.setContentLength, response, body.length);
      ((OutputStream) out).write(body);
    } catch (IOException | UncheckedIo clientGone) {
      // the client went away: nothing to answer, nothing to log
    }
  }

  /** An {@link IOException} thrown by a servlet API method through a handle. */
  private static final class UncheckedIo extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UncheckedIo(IOException cause) {
      super(cause);
    }
  }

  private static Object call(MethodHandle h, Object a) {
    try {
      return h.invokeExact(a);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  private static Object call(MethodHandle h, Object a, Object b) {
    try {
      return h.invokeExact(a, b);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  private static Object call(MethodHandle h, Object a, Object b, Object c) {
    try {
      return h.invokeExact(a, b, c);
    } catch (Throwable t) {
      throw unchecked(t);
    }
  }

  private static RuntimeException unchecked(Throwable t) {
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
