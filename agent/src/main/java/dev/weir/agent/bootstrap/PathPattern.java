package dev.weir.agent.bootstrap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A path pattern of an {@code http} entry, matched against the request path inside the application,
 * as the container decoded and normalised it (the context path removed): {@code *} matches any
 * characters within one segment, {@code **} (a whole segment) any number of segments, none
 * included, so {@code /api/**} matches {@code /api}, {@code /api/x} and {@code /api/x/y}. Immutable
 * and thread-safe.
 */
public final class PathPattern {
  private final String text;
  private final String[] segments;

  private PathPattern(String text, String[] segments) {
    this.text = text;
    this.segments = segments;
  }

  /**
   * Parses a pattern.
   *
   * @param text the pattern, such as {@code /api/**} or {@code /orders/v*}
   * @return the pattern
   * @throws IllegalArgumentException naming the rule the text breaks (the caller adds the value)
   */
  public static PathPattern parse(String text) {
    if (text.isEmpty() || text.charAt(0) != '/') {
      throw new IllegalArgumentException("must be a path starting with /");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException("must not contain spaces or control characters");
      }
      if (c == '?' || c == '#' || c == ';') {
        throw new IllegalArgumentException(
            "must be a path alone: a request path as the container normalised it has no '"
                + c
                + "'");
      }
    }
    String[] segments = text.substring(1).split("/", -1);
    if (text.equals("/")) {
      segments = new String[0];
    }
    for (String segment : segments) {
      if (segment.contains("**") && !segment.equals("**")) {
        throw new IllegalArgumentException("must have ** as a whole segment, as in /api/**");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "must not have . or .. segments: a normalised request path never has them");
      }
      if (segment.isEmpty() && segments.length > 1) {
        throw new IllegalArgumentException("must not have empty segments (//)");
      }
    }
    return new PathPattern(text, segments);
  }

  /**
   * Whether a request path matches.
   *
   * @param path the path inside the application, decoded and normalised, starting with {@code /}
   * @return true if it matches
   */
  public boolean matches(String path) {
    return matches(segments(path));
  }

  /**
   * Whether a request path, split by {@link #segments(String)}, matches.
   *
   * @param parts the path's segments
   * @return true if it matches
   */
  public boolean matches(String[] parts) {
    return matches(0, parts, 0);
  }

  /**
   * A request path's segments, split once for every pattern it is matched against.
   *
   * @param path the path inside the application, starting with {@code /}
   * @return its segments; none for {@code /}
   */
  public static String[] segments(String path) {
    return path.equals("/") ? new String[0] : path.substring(1).split("/", -1);
  }

  private boolean matches(int p, String[] parts, int s) {
    if (p == segments.length) {
      return s == parts.length;
    }
    if (segments[p].equals("**")) {
      for (int skip = s; skip <= parts.length; skip++) { // none, one, or more segments
        if (matches(p + 1, parts, skip)) {
          return true;
        }
      }
      return false;
    }
    return s < parts.length && glob(segments[p], parts[s]) && matches(p + 1, parts, s + 1);
  }

  /** {@code *} as any run of characters, within one segment. */
  static boolean glob(String pattern, String segment) {
    if (pattern.indexOf('*') < 0) {
      return pattern.equals(segment);
    }
    List<String> pieces = new ArrayList<String>(Arrays.asList(pattern.split("\\*", -1)));
    String first = pieces.get(0);
    String last = pieces.get(pieces.size() - 1);
    if (!segment.startsWith(first) || segment.length() < first.length() + last.length()) {
      return false;
    }
    int at = first.length();
    int end = segment.length() - last.length();
    for (int i = 1; i < pieces.size() - 1; i++) {
      int found = segment.indexOf(pieces.get(i), at);
      if (found < 0 || found + pieces.get(i).length() > end) {
        return false;
      }
      at = found + pieces.get(i).length();
    }
    return segment.endsWith(last) && at <= end;
  }

  @Override
  public String toString() {
    return text;
  }
}
