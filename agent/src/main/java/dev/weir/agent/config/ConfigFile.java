package dev.weir.agent.config;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.LimitRules;
import dev.weir.agent.bootstrap.http.AddressBlock;
import dev.weir.agent.bootstrap.http.HttpGate;
import dev.weir.agent.bootstrap.http.PathPattern;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.CoreScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads and validates the config file (YAML). Every error of the file is collected, each naming
 * {@code file:line}, the key path, the rule and the value, as {@code weir.yaml:7:
 * limits[1].tokenBucket.rate must be > 0, was -3}: this is the one place config errors come from.
 *
 * <p>Keys: top level {@code backend} (and {@code backendTimeoutMillis}, {@code backendKeyPrefix},
 * {@code backendTls}, {@code backendAllowEviction}), {@code http} ({@code trustedProxies}, {@code
 * status}, {@code answerLimitedMethods}, {@code ipv6PrefixLength}, {@code maxBlockedThreads}),
 * {@code limits}; entry {@code name} (required), {@code methods} or {@code http} ({@code paths},
 * {@code methods}), exactly one of {@code tokenBucket} / {@code leakyBucket} (keys {@code rate},
 * {@code per}, {@code capacity}, and {@code permits} or {@code mode}), {@code onLimit}, {@code
 * maxWaitMillis}, {@code key}, {@code scope}, {@code dryRun}. Any other key is an error. Defaults
 * as the annotations. Values have the types of the YAML 1.2 core schema: a number where a number
 * belongs ({@code "5"} is a string, {@code 1_000} is not a number), {@code true} or {@code false}
 * where a flag belongs, a string where a name or a pattern belongs. Not thread-safe; use one
 * instance per file.
 */
public final class ConfigFile {
  private static final List<String> TOP =
      Arrays.asList(
          "backend",
          "backendTimeoutMillis",
          "backendKeyPrefix",
          "backendTls",
          "backendAllowEviction",
          "http",
          "limits");
  private static final List<String> TLS_KEYS =
      Arrays.asList("caCertificate", "certificate", "privateKey");
  private static final List<String> HTTP_SETTINGS =
      Arrays.asList(
          "trustedProxies",
          "status",
          "answerLimitedMethods",
          "ipv6PrefixLength",
          "maxBlockedThreads");
  private static final List<String> HTTP_ENTRY = Arrays.asList("paths", "methods");
  private static final List<String> HTTP_METHODS =
      Arrays.asList("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");
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
      Arrays.asList("rate", "per", "capacity", "permits");
  private static final List<String> LEAKY_KEYS = Arrays.asList("rate", "per", "capacity", "mode");

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final CoreScalarResolver TYPES = new CoreScalarResolver(false);

  private final String label;

  /** The variables for {@code ${NAME}}; null for the process's own. */
  private final Map<String, String> environment;

  private final List<Problem> errors = new ArrayList<Problem>();
  private final List<ConfigLimit> limits = new ArrayList<ConfigLimit>();
  private final List<String> warnings = new ArrayList<String>();
  private final List<AddressBlock> trustedProxies = new ArrayList<AddressBlock>();
  private final List<BackendUri> backends = new ArrayList<BackendUri>();
  private long backendTimeoutMillis = 100;
  private String backendKeyPrefix = "";
  private boolean backendGiven;
  private BackendTls backendTls;
  private boolean backendAllowEviction;
  private int httpStatus = 429;
  private boolean answerLimitedMethods = true;
  private int ipv6PrefixLength = HttpGate.DEFAULT_IPV6_PREFIX_LENGTH;
  private int maxBlockedThreads = 8;

  private ConfigFile(String label) {
    // the process environment is read only for a file that names a variable: reading it loads
    // JDK classes (on JDK 25, ProcessImpl) that config patterns may name
    this(label, null);
  }

  private ConfigFile(String label, Map<String, String> environment) {
    this.label = label;
    this.environment = environment;
  }

