package dev.weir.agent.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.CoreScalarResolver;

/**
 * The typed values of one config file's YAML tree, and the file's errors. Each reader takes a node
 * and its key path ({@code limits[1].tokenBucket.rate}) and gives the value as the key wants it (a
 * map of known keys, a string, a flag, one of a few names, a number, a whole number), or null after
 * recording an error that says where it is and what was wrong: {@code weir.yaml:8:
 * limits[1].tokenBucket.rate must be a number, was "5" (quoted, so a string)}. Values have the
 * types of the YAML 1.2 core schema, as the tree was composed with. Errors are kept with their
 * line, and {@link #errors()} gives them in file order.
 *
 * <p>Not thread-safe: one instance per file read.
 */
final class YamlFields {
  private final String label;
  private final List<Problem> errors = new ArrayList<Problem>();

  /**
   * A reader for one file.
   *
   * @param label the file's name, as messages start
   */
  YamlFields(String label) {
    this.label = label;
  }

  /**
   * The file's name, as messages start.
   *
   * @return the label the file was read under
   */
  String label() {
    return label;
  }

  /**
   * Every error so far, in file order.
   *
   * @return the messages, sorted by line; errors of one line keep the order they were found in
   */
  List<String> errors() {
    List<Problem> byLine = new ArrayList<Problem>(errors);
    Collections.sort(byLine); // stable: errors of one line keep their order
    List<String> lines = new ArrayList<String>();
    for (Problem problem : byLine) {
      lines.add(problem.text);
    }
    return Collections.unmodifiableList(lines);
  }

  /**
   * How many errors there are so far: a reader compares it before and after a step to learn whether
   * the step found any.
   *
   * @return the count
   */
  int errorCount() {
    return errors.size();
  }

  /**
   * Records an error written out already.
   *
   * @param line the line it is on, for the order; 0 for the file as a whole (first)
   * @param text the whole message, its {@code file:line:} prefix included
   */
  void add(int line, String text) {
    errors.add(new Problem(line, text));
  }

  /** Drops every error: the file is judged anew as a whole (it could not be read to the end). */
  void clear() {
    errors.clear();
  }

  /**
   * Records an error at a node: {@code file:line: message}.
   *
   * @param node the value it is about (null: line 1)
   * @param message the key path, the rule and the value
   */
  void error(Node node, String message) {
    int line = line(node);
    errors.add(new Problem(line, label + ":" + line + ": " + message));
  }

  /** A mapping's entries by key, each key checked against {@code known}; null if not a mapping. */
  Map<String, Node> mapping(Node node, String path, List<String> known) {
    if (!(node instanceof MappingNode)) {
      error(
          node,
          path + " must be a map of keys (" + String.join(", ", known) + "), was " + kind(node));
      return null;
    }
    Map<String, Node> values = new LinkedHashMap<String, Node>();
    for (NodeTuple tuple : ((MappingNode) node).getValue()) {
      Node keyNode = tuple.getKeyNode();
      String key = keyNode instanceof ScalarNode ? ((ScalarNode) keyNode).getValue() : null;
      String where = path.equals("the file") ? "" : path + ".";
      if (key == null || !known.contains(key)) {
        error(
            keyNode,
            where
                + (key == null ? "a key" : key)
                + " is not a known key (known: "
                + String.join(", ", known)
                + ")");
      } else if (values.containsKey(key)) {
        error(keyNode, where + key + " is given twice");
      } else {
        values.put(key, tuple.getValueNode());
      }
    }
    return values;
  }

  /** A single value's text; null (with an error) for a map or a list. */
  private String scalar(Node node, String path) {
    if (!(node instanceof ScalarNode)) {
      error(node, path + " must be a single value, was " + kind(node));
      return null;
    }
    return ((ScalarNode) node).getValue();
  }

  /** A string that names a thing (a name, a pattern, a URI); a number or a flag is refused. */
  String string(Node node, String path) {
    String value = scalar(node, path);
    if (value != null && !Tag.STR.equals(((ScalarNode) node).getTag())) {
      error(node, path + " must be a string, was " + shown(node) + " (quote it to use it as text)");
      return null;
    }
    return value;
  }

  /** {@code true} or {@code false}, as YAML writes them; a quoted one is a string. */
  String flag(Node node, String path) {
    if (node == null) {
      return null;
    }
    String value = scalar(node, path);
    if (value == null) {
      return null;
    }
    if (!Tag.BOOL.equals(((ScalarNode) node).getTag())) {
      error(node, path + " must be one of true, false, was " + shown(node));
      return null;
    }
    return value.toLowerCase(Locale.ROOT);
  }

  /**
   * One of a few names, as an enum's constants are: an upper-case name may be written in any case
   * ({@code shaping} is {@code SHAPING}); null when absent.
   */
  String choice(Node node, String path, String... allowed) {
    if (node == null) {
      return null;
    }
    String value = scalar(node, path);
    if (value == null) {
      return null;
    }
    if (!Tag.STR.equals(((ScalarNode) node).getTag())) {
      error(node, path + " must be one of " + String.join(", ", allowed) + ", was " + shown(node));
      return null;
    }
    for (String option : allowed) {
      if (option.equals(value) || option.equals(value.toUpperCase(Locale.ROOT))) {
        return option;
      }
    }
    error(node, path + " must be one of " + String.join(", ", allowed) + ", was " + value);
    return null;
  }

