package dev.weir.agent.bootstrap.http;

import java.util.ArrayList;
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

  /** Each segment split at its {@code *}s, once: null for a literal segment and for {@code **}. */
  private final String[][] pieces;

  private PathPattern(String text, String[] segments) {
    this.text = text;
    this.segments = segments;
    this.pieces = new String[segments.length][];
    for (int i = 0; i < segments.length; i++) {
      if (segments[i].indexOf('*') >= 0 && !segments[i].equals("**")) {
        pieces[i] = segments[i].split("\\*", -1);
      }
    }
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
      if (c == '%'
          && i + 2 < text.length()
          && Character.digit(text.charAt(i + 1), 16) >= 0
          && Character.digit(text.charAt(i + 2), 16) >= 0) {
        throw new IllegalArgumentException(
            "must be a decoded path: the container decodes %"
                + text.substring(i + 1, i + 3)
                + " before matching, so write the character itself");
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
   * @param path the path inside the application, decoded and normalised, starting with {@code /};
   *     empty segments are not counted ({@code /api/x/} is {@code /api/x})
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
    // a table over the pattern's segments and the path's, filled from the end, so the time is the
    // product of the two lengths whatever the number of ** (a backtracking match takes time
    // polynomial in the path's length with the power of the number of **, and a client chooses
    // the path)
    int n = parts.length;
    boolean[] after = new boolean[n + 1]; // the rest of the pattern matches parts[j..]
    after[n] = true;
    for (int p = segments.length - 1; p >= 0; p--) {
      boolean[] here = new boolean[n + 1];
      if (segments[p].equals("**")) {
        here[n] = after[n];
        for (int j = n - 1; j >= 0; j--) {
          here[j] = after[j] || here[j + 1]; // none, or one more segment
        }
      } else {
        for (int j = 0; j < n; j++) {
          here[j] =
              after[j + 1]
                  && (pieces[p] == null ? segments[p].equals(parts[j]) : glob(pieces[p], parts[j]));
        }
      }
      after = here;
    }
    return after[0];
  }

  /**
   * A request path's segments, split once for every pattern it is matched against.
   *
   * @param path the path inside the application, starting with {@code /}
   * @return its segments; none for {@code /}
   */
  public static String[] segments(String path) {
    // empty segments are dropped: /api/orders/ and /api//orders are /api/orders, as many
    // frameworks route them, so no slash reaches a path unlimited
    List<String> parts = new ArrayList<String>();
    int start = 0;
    for (int i = 0; i <= path.length(); i++) {
      if (i == path.length() || path.charAt(i) == '/') {
        if (i > start) {
          parts.add(path.substring(start, i));
        }
        start = i + 1;
      }
    }
    return parts.toArray(new String[0]);
  }

  /**
   * The other forms a container may serve a path as, if it holds dot segments ({@code .}, {@code
   * ..}) or path parameters ({@code ;x=1}), as a container that routes by the path as it arrived
   * (Undertow) leaves them: with each segment's parameters dropped, its RFC 3986 §5.2.4 normalised
   * form ({@code /x/../files/a} is {@code /files/a}), and the form that drops empty segments before
   * resolving dots ({@code /x//../a} is {@code /a}, as a file system resolves it). An entry applies
   * when it matches the path or any of these, so no such trick reaches a path unlimited.
   *
   * @param path the path inside the application, starting with {@code /}
   * @param segments its {@link #segments}
   * @return the forms' segments that differ from {@code segments}; null if the path has no dot
   *     segment and no parameter (then nothing is computed)
   */
  public static String[][] otherForms(String path, String[] segments) {
    boolean any = false;
    for (String segment : segments) {
      any |= segment.indexOf(';') >= 0 || isDot(segment);
    }
    if (!any) {
      return null;
    }
    StringBuilder plain = new StringBuilder(path.length());
    List<String> resolved = new ArrayList<String>();
    for (String segment : path.split("/", -1)) {
      int semicolon = segment.indexOf(';');
      String part = semicolon < 0 ? segment : segment.substring(0, semicolon);
      if (plain.length() > 0 || !part.isEmpty()) {
        plain.append('/').append(part);
      }
      if (part.equals("..")) {
        if (!resolved.isEmpty()) {
          resolved.remove(resolved.size() - 1);
        }
      } else if (!part.isEmpty() && !part.equals(".")) {
        resolved.add(part);
      }
    }
    String[] normalised = segments(removeDotSegments(plain.toString()));
    String[] fileSystem = resolved.toArray(new String[0]);
    List<String[]> forms = new ArrayList<String[]>();
    if (!java.util.Arrays.equals(normalised, segments)) {
      forms.add(normalised);
    }
    if (!java.util.Arrays.equals(fileSystem, segments)
        && !java.util.Arrays.equals(fileSystem, normalised)) {
      forms.add(fileSystem);
    }
    return forms.toArray(new String[0][]);
  }

  private static boolean isDot(String segment) {
    return segment.equals(".") || segment.equals("..");
  }

  /**
   * RFC 3986 §5.2.4 {@code remove_dot_segments}, step by step as the RFC writes it.
   *
   * @param path an absolute path
   * @return the path without dot segments
   */
  static String removeDotSegments(String path) {
    String in = path;
    StringBuilder out = new StringBuilder(path.length());
    while (!in.isEmpty()) {
      if (in.startsWith("../")) { // A
        in = in.substring(3);
      } else if (in.startsWith("./")) {
        in = in.substring(2);
      } else if (in.startsWith("/./")) { // B
        in = in.substring(2);
      } else if (in.equals("/.")) {
        in = "/";
      } else if (in.startsWith("/../") || in.equals("/..")) { // C
        in = "/" + in.substring(in.length() == 3 ? 3 : 4);
        int last = out.lastIndexOf("/");
        out.setLength(Math.max(0, last));
      } else if (in.equals(".") || in.equals("..")) { // D
        in = "";
      } else { // E: the first segment, with its leading /
        int next = in.indexOf('/', in.startsWith("/") ? 1 : 0);
        int end = next < 0 ? in.length() : next;
        out.append(in, 0, end);
        in = in.substring(end);
      }
    }
    return out.toString();
  }

  /** {@code *} as any run of characters, within one segment. */
  static boolean glob(String pattern, String segment) {
    return pattern.indexOf('*') < 0
        ? pattern.equals(segment)
        : glob(pattern.split("\\*", -1), segment);
  }

  /** {@link #glob(String, String)} of a pattern split at its {@code *}s. */
  private static boolean glob(String[] pieces, String segment) {
    String first = pieces[0];
    String last = pieces[pieces.length - 1];
    if (!segment.startsWith(first) || segment.length() < first.length() + last.length()) {
      return false;
    }
    int at = first.length();
    int end = segment.length() - last.length();
    for (int i = 1; i < pieces.length - 1; i++) {
      int found = segment.indexOf(pieces[i], at);
      if (found < 0 || found + pieces[i].length() > end) {
        return false;
      }
      at = found + pieces[i].length();
    }
    return segment.endsWith(last) && at <= end;
  }

  @Override
  public String toString() {
    return text;
  }
}