  /**
   * Validates the content of a config file, read already (by a watch, which compares it).
   *
   * @param path the file, for messages
   * @param content its bytes, UTF-8
   * @return the file's limits, or its errors
   */
  public static ConfigFile read(String path, byte[] content) {
    ConfigFile config = new ConfigFile(path);
    config.parse(new InputStreamReader(new ByteArrayInputStream(content), StandardCharsets.UTF_8));
    return config;
  }

  /**
   * Reads and validates a config file.
   *
   * @param path the file, as the user gave it (messages name it so)
   * @return the file's limits, or its errors (a file that cannot be read is an error)
   */
  public static ConfigFile read(String path) {
    ConfigFile config = new ConfigFile(path);
    File file = new File(path);
    try (Reader reader = new InputStreamReader(new FileInputStream(file), StandardCharsets.UTF_8)) {
      config.parse(reader);
    } catch (IOException e) {
      config.errors.add(
          new Problem(0, path + ": cannot read the config file (" + e.getMessage() + ")"));
    }
    return config;
  }

  /**
   * Parses config text.
   *
   * @param label the name messages use for it
   * @param text the YAML
   * @return the limits, or the errors
   */
  public static ConfigFile parse(String label, String text) {
    ConfigFile config = new ConfigFile(label);
    config.parse(new StringReader(text));
    return config;
  }

  /**
   * Parses config text with the given environment for {@code ${NAME}}.
   *
   * @param label the name messages use for it
   * @param text the YAML
   * @param environment the variables {@code ${NAME}} is replaced from
   * @return the limits, or the errors
   */
  public static ConfigFile parse(String label, String text, Map<String, String> environment) {
    ConfigFile config = new ConfigFile(label, environment);
    config.parse(new StringReader(text));
    return config;
  }

  /**
   * Every error of the file, in file order.
   *
   * @return the errors, empty when the file is valid
   */
  public List<String> errors() {
    List<Problem> byLine = new ArrayList<Problem>(errors);
    Collections.sort(byLine); // stable: errors of one line keep their order
    List<String> lines = new ArrayList<String>();
    for (Problem problem : byLine) {
      lines.add(problem.text);
    }
    return Collections.unmodifiableList(lines);
  }

  /**
   * What is valid but likely not meant: a file that limits nothing.
   *
   * @return the warnings, each naming the file
   */
  public List<String> warnings() {
    return Collections.unmodifiableList(warnings);
  }

  /**
   * The limits, when there are no errors.
   *
   * @return the limits in file order
   */
  public List<ConfigLimit> limits() {
    return Collections.unmodifiableList(limits);
  }

  /**
   * The top-level {@code http.trustedProxies}.
   *
   * @return the proxies' addresses and blocks; empty if none (then {@code X-Forwarded-For} is
   *     ignored)
   */
  public List<AddressBlock> trustedProxies() {
    return Collections.unmodifiableList(trustedProxies);
  }

  /**
   * The top-level {@code backend}: one URI, or the seed nodes of a Redis Cluster.
   *
   * @return the URIs, in file order; empty without a backend
   */
  public List<BackendUri> backends() {
    return Collections.unmodifiableList(backends);
  }

  /**
   * The top-level {@code backendKeyPrefix}: what every key of a cluster bucket starts with.
   *
   * @return the prefix; empty if none was given
   */
  public String backendKeyPrefix() {
    return backendKeyPrefix;
  }

  /**
   * The top-level {@code backendTimeoutMillis}: the bound on every exchange with the backend.
   *
   * @return milliseconds, {@code >= 1}; 100 unless the file says otherwise
   */
  public long backendTimeoutMillis() {
    return backendTimeoutMillis;
  }

  /**
   * The top-level {@code backendTls}: the PEM files of a {@code rediss://} backend's own TLS.
   *
   * @return the files' certificates and key; null if not given (the JVM's default trust applies)
   */
  public BackendTls backendTls() {
    return backendTls;
  }

