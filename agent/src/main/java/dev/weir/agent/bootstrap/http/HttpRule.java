package dev.weir.agent.bootstrap.http;

import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import java.util.List;

/**
 * One {@code http} entry of the config file as the gate applies it: the paths and HTTP methods it
 * limits, how a request's key is found, and the id of its limiter in the {@link LimiterRegistry}
 * (looked up on every request, so a live change, a redirect or {@code drainOnExit} applies at
 * once). Immutable and thread-safe.
 */
public final class HttpRule {
  static final int ONE_BUCKET = 0;
  static final int CLIENT = 1;
  static final int USER = 2;
  static final int HEADER = 3;
  static final int PARAM = 4;
  static final int COOKIE = 5;

  final int limiterId;
  final String name;
  final PathPattern[] paths;
  final String[] methods;
  final int keyKind;
  final String keyName;
  final boolean waits;

  /**
   * Describes an entry.
   *
   * @param limiterId its limiter's id in the registry
   * @param name the entry's name, which the answer to a limited request names
   * @param paths the path patterns, at least one
   * @param methods the HTTP methods, upper case; empty for all; GET includes HEAD
   * @param key {@code client}, {@code user}, {@code header:NAME}, {@code param:NAME}, {@code
   *     cookie:NAME}, or null for one bucket
   * @param waits whether a call may wait in the limiter ({@code WAIT} or SHAPING): such rules are
   *     consulted after those that answer at once
   * @throws IllegalArgumentException for a key of another kind
   */
  public HttpRule(
      int limiterId,
      String name,
      List<PathPattern> paths,
      List<String> methods,
      String key,
      boolean waits) {
    this.limiterId = limiterId;
    this.name = name;
    this.paths = paths.toArray(new PathPattern[0]);
    this.methods = methods.toArray(new String[0]);
    this.waits = waits;
    if (key == null) {
      keyKind = ONE_BUCKET;
      keyName = null;
    } else if (key.equals("client")) {
      keyKind = CLIENT;
      keyName = null;
    } else if (key.equals("user")) {
      keyKind = USER;
      keyName = null;
    } else if (key.startsWith("header:")) {
      keyKind = HEADER;
      keyName = key.substring(7);
    } else if (key.startsWith("param:")) {
      keyKind = PARAM;
      keyName = key.substring(6);
    } else if (key.startsWith("cookie:")) {
      keyKind = COOKIE;
      keyName = key.substring(7);
    } else {
      throw new IllegalArgumentException("not an http key: " + key);
    }
  }

  /**
   * Whether a request is limited by the rule, on its path or any other form of it.
   *
   * @param upper the request's HTTP method, upper case
   * @param path the path inside the application, as {@link PathPattern#segments}
   * @param otherForms {@link PathPattern#otherForms} of the path, or null
   */
  boolean matches(String upper, String[] path, String[][] otherForms) {
    if (matches(upper, path)) {
      return true;
    }
    if (otherForms != null) {
      for (String[] form : otherForms) {
        if (matches(upper, form)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the rule is checked where the request reaches a servlet: {@code key: user}. */
  boolean atServlet() {
    return keyKind == USER;
  }

  /**
   * Whether a request is limited by the rule.
   *
   * @param upper the request's HTTP method, upper case (so {@code post} cannot slip past POST)
   * @param path the path inside the application, as {@link PathPattern#segments}
   */
  boolean matches(String upper, String[] path) {
    if (methods.length > 0) {
      boolean any = false;
      for (String m : methods) {
        // HEAD runs GET's code (HttpServlet.doHead calls doGet), as nginx's limit_except GET
        any |= m.equals(upper) || m.equals("GET") && upper.equals("HEAD");
      }
      if (!any) {
        return false;
      }
    }
    for (PathPattern p : paths) {
      if (p.matches(path)) {
        return true;
      }
    }
    return false;
  }
}