  /** A number: an int or a float of the core schema, never a string that reads as one. */
  Double number(Node node, String path) {
    String value = scalar(node, path);
    if (value == null) {
      return null;
    }
    Tag tag = ((ScalarNode) node).getTag();
    if (Tag.INT.equals(tag)) {
      BigInteger whole = coreInt(value);
      if (whole != null) {
        return whole.doubleValue();
      }
    } else if (Tag.FLOAT.equals(tag)) {
      String v = value.toLowerCase(Locale.ROOT);
      if (v.endsWith(".inf")) {
        return v.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }
      if (v.equals(".nan")) {
        return Double.NaN;
      }
      try {
        return Double.valueOf(value);
      } catch (NumberFormatException e) {
        // not reached: the schema matched it as a float
      }
    }
    error(node, path + " must be a number, was " + shown(node));
    return null;
  }

  /**
   * A whole number whose range a rule of {@link dev.weir.agent.bootstrap.core.LimitRules} checks:
   * an int of the core schema, of any sign; not one says {@code must be a whole number >= typeMin}.
   */
  Long rule(Node node, String path, long typeMin) {
    return whole(node, path, typeMin, false);
  }

  /** A whole number: an int of the core schema ({@code 12}, {@code 0x1F}, {@code 0o17}). */
  Long whole(Node node, String path, long min) {
    return whole(node, path, min, true);
  }

  private Long whole(Node node, String path, long min, boolean checkMin) {
    if (node == null) {
      return null;
    }
    String value = scalar(node, path);
    if (value == null) {
      return null;
    }
    BigInteger parsed = Tag.INT.equals(((ScalarNode) node).getTag()) ? coreInt(value) : null;
    if (parsed == null) {
      error(node, path + " must be a whole number >= " + min + ", was " + shown(node));
      return null;
    }
    if (checkMin && parsed.compareTo(BigInteger.valueOf(min)) < 0) {
      error(node, path + " must be >= " + min + ", was " + value);
      return null;
    }
    if (!checkMin && parsed.signum() < 0 && parsed.bitLength() > 63) {
      return Long.MIN_VALUE; // below every rule's range: the rule names the value as written
    }
    if (parsed.bitLength() > 63) {
      error(node, path + " must be at most " + Long.MAX_VALUE + ", was " + value);
      return null;
    }
    return parsed.longValue();
  }

  /** An int of the YAML 1.2 core schema: decimal with an optional sign, 0o octal, 0x hex. */
  private static BigInteger coreInt(String value) {
    try {
      if (value.startsWith("0x")) {
        return new BigInteger(value.substring(2), 16);
      }
      if (value.startsWith("0o")) {
        return new BigInteger(value.substring(2), 8);
      }
      return new BigInteger(value.startsWith("+") ? value.substring(1) : value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether a value is absent or YAML's null ({@code ~}, {@code null}, or nothing at all). */
  static boolean isNothing(Node node) {
    return node == null || node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  /** Whether text holds a control character (a line break among them): it cannot be a name. */
  static boolean hasControlCharacter(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        return true;
      }
    }
    return false;
  }

  /** Text with its control characters written as escapes, so a message stays one line. */
  static String escaped(String text) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        b.append("\\r");
      } else if (c == '\t') {
        b.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** A scalar as written, saying when quotes or a tag made a number or a flag a string. */
  static String shown(Node node) {
    if (!(node instanceof ScalarNode)) {
      return kind(node);
    }
    ScalarNode scalar = (ScalarNode) node;
    if (scalar.getScalarStyle() == ScalarStyle.DOUBLE_QUOTED
        || scalar.getScalarStyle() == ScalarStyle.SINGLE_QUOTED) {
      return "\"" + scalar.getValue() + "\" (quoted, so a string)";
    }
    if (Tag.STR.equals(scalar.getTag())
        && (CoreScalarResolver.INT.matcher(scalar.getValue()).matches()
            || CoreScalarResolver.FLOAT.matcher(scalar.getValue()).matches()
            || CoreScalarResolver.BOOL.matcher(scalar.getValue()).matches())) {
      return scalar.getValue() + " (tagged a string)";
    }
    if (Tag.NULL.equals(scalar.getTag())) {
      return "nothing";
    }
    return scalar.getValue();
  }

  /** A scalar's text as written (for a rule's message), or what kind of node it is. */
  static String text(Node node) {
    return node instanceof ScalarNode ? ((ScalarNode) node).getValue() : kind(node);
  }

  /** What a node is, for a message: {@code a map}, {@code a list}, or its text in quotes. */
  static String kind(Node node) {
    if (node instanceof MappingNode) {
      return "a map";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    return "'" + text(node) + "'";
  }

  /**
   * The line of a node, as messages name it.
   *
   * @param node a node of the tree, or null
   * @return 1-based; 1 for null or a node without a mark
   */
  static int line(Node node) {
    if (node == null) {
      return 1;
    }
    Optional<Mark> mark = node.getStartMark(); // no lambdas: this runs in premain
    return mark.isPresent() ? mark.get().getLine() + 1 : 1;
  }

  /** One error and the line it is on, for sorting. */
  private static final class Problem implements Comparable<Problem> {
    final int line;
    final String text;

    Problem(int line, String text) {
      this.line = line;
      this.text = text;
    }

    @Override
    public int compareTo(Problem other) {
      return Integer.compare(line, other.line);
    }
  }
}