  /**
   * The top-level {@code backendAllowEviction}: whether a Redis that evicts keys is used anyway.
   *
   * @return true if the file says {@code true}; false by default
   */
  public boolean backendAllowEviction() {
    return backendAllowEviction;
  }

  /**
   * The top-level {@code http.status}: the status of a limited request's answer.
   *
   * @return 400..599; 429 unless the file says otherwise
   */
  public int httpStatus() {
    return httpStatus;
  }

  /**
   * The top-level {@code http.maxBlockedThreads}: how many requests that cannot be suspended may
   * hold their thread while they wait, at once in the JVM (0: none).
   *
   * @return threads, {@code >= 0}; 8 unless the file says
   */
  public int maxBlockedThreads() {
    return maxBlockedThreads;
  }

  /**
   * The top-level {@code http.answerLimitedMethods}: whether a {@code RateLimitedException} that
   * escapes a servlet is answered as a limited request.
   *
   * @return true unless the file says {@code false}
   */
  public boolean answerLimitedMethods() {
    return answerLimitedMethods;
  }

  /**
   * The top-level {@code http.ipv6PrefixLength}: the bits of an IPv6 client's address its {@code
   * client} key keeps.
   *
   * @return 1..128; 64 unless the file says otherwise
   */
  public int ipv6PrefixLength() {
    return ipv6PrefixLength;
  }

  private void parse(Reader reader) {
    try {
      parseOwn(reader);
    } catch (StackOverflowError deep) {
      // YAML nested thousands of levels deep: an invalid file, never a reason to start unlimited
      errors.clear();
      limits.clear();
      errors.add(
          new Problem(
              0, label + ": not valid YAML: it nests too deeply to be read (thousands of levels)"));
    } catch (RuntimeException unexpected) {
      errors.clear();
      limits.clear();
      errors.add(new Problem(0, label + ": cannot be read: " + unexpected));
    }
  }

