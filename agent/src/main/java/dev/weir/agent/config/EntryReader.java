package dev.weir.agent.config;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.LimitRules;
import dev.weir.agent.bootstrap.http.PathPattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads the entries of a config file's {@code limits}, one {@code limits[i]} at a time, into a
 * {@link ConfigLimit}: its {@code name} (unique in the file), its {@code methods} patterns or its
 * {@code http} block ({@code paths}, {@code methods}), its one {@code tokenBucket} or {@code
 * leakyBucket} ({@code rate}, {@code per}, {@code capacity}, {@code permits} or {@code mode}) as a
 * {@link LimitSpec}, {@code onLimit} and {@code maxWaitMillis}, {@code key}, {@code scope} and
 * {@code onBackendFailure}, {@code dryRun}. The rules of a limit and their messages are {@link
 * LimitRules}'; every error goes to the file's {@link YamlFields}, and an entry with any error
 * gives no limit. Not thread-safe: one instance per file read.
 */
final class EntryReader {
  private static final List<String> ENTRY =
      Arrays.asList(
          "name",
          "methods",
          "http",
          "tokenBucket",
          "leakyBucket",
          "onLimit",
          "maxWaitMillis",
          "key",
          "scope",
          "onBackendFailure",
          "dryRun");
  private static final List<String> TOKEN_KEYS =
      Arrays.asList("rate", "per", "capacity", "permits", "warmUpMillis");
  private static final List<String> LEAKY_KEYS = Arrays.asList("rate", "per", "capacity", "mode");
  private static final List<String> HTTP_ENTRY = Arrays.asList("paths", "methods");
  private static final List<String> HTTP_METHODS =
      Arrays.asList("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

  private final YamlFields fields;
  private final boolean backendGiven;

  /** The names used so far, each with the path of the entry that took it. */
  private final Map<String, String> names = new HashMap<String, String>();

  /**
   * A reader for the entries of one file.
   *
   * @param fields the file's values and errors
   * @param backendGiven whether the file has a top-level {@code backend} (a {@code scope: cluster}
   *     entry needs one)
   */
  EntryReader(YamlFields fields, boolean backendGiven) {
    this.fields = fields;
    this.backendGiven = backendGiven;
  }

  /**
   * Reads one entry; call in file order, so that a name used twice is named at its second use.
   *
   * @param node the entry
   * @param path where it is, {@code limits[i]}
   * @return the limit; null when the entry has an error (recorded in the fields)
   */
  ConfigLimit entry(Node node, String path) {
    Map<String, Node> entry = fields.mapping(node, path, ENTRY);
    if (entry == null) {
      return null;
    }
    int errorsBefore = fields.errorCount();
    String name = name(node, entry.get("name"), path);
    List<MethodPattern> patterns = new ArrayList<MethodPattern>();
    Node methods = entry.get("methods");
    patterns(methods, path + ".methods", patterns);
    LimitSpec.Builder spec = bucket(node, entry, path, name);
    if (spec == null) {
      return null;
    }
    waiting(entry, path, spec);
    Node key = entry.get("key");
    Node http = entry.get("http");
    List<PathPattern> paths = new ArrayList<PathPattern>();
    List<String> httpMethods = new ArrayList<String>();
    String httpKey = null;
    Long keyIndex = null;
    if (http != null) {
      if (methods != null) {
        fields.error(http, path + " must have at most one of methods and http");
      }
      httpEntry(http, path + ".http", paths, httpMethods);
      httpKey = httpKey(key, path + ".key");
    } else {
      keyIndex = keyIndex(key, path + ".key", methods != null);
    }
    ClusterScope.OnFailure onBackendFailure = scope(entry, path, spec, errorsBefore);
    String dryRun = fields.flag(entry.get("dryRun"), path + ".dryRun");
    if (fields.errorCount() != errorsBefore || name == null) {
      return null;
    }
    return new ConfigLimit(
        name,
        patterns,
        spec.build(),
        keyIndex == null ? -1 : keyIndex.intValue(),
        "true".equals(dryRun),
        fields.label() + ":" + YamlFields.line(node),
        paths,
        httpMethods,
        httpKey,
        onBackendFailure);
  }

  /** The entry's {@code name}: required, one line, unused so far; null (with an error) if not. */
  private String name(Node node, Node nameNode, String path) {
    if (nameNode == null) {
      fields.error(node, path + ".name is required");
      return null;
    }
    String name = fields.string(nameNode, path + ".name");
    if (name != null && name.trim().isEmpty()) {
      fields.error(nameNode, path + ".name must not be empty");
      name = null;
    } else if (name != null && YamlFields.hasControlCharacter(name)) {
      fields.error(
          nameNode,
          path
              + ".name must be one line without control characters (it names the limit in"
              + " logs and answers), was \""
              + YamlFields.escaped(name)
              + "\"");
      name = null;
    } else if (name != null && names.containsKey(name)) {
      fields.error(nameNode, path + ".name '" + name + "' is already used by " + names.get(name));
    } else if (name != null) {
      names.put(name, path);
    }
    return name;
  }

  /** The entry's {@code methods}: one pattern or a list of them, each added to {@code patterns}. */
  private void patterns(Node methods, String path, List<MethodPattern> patterns) {
    if (methods instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) methods).getValue();
      if (items.isEmpty()) {
        fields.error(methods, path + " must name at least one method pattern, was an empty list");
      }
      for (int i = 0; i < items.size(); i++) {
        pattern(items.get(i), path + "[" + i + "]", patterns);
      }
    } else if (methods != null) {
      pattern(methods, path, patterns);
    }
  }

  private void pattern(Node node, String path, List<MethodPattern> patterns) {
    String text = fields.string(node, path);
    if (text == null) {
      return;
    }
    try {
      patterns.add(MethodPattern.parse(text));
    } catch (IllegalArgumentException e) {
      fields.error(node, path + " " + e.getMessage() + ", was '" + text + "'");
    }
  }

  /**
   * The entry's one bucket, {@code tokenBucket} or {@code leakyBucket}, as a spec of the entry's
   * name: its discipline ({@code mode}), {@code rate} and {@code per}, {@code capacity} and {@code
   * permits}, each set when valid.
   *
   * @return the spec so far; null (with an error) when the entry has not exactly one bucket or the
   *     bucket is not a map: nothing after it can be judged
   */
  private LimitSpec.Builder bucket(Node node, Map<String, Node> entry, String path, String name) {
    Node token = entry.get("tokenBucket");
    Node leaky = entry.get("leakyBucket");
    if ((token == null) == (leaky == null)) {
      fields.error(node, path + " must have exactly one of tokenBucket and leakyBucket");
      return null;
    }
    String bucketPath = path + (token != null ? ".tokenBucket" : ".leakyBucket");
    Map<String, Node> bucket =
        fields.mapping(
            token != null ? token : leaky, bucketPath, token != null ? TOKEN_KEYS : LEAKY_KEYS);
    if (bucket == null) {
      return null;
    }
    Discipline discipline = Discipline.TOKEN_BUCKET;
    if (leaky != null) {
      String mode = fields.choice(bucket.get("mode"), bucketPath + ".mode", "SHAPING", "POLICING");
      discipline = "POLICING".equals(mode) ? Discipline.POLICING : Discipline.SHAPING;
    }
    LimitSpec.Builder spec = LimitSpec.builder(discipline);
    if (name != null) {
      spec.name(name);
    }
    Double rate = rate(token != null ? token : leaky, bucket, bucketPath, spec);
    capacityAndPermits(bucket, bucketPath, rate, spec);
    warmUp(bucket.get("warmUpMillis"), bucketPath + ".warmUpMillis", entry.get("key"), spec);
    return spec;
  }

  /**
   * A token bucket's {@code warmUpMillis}, set on the spec when valid: an integer from 0 to a day,
   * and not with a {@code key} (per-key buckets do not warm up yet).
   */
  private void warmUp(Node node, String path, Node key, LimitSpec.Builder spec) {
    Long value = fields.rule(node, path, 0);
    if (value == null) {
      return;
    }
    String broken = LimitRules.warmUpMillis(value, YamlFields.text(node));
    if (broken == null) {
      broken = LimitRules.warmUpWithKey(value, key != null);
    }
    if (broken != null) {
      fields.error(node, path + " " + broken);
    } else {
      spec.warmUpMillis(value);
    }
  }

  /**
   * A bucket's {@code rate} (required) and {@code per} (a {@link TimeUnit}'s name), set on the spec
   * when valid.
   *
   * @return the rate, in permits a {@code per}; null if missing or invalid
   */
  private Double rate(
      Node bucketNode, Map<String, Node> bucket, String path, LimitSpec.Builder spec) {
    Node rate = bucket.get("rate");
    Double value = null;
    if (rate == null) {
      fields.error(bucketNode, path + ".rate is required");
    } else {
      value = fields.number(rate, path + ".rate");
    }
    // the rate's own rule, as an annotation's: before the per, and whatever the per
    String broken = value == null ? null : LimitRules.rate(value, null, YamlFields.text(rate));
    if (broken != null) {
      fields.error(rate, path + ".rate " + broken);
      value = null;
    }
    String per =
        fields.choice(
            bucket.get("per"),
            path + ".per",
            "NANOSECONDS",
            "MICROSECONDS",
            "MILLISECONDS",
            "SECONDS",
            "MINUTES",
            "HOURS",
            "DAYS");
    TimeUnit unit = per == null ? null : TimeUnit.valueOf(per);
    if (unit != null) {
      spec.per(unit);
    }
    if (value != null) {
      spec.rate(value);
    }
    return value;
  }

  /**
   * A bucket's {@code capacity} and {@code permits}, set on the spec when valid; the permits are
   * checked against the capacity given, else the default one of a valid {@code rate}.
   */
  private void capacityAndPermits(
      Map<String, Node> bucket, String path, Double rate, LimitSpec.Builder spec) {
    Node capacityNode = bucket.get("capacity");
    Long capacity = fields.rule(capacityNode, path + ".capacity", 0);
    if (capacity != null) {
      String broken = LimitRules.definedCapacity(capacity, YamlFields.text(capacityNode));
      if (broken != null) {
        fields.error(capacityNode, path + ".capacity " + broken);
        capacity = null;
      } else {
        spec.capacity(capacity);
      }
    }
    Node permitsNode = bucket.get("permits");
    Long permits = fields.rule(permitsNode, path + ".permits", 1);
    if (permits != null) {
      long effective =
          capacity != null && capacity > 0
              ? capacity
              : rate != null ? LimitRules.defaultCapacity(rate) : Long.MAX_VALUE;
      String broken = LimitRules.permits(permits, effective, false, YamlFields.text(permitsNode));
      if (broken != null) {
        fields.error(permitsNode, path + ".permits " + broken);
      } else {
        spec.permits(permits.intValue());
      }
    }
  }

  /** The entry's {@code onLimit} and {@code maxWaitMillis}, set on the spec when valid. */
  private void waiting(Map<String, Node> entry, String path, LimitSpec.Builder spec) {
    String onLimit = fields.choice(entry.get("onLimit"), path + ".onLimit", "REJECT", "WAIT");
    spec.waitOnLimit("WAIT".equals(onLimit));
    Node maxWaitNode = entry.get("maxWaitMillis");
    Long maxWait = fields.rule(maxWaitNode, path + ".maxWaitMillis", 0);
    String broken =
        maxWait == null ? null : LimitRules.maxWaitMillis(maxWait, YamlFields.text(maxWaitNode));
    if (broken != null) {
      fields.error(maxWaitNode, path + ".maxWaitMillis " + broken);
    } else if (maxWait != null) {
      spec.maxWaitMillis(maxWait);
    }
  }

  /**
   * The {@code key} of a methods entry: the index of the parameter that keys the buckets.
   *
   * @param key the node, or null
   * @param path {@code limits[i].key}
   * @param hasMethods whether the entry has {@code methods} (an override of an annotation has none,
   *     and keeps its own key)
   * @return 0..254; null if not given or invalid
   */
  private Long keyIndex(Node key, String path, boolean hasMethods) {
    if (key instanceof ScalarNode
        && Tag.STR.equals(((ScalarNode) key).getTag())
        && !((ScalarNode) key).getValue().matches("[-+]?[0-9]+")) { // "0": the quoted-number rule
      fields.error(
          key,
          path
              + " of a methods entry must be a parameter index, 0..254, was '"
              + ((ScalarNode) key).getValue()
              + "' (client, user, header:, param: and cookie: keys are for http entries)");
      return null;
    }
    Long index = fields.whole(key, path, 0);
    if (index != null && index > 254) {
      fields.error(key, path + " must be a parameter index, 0..254, was " + YamlFields.text(key));
      return null;
    }
    if (index != null && !hasMethods) {
      fields.error(
          key,
          path
              + " needs methods: an entry without methods overrides an annotated limiter,"
              + " which keeps its own @LimitKey, was "
              + YamlFields.text(key));
    }
    return index;
  }

  /**
   * The entry's {@code scope} and {@code onBackendFailure}: a cluster limit needs a backend, and a
   * spec the backend can hold (judged only when the entry has no error so far).
   *
   * @return what a cluster limit does when its backend fails; null for a local limit
   */
  private ClusterScope.OnFailure scope(
      Map<String, Node> entry, String path, LimitSpec.Builder spec, int errorsBefore) {
    String scope = fields.choice(entry.get("scope"), path + ".scope", "local", "cluster");
    Node onFailure = entry.get("onBackendFailure");
    String failure =
        fields.choice(onFailure, path + ".onBackendFailure", "local", "allow", "reject");
    if (failure != null && !"cluster".equals(scope)) {
      fields.error(
          onFailure,
          path
              + ".onBackendFailure is for scope: cluster limits (a local limit has no backend to"
              + " fail), was "
              + failure);
    }
    if (!"cluster".equals(scope)) {
      return null;
    }
    if (!backendGiven) {
      fields.error(
          entry.get("scope"),
          path
              + ".scope cluster needs a top-level backend (backend: redis://HOST:PORT), and"
              + " the file has none");
    }
    if (fields.errorCount() == errorsBefore) {
      String problem = spec.build().clusterProblem();
      if (problem != null) {
        fields.error(
            entry.get("scope"), path + ".scope cluster cannot hold this limit: " + problem);
      }
    }
    return failure == null
        ? ClusterScope.OnFailure.LOCAL
        : ClusterScope.OnFailure.valueOf(failure.toUpperCase(Locale.ROOT));
  }

  /** An entry's {@code http}: {@code paths} (required) and {@code methods}. */
  private void httpEntry(Node node, String path, List<PathPattern> patterns, List<String> verbs) {
    Map<String, Node> http = fields.mapping(node, path, HTTP_ENTRY);
    if (http == null) {
      return;
    }
    Node paths = http.get("paths");
    if (paths == null) {
      fields.error(node, path + ".paths is required: the request paths this limit applies to");
    } else if (paths instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) paths).getValue();
      if (items.isEmpty()) {
        fields.error(paths, path + ".paths must name at least one path pattern, was an empty list");
      }
      for (int i = 0; i < items.size(); i++) {
        pathPattern(items.get(i), path + ".paths[" + i + "]", patterns);
      }
    } else {
      pathPattern(paths, path + ".paths", patterns);
    }
    Node methods = http.get("methods");
    if (methods instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) methods).getValue();
      if (items.isEmpty()) {
        fields.error(
            methods,
            path
                + ".methods must name at least one HTTP method, was an empty list (leave it out"
                + " for all)");
      }
      for (int i = 0; i < items.size(); i++) {
        httpMethod(items.get(i), path + ".methods[" + i + "]", verbs);
      }
    } else if (methods != null) {
      httpMethod(methods, path + ".methods", verbs);
    }
  }

  private void pathPattern(Node node, String path, List<PathPattern> patterns) {
    String text = fields.string(node, path);
    if (text != null) {
      try {
        patterns.add(PathPattern.parse(text));
      } catch (IllegalArgumentException e) {
        fields.error(node, path + " " + e.getMessage() + ", was '" + text + "'");
      }
    }
  }

  private void httpMethod(Node node, String path, List<String> verbs) {
    String text = fields.string(node, path);
    if (text != null && !HTTP_METHODS.contains(text)) {
      fields.error(
          node,
          path + " must be an HTTP method (" + String.join(", ", HTTP_METHODS) + "), was " + text);
    } else if (text != null && !verbs.contains(text)) {
      verbs.add(text);
    }
  }

  /** The key of an {@code http} entry: client, user, header:NAME, param:NAME or cookie:NAME. */
  private String httpKey(Node node, String path) {
    if (node == null) {
      return null;
    }
    String rule =
        " of an http entry must be client, user, header:NAME, param:NAME or cookie:NAME, was ";
    if (!(node instanceof ScalarNode) || !Tag.STR.equals(((ScalarNode) node).getTag())) {
      fields.error(
          node,
          path + rule + YamlFields.shown(node) + " (a parameter index is for methods entries)");
      return null;
    }
    String text = ((ScalarNode) node).getValue();
    int colon = text.indexOf(':');
    String kind = colon < 0 ? text : text.substring(0, colon);
    String name = colon < 0 ? null : text.substring(colon + 1).trim();
    boolean valid =
        colon < 0
            ? kind.equals("client") || kind.equals("user")
            : (kind.equals("header") || kind.equals("param") || kind.equals("cookie"))
                && !name.isEmpty();
    if (!valid) {
      fields.error(node, path + rule + "'" + text + "'");
      return null;
    }
    return colon < 0 ? kind : kind + ":" + name;
  }
}
