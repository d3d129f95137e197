package dev.weir.agent.bootstrap.http;

import java.util.Arrays;
import java.util.Locale;

/**
 * The {@code http} entries a request matches, on the path it arrived with inside the application,
 * as the container decoded and normalised it ({@code getServletPath() + getPathInfo()}; for a
 * forward or an async dispatch, the original path the container keeps in {@code *.forward.*} and
 * {@code *.async.*} attributes), and on its normalised forms too ({@link PathPattern#otherForms}),
 * and its method (docs/web-apps.md). The entries keyed by {@code user} are set apart where the
 * request has yet to pass its filters: they apply at its servlet, once the principal is known.
 *
 * <p>Immutable once made; thread-safe.
 */
final class RequestMatch {
  /** No entry matched, or the request is an error dispatch (never limited). */
  static final RequestMatch NONE = new RequestMatch(null, 0, null);

  /** The entries to apply now: the first {@link #count}; null if none. */
  final HttpRule[] now;

  /** How many of {@link #now} apply. */
  final int count;

  /** The entries keyed by {@code user} to apply at the servlet; null if none. */
  final HttpRule[] atServlet;

  private RequestMatch(HttpRule[] now, int count, HttpRule[] atServlet) {
    this.now = now;
    this.count = count;
    this.atServlet = atServlet;
  }

  /**
   * Reads a request's dispatcher type, path and method, marks it counted ({@link HttpGate#COUNTED},
   * matched or not: every later filter, forward or dispatch passes at once), and matches the
   * entries against it, in their order.
   *
   * @param rules the entries installed, in the order they apply
   * @param api the request's servlet API, usable
   * @param request the HTTP request
   * @param beforeFilters true where the request has its filters still to pass: {@code user} entries
   *     are then set apart for the servlet
   * @return the entries matched; {@link #NONE} if none, or for an error dispatch (left unmarked)
   * @throws IllegalStateException if the request cannot be read
   */
  static RequestMatch of(HttpRule[] rules, ServletApi api, Object request, boolean beforeFilters) {
    String path;
    String method;
    try {
      String type = String.valueOf(HttpGate.call(api.dispatcherType, request));
      if (type.equals("ERROR")) {
        return NONE;
      }
      path = path(api, request, type);
      Object verb = HttpGate.call(api.method, request);
      method = verb == null ? "" : ((String) verb).toUpperCase(Locale.ROOT); // once, for all rules
      // marked first, matched or not: every later filter, forward or dispatch passes at once
      HttpGate.call(api.setAttribute, request, HttpGate.COUNTED, Boolean.TRUE);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Weir cannot read the path of this request, so its http limits cannot be applied: " + e,
          e);
    }
    return match(rules, method, path, beforeFilters);
  }

  private static RequestMatch match(
      HttpRule[] rules, String method, String path, boolean beforeFilters) {
    String[] segments = PathPattern.segments(path);
    String[][] otherForms = PathPattern.otherForms(path, segments);
    HttpRule[] matched = null;
    int n = 0;
    HttpRule[] users = null;
    int u = 0;
    for (int i = 0; i < rules.length; i++) {
      HttpRule rule = rules[i];
      if (rule.matches(method, segments, otherForms)) {
        if (beforeFilters && rule.atServlet()) {
          if (users == null) {
            users = new HttpRule[rules.length - i];
          }
          users[u++] = rule; // the principal is known once the filters have run
        } else {
          if (matched == null) {
            matched = new HttpRule[rules.length - i];
          }
          matched[n++] = rule;
        }
      }
    }
    if (n == 0 && users == null) {
      return NONE;
    }
    return new RequestMatch(matched, n, users == null ? null : Arrays.copyOf(users, u));
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
      servletPath = HttpGate.call(api.getAttribute, request, api.prefix + kept + "servlet_path");
      pathInfo = HttpGate.call(api.getAttribute, request, api.prefix + kept + "path_info");
    }
    if (servletPath == null) {
      servletPath = HttpGate.call(api.servletPath, request);
      pathInfo = HttpGate.call(api.pathInfo, request);
    }
    String path =
        (servletPath == null ? "" : (String) servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }
}