  private void parseOwn(Reader reader) {
    Node root;
    try {
      LoadSettings settings =
          LoadSettings.builder().setLabel(label).setSchema(new CoreSchema()).build();
      root = new Compose(settings).composeReader(reader).orElse(null);
    } catch (MarkedYamlEngineException e) {
      Mark mark = e.getProblemMark().orElse(e.getContextMark().orElse(null));
      int line = mark == null ? 1 : mark.getLine() + 1;
      errors.add(new Problem(line, label + ":" + line + ": not valid YAML: " + e.getProblem()));
      return;
    } catch (YamlEngineException e) {
      errors.add(new Problem(0, label + ": not valid YAML: " + e.getMessage()));
      return;
    }
    if (isNothing(root)) { // a file truncated or not yet written never means "no limits"
      errors.add(
          new Problem(
              0,
              label
                  + (root == null
                      ? ": the config file is empty (nothing but blanks and comments)"
                      : ": the config file's one document is empty")
                  + ": write `limits: []` to remove every limit"));
      return;
    }
    int before = errors.size();
    root = substituted(root, null);
    if (errors.size() > before) {
      return; // an unset variable: no value after it can be judged
    }
    Map<String, Node> top = mapping(root, "the file", TOP);
    if (top == null) {
      return;
    }
    Node backend = top.get("backend");
    backendGiven = backend != null;
    if (backend instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) backend).getValue();
      if (items.isEmpty()) {
        error(backend, "backend must name at least one redis:// URI, was an empty list");
      }
      for (int i = 0; i < items.size(); i++) {
        BackendUri uri = backendUri(items.get(i), "backend[" + i + "]");
        if (uri != null && uri.database() != 0) {
          error(
              items.get(i),
              "backend["
                  + i
                  + "] must use database 0: a Redis Cluster (a list of URIs) has no other, was "
                  + uri);
        }
      }
    } else if (backend != null) {
      backendUri(backend, "backend");
    }
    Long timeout = whole(top.get("backendTimeoutMillis"), "backendTimeoutMillis", 1);
    if (timeout != null) {
      backendTimeoutMillis = timeout;
    }
    Node prefix = top.get("backendKeyPrefix");
    String prefixText = prefix == null ? null : string(prefix, "backendKeyPrefix");
    if (prefixText != null
        && (prefixText.isEmpty()
            || prefixText.indexOf('{') >= 0
            || prefixText.indexOf('}') >= 0
            || hasControlCharacter(prefixText)
            || prefixText.indexOf(' ') >= 0)) {
      error(
          prefix,
          "backendKeyPrefix must be a non-empty key prefix without spaces, braces or control"
              + " characters (braces are Redis Cluster hash tags), was \""
              + escaped(prefixText)
              + "\"");
    } else if (prefixText != null) {
      backendKeyPrefix = prefixText;
    }
    Node tls = top.get("backendTls");
    if (tls != null) {
      backendTls(tls);
    }
    String allowEviction = flag(top.get("backendAllowEviction"), "backendAllowEviction");
    if (allowEviction != null) {
      backendAllowEviction = allowEviction.equals("true");
    }
    Node http = top.get("http");
    if (http != null) {
      httpSettings(http);
    }
    Node list = top.get("limits");
    if (isNothing(list)) {
      warnings.add(label + ": the config file has no limits: it limits nothing");
      return;
    }
    if (!(list instanceof SequenceNode)) {
      error(list, "limits must be a list of limits, was " + kind(list));
      return;
    }
    Map<String, String> names = new HashMap<String, String>();
    List<Node> entries = ((SequenceNode) list).getValue();
    if (entries.isEmpty()) {
      warnings.add(label + ": the config file's list of limits is empty: it limits nothing");
    }
    for (int i = 0; i < entries.size(); i++) {
      entry(entries.get(i), "limits[" + i + "]", names);
    }
  }

  private void entry(Node node, String path, Map<String, String> names) {
    Map<String, Node> entry = mapping(node, path, ENTRY);
    if (entry == null) {
      return;
    }
    int errorsBefore = errors.size();
    String name = null;
    Node nameNode = entry.get("name");
    if (nameNode == null) {
      error(node, path + ".name is required");
    } else {
      name = string(nameNode, path + ".name");
      if (name != null && name.trim().isEmpty()) {
        error(nameNode, path + ".name must not be empty");
        name = null;
      } else if (name != null && hasControlCharacter(name)) {
        error(
            nameNode,
            path
                + ".name must be one line without control characters (it names the limit in"
                + " logs and answers), was \""
                + escaped(name)
                + "\"");
        name = null;
      } else if (name != null && names.containsKey(name)) {
        error(nameNode, path + ".name '" + name + "' is already used by " + names.get(name));
      } else if (name != null) {
        names.put(name, path);
      }
    }
    List<MethodPattern> patterns = new ArrayList<MethodPattern>();
    Node methods = entry.get("methods");
    if (methods instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) methods).getValue();
      if (items.isEmpty()) {
        error(methods, path + ".methods must name at least one method pattern, was an empty list");
      }
      for (int i = 0; i < items.size(); i++) {
        pattern(items.get(i), path + ".methods[" + i + "]", patterns);
      }
    } else if (methods != null) {
      pattern(methods, path + ".methods", patterns);
    }
    Node token = entry.get("tokenBucket");
    Node leaky = entry.get("leakyBucket");
    if ((token == null) == (leaky == null)) {
      error(node, path + " must have exactly one of tokenBucket and leakyBucket");
      return;
    }
    String bucketPath = path + (token != null ? ".tokenBucket" : ".leakyBucket");
    Map<String, Node> bucket =
        mapping(token != null ? token : leaky, bucketPath, token != null ? TOKEN_KEYS : LEAKY_KEYS);
    if (bucket == null) {
      return;
    }
    Discipline discipline = Discipline.TOKEN_BUCKET;
    if (leaky != null) {
      String mode = choice(bucket.get("mode"), bucketPath + ".mode", "SHAPING", "POLICING");
      discipline = "POLICING".equals(mode) ? Discipline.POLICING : Discipline.SHAPING;
    }
    LimitSpec.Builder spec = LimitSpec.builder(discipline);
    if (name != null) {
      spec.name(name);
    }
    Node rate = bucket.get("rate");
    Double value = null;
    if (rate == null) {
      error(token != null ? token : leaky, bucketPath + ".rate is required");
    } else {
      value = number(rate, bucketPath + ".rate");
    }
    String per =
        choice(
            bucket.get("per"),
            bucketPath + ".per",
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
    Double rateValue = null;
    String broken = value == null ? null : LimitRules.rate(value, unit, text(rate));
    if (broken != null) {
      error(rate, bucketPath + ".rate " + broken);
    } else if (value != null) {
      rateValue = value;
      spec.rate(value);
    }
    Node capacityNode = bucket.get("capacity");
    Long capacity = rule(capacityNode, bucketPath + ".capacity", 0);
    if (capacity != null) {
      broken = LimitRules.definedCapacity(capacity, text(capacityNode));
      if (broken != null) {
        error(capacityNode, bucketPath + ".capacity " + broken);
        capacity = null;
      } else {
        spec.capacity(capacity);
      }
    }
    Node permitsNode = bucket.get("permits");
    Long permits = rule(permitsNode, bucketPath + ".permits", 1);
    if (permits != null) {
      long effective =
          capacity != null && capacity > 0
              ? capacity
              : rateValue != null ? LimitSpec.defaultCapacity(rateValue) : Long.MAX_VALUE;
      broken = LimitRules.permits(permits, effective, false, text(permitsNode));
      if (broken != null) {
        error(permitsNode, bucketPath + ".permits " + broken);
      } else {
        spec.permits(permits.intValue());
      }
    }
    String onLimit = choice(entry.get("onLimit"), path + ".onLimit", "REJECT", "WAIT");
    spec.waitOnLimit("WAIT".equals(onLimit));
    Node maxWaitNode = entry.get("maxWaitMillis");
    Long maxWait = rule(maxWaitNode, path + ".maxWaitMillis", 0);
    String waitBroken =
        maxWait == null ? null : LimitRules.maxWaitMillis(maxWait, text(maxWaitNode));
    if (waitBroken != null) {
      error(maxWaitNode, path + ".maxWaitMillis " + waitBroken);
    } else if (maxWait != null) {
      spec.maxWaitMillis(maxWait);
    }
    Node key = entry.get("key");
    Node http = entry.get("http");
    List<PathPattern> paths = new ArrayList<PathPattern>();
    List<String> httpMethods = new ArrayList<String>();
    String httpKey = null;
    if (http != null) {
      if (methods != null) {
        error(http, path + " must have at most one of methods and http");
      }
      httpEntry(http, path + ".http", paths, httpMethods);
      httpKey = httpKey(key, path + ".key");
      key = null;
    } else if (key instanceof ScalarNode
        && Tag.STR.equals(((ScalarNode) key).getTag())
        && !((ScalarNode) key).getValue().matches("[-+]?[0-9]+")) { // "0": the quoted-number rule
      error(
          key,
          path
              + ".key of a methods entry must be a parameter index, 0..254, was '"
              + ((ScalarNode) key).getValue()
              + "' (client, user, header:, param: and cookie: keys are for http entries)");
      key = null;
    }
    Long keyIndex = whole(key, path + ".key", 0);
    if (keyIndex != null && keyIndex > 254) {
      error(key, path + ".key must be a parameter index, 0..254, was " + text(key));
      keyIndex = null;
    } else if (keyIndex != null && methods == null) {
      error(
          key,
          path
              + ".key needs methods: an entry without methods overrides an annotated limiter,"
              + " which keeps its own @LimitKey, was "
              + text(key));
    }
    String scope = choice(entry.get("scope"), path + ".scope", "local", "cluster");
    Node onFailure = entry.get("onBackendFailure");
    String failure = choice(onFailure, path + ".onBackendFailure", "local", "allow", "reject");
    if (failure != null && !"cluster".equals(scope)) {
      error(
          onFailure,
          path
              + ".onBackendFailure is for scope: cluster limits (a local limit has no backend to"
              + " fail), was "
              + failure);
    }
    ClusterScope.OnFailure onBackendFailure = null;
    if ("cluster".equals(scope)) {
      onBackendFailure =
          failure == null
              ? ClusterScope.OnFailure.LOCAL
              : ClusterScope.OnFailure.valueOf(failure.toUpperCase(Locale.ROOT));
      if (!backendGiven) {
        error(
            entry.get("scope"),
            path
                + ".scope cluster needs a top-level backend (backend: redis://HOST:PORT), and"
                + " the file has none");
      }
      if (errors.size() == errorsBefore) {
        String problem = spec.build().clusterProblem();
        if (problem != null) {
          error(entry.get("scope"), path + ".scope cluster cannot hold this limit: " + problem);
        }
      }
    }
    String dryRun = flag(entry.get("dryRun"), path + ".dryRun");
    if (errors.size() == errorsBefore && name != null) {
      limits.add(
          new ConfigLimit(
              name,
              patterns,
              spec.build(),
              keyIndex == null ? -1 : keyIndex.intValue(),
              "true".equals(dryRun),
              label + ":" + line(node),
              paths,
              httpMethods,
              httpKey,
              onBackendFailure));
    }
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
          error(
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

  /** A backend URI; null (with an error) if it is not one. */
  private BackendUri backendUri(Node node, String path) {
    String text = string(node, path);
    if (text == null) {
      return null;
    }
    try {
      BackendUri uri = BackendUri.parse(text);
      backends.add(uri);
      return uri;
    } catch (IllegalArgumentException e) {
      error(node, path + " " + e.getMessage() + ", was '" + hidePassword(text) + "'");
      return null;
    }
  }

  /**
   * The top-level {@code backendTls}: {@code caCertificate}, {@code certificate} and {@code
   * privateKey}, PEM files (a relative path is the config file's neighbour), each read and checked
   * now; only for {@code rediss://} backends.
   */
  private void backendTls(Node node) {
    Map<String, Node> files = mapping(node, "backendTls", TLS_KEYS);
    if (files == null) {
      return;
    }
    for (BackendUri uri : backends) {
      if (!uri.tls()) {
        error(
            node,
            "backendTls is for rediss:// backends (TLS), and backend "
                + uri
                + " is redis://: use rediss://, or leave backendTls out");
        return;
      }
    }
    int before = errors.size();
    List<BackendTls.Pem> read = new ArrayList<BackendTls.Pem>();
    BackendTls.Pem ca = pem(files.get("caCertificate"), "backendTls.caCertificate", read);
    BackendTls.Pem certificate = pem(files.get("certificate"), "backendTls.certificate", read);
    BackendTls.Pem key = pem(files.get("privateKey"), "backendTls.privateKey", read);
    List<X509Certificate> authorities = null;
    List<X509Certificate> chain = null;
    PrivateKey privateKey = null;
    try {
      authorities = ca == null ? null : BackendTls.certificates(ca);
    } catch (IllegalArgumentException e) {
      error(files.get("caCertificate"), "backendTls.caCertificate " + e.getMessage());
    }
    try {
      chain = certificate == null ? null : BackendTls.certificates(certificate);
    } catch (IllegalArgumentException e) {
      error(files.get("certificate"), "backendTls.certificate " + e.getMessage());
    }
    try {
      privateKey = key == null ? null : BackendTls.privateKey(key);
    } catch (IllegalArgumentException e) {
      error(files.get("privateKey"), "backendTls.privateKey " + e.getMessage());
    }
    if (errors.size() > before) {
      return;
    }
    if (files.containsKey("certificate") != files.containsKey("privateKey")) {
      error(
          node,
          "backendTls.certificate and backendTls.privateKey go together (a client certificate and"
              + " its key), was only "
              + (files.containsKey("certificate") ? "certificate" : "privateKey"));
      return;
    }
    try {
      backendTls = BackendTls.of(authorities, chain, privateKey, read);
    } catch (IllegalArgumentException e) {
      error(
          files.get("privateKey"),
          "backendTls." + e.getMessage() + " (" + key.file + ", " + certificate.file + ")");
    }
  }

  /** One {@code backendTls} file, read; null (with an error) if it cannot be, or not given. */
  private BackendTls.Pem pem(Node node, String path, List<BackendTls.Pem> read) {
    if (node == null) {
      return null;
    }
    String text = string(node, path);
    if (text == null) {
      return null;
    }
    File file = new File(text);
    if (!file.isAbsolute()) {
      File dir = new File(label).getAbsoluteFile().getParentFile();
      file = new File(dir, text);
    }
    try {
      BackendTls.Pem pem = BackendTls.Pem.read(file);
      read.add(pem);
      return pem;
    } catch (IllegalArgumentException e) {
      error(node, path + " " + e.getMessage() + ", was '" + text + "'");
      return null;
    }
  }

  /** A URI as it may be shown: its password (after a ':' in what comes before '@') hidden. */
  private static String hidePassword(String text) {
    int scheme = text.indexOf("://");
    int at = text.lastIndexOf('@');
    if (scheme < 0 || at < scheme) {
      return text;
    }
    int colon = text.indexOf(':', scheme + 3);
    return colon >= 0 && colon < at
        ? text.substring(0, colon + 1) + "***" + text.substring(at)
        : text;
  }

  /**
   * The top-level {@code http} settings: {@code trustedProxies}, {@code status}, {@code
   * answerLimitedMethods} and {@code ipv6PrefixLength}.
   */
  private void httpSettings(Node node) {
    Map<String, Node> settings = mapping(node, "http", HTTP_SETTINGS);
    if (settings == null) {
      return;
    }
    Node proxies = settings.get("trustedProxies");
    if (proxies instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) proxies).getValue();
      for (int i = 0; i < items.size(); i++) {
        String text = string(items.get(i), "http.trustedProxies[" + i + "]");
        if (text != null) {
          try {
            trustedProxies.add(AddressBlock.parse(text.trim()));
          } catch (IllegalArgumentException e) {
            error(
                items.get(i),
                "http.trustedProxies[" + i + "] " + e.getMessage() + ", was '" + text + "'");
          }
        }
      }
    } else if (proxies != null) {
      error(
          proxies,
          "http.trustedProxies must be a list of addresses and CIDR blocks, was " + kind(proxies));
    }
    Long status = whole(settings.get("status"), "http.status", 0);
    if (status != null && (status < 400 || status > 599)) {
      error(settings.get("status"), "http.status must be from 400 to 599, was " + status);
    } else if (status != null) {
      httpStatus = status.intValue();
    }
    String answer = flag(settings.get("answerLimitedMethods"), "http.answerLimitedMethods");
    if (answer != null) {
      answerLimitedMethods = answer.equals("true");
    }
    Long prefix = whole(settings.get("ipv6PrefixLength"), "http.ipv6PrefixLength", 1);
    if (prefix != null && prefix > 128) {
      error(
          settings.get("ipv6PrefixLength"),
          "http.ipv6PrefixLength must be from 1 to 128 (bits of an IPv6 address), was " + prefix);
    } else if (prefix != null) {
      ipv6PrefixLength = prefix.intValue();
    }
    Long blocked = whole(settings.get("maxBlockedThreads"), "http.maxBlockedThreads", 0);
    if (blocked != null && blocked > Integer.MAX_VALUE) {
      error(
          settings.get("maxBlockedThreads"),
          "http.maxBlockedThreads must be at most " + Integer.MAX_VALUE + ", was " + blocked);
    } else if (blocked != null) {
      maxBlockedThreads = blocked.intValue();
    }
  }

  /** An entry's {@code http}: {@code paths} (required) and {@code methods}. */
  private void httpEntry(Node node, String path, List<PathPattern> patterns, List<String> verbs) {
    Map<String, Node> http = mapping(node, path, HTTP_ENTRY);
    if (http == null) {
      return;
    }
    Node paths = http.get("paths");
    if (paths == null) {
      error(node, path + ".paths is required: the request paths this limit applies to");
    } else if (paths instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) paths).getValue();
      if (items.isEmpty()) {
        error(paths, path + ".paths must name at least one path pattern, was an empty list");
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
        error(
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
    String text = string(node, path);
    if (text != null) {
      try {
        patterns.add(PathPattern.parse(text));
      } catch (IllegalArgumentException e) {
        error(node, path + " " + e.getMessage() + ", was '" + text + "'");
      }
    }
  }

  private void httpMethod(Node node, String path, List<String> verbs) {
    String text = string(node, path);
    if (text != null && !HTTP_METHODS.contains(text)) {
      error(
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
      error(node, path + rule + shown(node) + " (a parameter index is for methods entries)");
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
      error(node, path + rule + "'" + text + "'");
      return null;
    }
    return colon < 0 ? kind : kind + ":" + name;
  }

  private void pattern(Node node, String path, List<MethodPattern> patterns) {
    String text = string(node, path);
    if (text == null) {
      return;
    }
    try {
      patterns.add(MethodPattern.parse(text));
    } catch (IllegalArgumentException e) {
      error(node, path + " " + e.getMessage() + ", was '" + text + "'");
    }
  }

  /** A mapping's entries by key, each key checked against {@code known}; null if not a mapping. */
  private Map<String, Node> mapping(Node node, String path, List<String> known) {
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

  private String scalar(Node node, String path) {
    if (!(node instanceof ScalarNode)) {
      error(node, path + " must be a single value, was " + kind(node));
      return null;
    }
    return ((ScalarNode) node).getValue();
  }

  /** A string that names a thing (a name, a pattern, a URI); a number or a flag is refused. */
  private String string(Node node, String path) {
    String value = scalar(node, path);
    if (value != null && !Tag.STR.equals(((ScalarNode) node).getTag())) {
      error(node, path + " must be a string, was " + shown(node) + " (quote it to use it as text)");
      return null;
    }
    return value;
  }

  /** {@code true} or {@code false}, as YAML writes them; a quoted one is a string. */
  private String flag(Node node, String path) {
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

  private String choice(Node node, String path, String... allowed) {
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
  private Double number(Node node, String path) {
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
   * A whole number whose range a rule of {@link LimitRules} checks: an int of the core schema, of
   * any sign; not one says {@code must be a whole number >= typeMin}.
   */
  private Long rule(Node node, String path, long typeMin) {
    return whole(node, path, typeMin, false);
  }

  /** A whole number: an int of the core schema ({@code 12}, {@code 0x1F}, {@code 0o17}). */
  private Long whole(Node node, String path, long min) {
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
  private static boolean isNothing(Node node) {
    return node == null || node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  /** A scalar as written, saying when quotes or a tag made a number or a flag a string. */
  private static boolean hasControlCharacter(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        return true;
      }
    }
    return false;
  }

  /** Text with its control characters written as escapes, so a message stays one line. */
  private static String escaped(String text) {
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

  private static String shown(Node node) {
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

  private static String text(Node node) {
    return node instanceof ScalarNode ? ((ScalarNode) node).getValue() : kind(node);
  }

  private static String kind(Node node) {
    if (node instanceof MappingNode) {
      return "a map";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    return "'" + text(node) + "'";
  }

  private void error(Node node, String message) {
    int line = line(node);
    errors.add(new Problem(line, label + ":" + line + ": " + message));
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

  private static int line(Node node) {
    if (node == null) {
      return 1;
    }
    Optional<Mark> mark = node.getStartMark(); // no lambdas: this runs in premain
    return mark.isPresent() ? mark.get().getLine() + 1 : 1;
  }
}
