package dev.weir.agent.config;

import dev.weir.agent.bootstrap.http.AddressBlock;
import dev.weir.agent.bootstrap.http.HttpGate;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads and validates the config file (YAML). Every error of the file is collected, each naming
 * {@code file:line}, the key path, the rule and the value, as {@code weir.yaml:7:
 * limits[1].tokenBucket.rate must be > 0 and finite, was -3}: this is the one place config errors
 * come from.
 *
 * <p>Keys: top level {@code backend} (and {@code backendTimeoutMillis}, {@code backendKeyPrefix},
 * {@code backendTls}, {@code backendAllowEviction}), {@code http} ({@code trustedProxies}, {@code
 * status}, {@code answerLimitedMethods}, {@code ipv6PrefixLength}, {@code maxBlockedThreads}),
 * {@code limits}; entry {@code name} (required), {@code methods} or {@code http} ({@code paths},
 * {@code methods}), exactly one of {@code tokenBucket} / {@code leakyBucket} (keys {@code rate},
 * {@code per}, {@code capacity}, and {@code permits} or {@code mode}), {@code onLimit}, {@code
 * maxWaitMillis}, {@code key}, {@code scope}, {@code onBackendFailure}, {@code dryRun}. Any other
 * key is an error. Defaults as the annotations. Values have the types of the YAML 1.2 core schema:
 * a number where a number belongs ({@code "5"} is a string, {@code 1_000} is not a number), {@code
 * true} or {@code false} where a flag belongs, a string where a name or a pattern belongs. Not
 * thread-safe; use one instance per file.
 *
 * <p>This class reads the file-level settings; the typed values and the errors are {@link
 * YamlFields}', {@code ${NAME}} is {@link Variables}', and each entry of {@code limits} is read by
 * an {@link EntryReader}.
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

  private final String label;

  /** The variables for {@code ${NAME}}; null for the process's own. */
  private final Map<String, String> environment;

  private final YamlFields fields;
  private final List<ConfigLimit> limits = new ArrayList<ConfigLimit>();
  private final List<String> warnings = new ArrayList<String>();
  private final List<AddressBlock> trustedProxies = new ArrayList<AddressBlock>();
  private final List<BackendUri> backends = new ArrayList<BackendUri>();
  private long backendTimeoutMillis = 100;
  private String backendKeyPrefix = "";
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
    this.fields = new YamlFields(label);
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
      config.fields.add(0, path + ": cannot read the config file (" + e.getMessage() + ")");
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
    return fields.errors();
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
      fields.clear();
      limits.clear();
      fields.add(
          0, label + ": not valid YAML: it nests too deeply to be read (thousands of levels)");
    } catch (RuntimeException unexpected) {
      fields.clear();
      limits.clear();
      fields.add(0, label + ": cannot be read: " + unexpected);
    }
  }

  private void parseOwn(Reader reader) {
    Node root = compose(reader);
    if (root == null) {
      return;
    }
    int before = fields.errorCount();
    root = new Variables(fields, environment).substituted(root);
    if (fields.errorCount() > before) {
      return; // an unset variable: no value after it can be judged
    }
    Map<String, Node> top = fields.mapping(root, "the file", TOP);
    if (top == null) {
      return;
    }
    backendSettings(top);
    Node http = top.get("http");
    if (http != null) {
      httpSettings(http);
    }
    limits(top.get("limits"), top.get("backend") != null);
  }

  /**
   * The file's one YAML document, composed by the core schema.
   *
   * @return its root; null (with an error) when the text is not valid YAML or holds no value (a
   *     file truncated or not yet written never means "no limits")
   */
  private Node compose(Reader reader) {
    Node root;
    try {
      LoadSettings settings =
          LoadSettings.builder().setLabel(label).setSchema(new CoreSchema()).build();
      root = new Compose(settings).composeReader(reader).orElse(null);
    } catch (MarkedYamlEngineException e) {
      Mark mark = e.getProblemMark().orElse(e.getContextMark().orElse(null));
      int line = mark == null ? 1 : mark.getLine() + 1;
      fields.add(line, label + ":" + line + ": not valid YAML: " + e.getProblem());
      return null;
    } catch (YamlEngineException e) {
      fields.add(0, label + ": not valid YAML: " + e.getMessage());
      return null;
    }
    if (YamlFields.isNothing(root)) {
      fields.add(
          0,
          label
              + (root == null
                  ? ": the config file is empty (nothing but blanks and comments)"
                  : ": the config file's one document is empty")
              + ": write `limits: []` to remove every limit");
      return null;
    }
    return root;
  }

  /**
   * The top-level settings of cluster scope: {@code backend}, {@code backendTimeoutMillis}, {@code
   * backendKeyPrefix}, {@code backendTls} and {@code backendAllowEviction}.
   */
  private void backendSettings(Map<String, Node> top) {
    Node backend = top.get("backend");
    if (backend instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) backend).getValue();
      if (items.isEmpty()) {
        fields.error(backend, "backend must name at least one redis:// URI, was an empty list");
      }
      for (int i = 0; i < items.size(); i++) {
        BackendUri uri = backendUri(items.get(i), "backend[" + i + "]");
        if (uri != null && uri.database() != 0) {
          fields.error(
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
    Long timeout = fields.whole(top.get("backendTimeoutMillis"), "backendTimeoutMillis", 1);
    if (timeout != null) {
      backendTimeoutMillis = timeout;
    }
    backendKeyPrefix(top.get("backendKeyPrefix"));
    Node tls = top.get("backendTls");
    if (tls != null) {
      backendTls(tls);
    }
    String allowEviction = fields.flag(top.get("backendAllowEviction"), "backendAllowEviction");
    if (allowEviction != null) {
      backendAllowEviction = allowEviction.equals("true");
    }
  }

  /** The top-level {@code backendKeyPrefix}: one line, no spaces, no braces (hash tags). */
  private void backendKeyPrefix(Node prefix) {
    String prefixText = prefix == null ? null : fields.string(prefix, "backendKeyPrefix");
    if (prefixText != null
        && (prefixText.isEmpty()
            || prefixText.indexOf('{') >= 0
            || prefixText.indexOf('}') >= 0
            || YamlFields.hasControlCharacter(prefixText)
            || prefixText.indexOf(' ') >= 0)) {
      fields.error(
          prefix,
          "backendKeyPrefix must be a non-empty key prefix without spaces, braces or control"
              + " characters (braces are Redis Cluster hash tags), was \""
              + YamlFields.escaped(prefixText)
              + "\"");
    } else if (prefixText != null) {
      backendKeyPrefix = prefixText;
    }
  }

  /**
   * The top-level {@code limits}: a list of entries, each read by an {@link EntryReader}; no list,
   * or an empty one, is a warning (the file limits nothing).
   */
  private void limits(Node list, boolean backendGiven) {
    if (YamlFields.isNothing(list)) {
      warnings.add(label + ": the config file has no limits: it limits nothing");
      return;
    }
    if (!(list instanceof SequenceNode)) {
      fields.error(list, "limits must be a list of limits, was " + YamlFields.kind(list));
      return;
    }
    List<Node> entries = ((SequenceNode) list).getValue();
    if (entries.isEmpty()) {
      warnings.add(label + ": the config file's list of limits is empty: it limits nothing");
    }
    EntryReader reader = new EntryReader(fields, backendGiven);
    for (int i = 0; i < entries.size(); i++) {
      ConfigLimit limit = reader.entry(entries.get(i), "limits[" + i + "]");
      if (limit != null) {
        limits.add(limit);
      }
    }
  }

  /** A backend URI; null (with an error) if it is not one. */
  private BackendUri backendUri(Node node, String path) {
    String text = fields.string(node, path);
    if (text == null) {
      return null;
    }
    try {
      BackendUri uri = BackendUri.parse(text);
      backends.add(uri);
      return uri;
    } catch (IllegalArgumentException e) {
      fields.error(node, path + " " + e.getMessage() + ", was '" + hidePassword(text) + "'");
      return null;
    }
  }

  /**
   * The top-level {@code backendTls}: {@code caCertificate}, {@code certificate} and {@code
   * privateKey}, PEM files (a relative path is the config file's neighbour), each read and checked
   * now; only for {@code rediss://} backends.
   */
  private void backendTls(Node node) {
    Map<String, Node> files = fields.mapping(node, "backendTls", TLS_KEYS);
    if (files == null) {
      return;
    }
    for (BackendUri uri : backends) {
      if (!uri.tls()) {
        fields.error(
            node,
            "backendTls is for rediss:// backends (TLS), and backend "
                + uri
                + " is redis://: use rediss://, or leave backendTls out");
        return;
      }
    }
    int before = fields.errorCount();
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
      fields.error(files.get("caCertificate"), "backendTls.caCertificate " + e.getMessage());
    }
    try {
      chain = certificate == null ? null : BackendTls.certificates(certificate);
    } catch (IllegalArgumentException e) {
      fields.error(files.get("certificate"), "backendTls.certificate " + e.getMessage());
    }
    try {
      privateKey = key == null ? null : BackendTls.privateKey(key);
    } catch (IllegalArgumentException e) {
      fields.error(files.get("privateKey"), "backendTls.privateKey " + e.getMessage());
    }
    if (fields.errorCount() > before) {
      return;
    }
    if (files.containsKey("certificate") != files.containsKey("privateKey")) {
      fields.error(
          node,
          "backendTls.certificate and backendTls.privateKey go together (a client certificate and"
              + " its key), was only "
              + (files.containsKey("certificate") ? "certificate" : "privateKey"));
      return;
    }
    try {
      backendTls = BackendTls.of(authorities, chain, privateKey, read);
    } catch (IllegalArgumentException e) {
      fields.error(
          files.get("privateKey"),
          "backendTls." + e.getMessage() + " (" + key.file + ", " + certificate.file + ")");
    }
  }

  /** One {@code backendTls} file, read; null (with an error) if it cannot be, or not given. */
  private BackendTls.Pem pem(Node node, String path, List<BackendTls.Pem> read) {
    if (node == null) {
      return null;
    }
    String text = fields.string(node, path);
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
      fields.error(node, path + " " + e.getMessage() + ", was '" + text + "'");
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
    Map<String, Node> settings = fields.mapping(node, "http", HTTP_SETTINGS);
    if (settings == null) {
      return;
    }
    Node proxies = settings.get("trustedProxies");
    if (proxies instanceof SequenceNode) {
      List<Node> items = ((SequenceNode) proxies).getValue();
      for (int i = 0; i < items.size(); i++) {
        String text = fields.string(items.get(i), "http.trustedProxies[" + i + "]");
        if (text != null) {
          try {
            trustedProxies.add(AddressBlock.parse(text.trim()));
          } catch (IllegalArgumentException e) {
            fields.error(
                items.get(i),
                "http.trustedProxies[" + i + "] " + e.getMessage() + ", was '" + text + "'");
          }
        }
      }
    } else if (proxies != null) {
      fields.error(
          proxies,
          "http.trustedProxies must be a list of addresses and CIDR blocks, was "
              + YamlFields.kind(proxies));
    }
    Long status = fields.whole(settings.get("status"), "http.status", 0);
    if (status != null && (status < 400 || status > 599)) {
      fields.error(settings.get("status"), "http.status must be from 400 to 599, was " + status);
    } else if (status != null) {
      httpStatus = status.intValue();
    }
    String answer = fields.flag(settings.get("answerLimitedMethods"), "http.answerLimitedMethods");
    if (answer != null) {
      answerLimitedMethods = answer.equals("true");
    }
    Long prefix = fields.whole(settings.get("ipv6PrefixLength"), "http.ipv6PrefixLength", 1);
    if (prefix != null && prefix > 128) {
      fields.error(
          settings.get("ipv6PrefixLength"),
          "http.ipv6PrefixLength must be from 1 to 128 (bits of an IPv6 address), was " + prefix);
    } else if (prefix != null) {
      ipv6PrefixLength = prefix.intValue();
    }
    Long blocked = fields.whole(settings.get("maxBlockedThreads"), "http.maxBlockedThreads", 0);
    if (blocked != null && blocked > Integer.MAX_VALUE) {
      fields.error(
          settings.get("maxBlockedThreads"),
          "http.maxBlockedThreads must be at most " + Integer.MAX_VALUE + ", was " + blocked);
    } else if (blocked != null) {
      maxBlockedThreads = blocked.intValue();
    }
  }
}
