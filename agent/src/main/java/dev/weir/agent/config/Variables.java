package dev.weir.agent.config;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.CoreScalarResolver;

/**
 * The {@code ${NAME}} references in a config file's values, replaced by the environment variables
 * they name (so a password need not be written in the file). The process environment is read only
 * when a value names a variable: reading it loads JDK classes (on JDK 25, {@code ProcessImpl}) that
 * config patterns may name. Not thread-safe: one instance per file read.
 */
final class Variables {
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final CoreScalarResolver TYPES = new CoreScalarResolver(false);

  private final YamlFields fields;

  /** The variables for {@code ${NAME}}; null for the process's own. */
  private final Map<String, String> environment;

  /**
   * Variables for one file.
   *
   * @param fields where an unset variable's error goes
   * @param environment the variables; null for the process's own
   */
  Variables(YamlFields fields, Map<String, String> environment) {
    this.fields = fields;
    this.environment = environment;
  }

  /**
   * Replaces every reference in a tree.
   *
   * @param root the composed file
   * @return the tree, its values replaced; an unset variable is an error of {@code fields}, and no
   *     value after it can be judged
   */
  Node substituted(Node root) {
    return substituted(root, null);
  }

  /**
   * The tree with {@code ${NAME}} in every value replaced by the environment variable NAME (so a
   * password need not be written in the file); a plain value is typed again after the replacement
   * ({@code rate: ${RATE}} is a number), a quoted one stays a string. An unset variable is an
   * error.
   */
  private Node substituted(Node node, Where path) {
    if (node instanceof MappingNode) {
      List<NodeTuple> tuples = ((MappingNode) node).getValue();
      for (int i = 0; i < tuples.size(); i++) {
        NodeTuple tuple = tuples.get(i);
        Node key = tuple.getKeyNode();
        String name = key instanceof ScalarNode ? ((ScalarNode) key).getValue() : "?";
        Node value = substituted(tuple.getValueNode(), new Where(path, name, -1));
        if (value != tuple.getValueNode()) {
          tuples.set(i, new NodeTuple(key, value));
        }
      }
    } else if (node instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) node).getValue();
      for (int i = 0; i < items.size(); i++) {
        Node item = substituted(items.get(i), new Where(path, null, i));
        if (item != items.get(i)) {
          items.set(i, item);
        }
      }
    } else if (node instanceof ScalarNode && ((ScalarNode) node).getValue().contains("${")) {
      ScalarNode scalar = (ScalarNode) node;
      Matcher m = VARIABLE.matcher(scalar.getValue());
      StringBuffer value = new StringBuffer();
      while (m.find()) {
        String variable =
            environment != null ? environment.get(m.group(1)) : System.getenv(m.group(1));
        if (variable == null) {
          fields.error(
              node,
              (path == null ? "" : path.toString())
                  + " uses ${"
                  + m.group(1)
                  + "}, which is not set in the environment");
          return node;
        }
        m.appendReplacement(value, Matcher.quoteReplacement(variable));
      }
      m.appendTail(value);
      String text = value.toString();
      Tag tag =
          scalar.getScalarStyle() == ScalarStyle.PLAIN
              ? TYPES.resolve(text, true)
              : scalar.getTag();
      return new ScalarNode(
          tag, true, text, scalar.getScalarStyle(), scalar.getStartMark(), scalar.getEndMark());
    }
    return node;
  }

  /**
   * Where a value is, as messages name it ({@code limits[3].tokenBucket.rate}), written out only
   * for a message: a file of ten thousand entries builds no path for each of its values.
   */
  private static final class Where {
    private final Where parent;
    private final String key;
    private final int index;

    Where(Where parent, String key, int index) {
      this.parent = parent;
      this.key = key;
      this.index = index;
    }

    @Override
    public String toString() {
      String above = parent == null ? "" : parent.toString();
      return key == null ? above + "[" + index + "]" : above.isEmpty() ? key : above + "." + key;
    }
  }
}
