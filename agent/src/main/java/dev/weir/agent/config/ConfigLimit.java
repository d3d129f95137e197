package dev.weir.agent.config;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.http.PathPattern;
import java.util.Collections;
import java.util.List;

/**
 * One entry of the config file's {@code limits}, validated. Immutable.
 *
 * <p>With {@link #patterns()}, the limit applies to the methods they match; with {@link #paths()},
 * to the HTTP requests they match (an {@code http} entry); with neither, it overrides the settings
 * of the annotated limiter of the same {@link #name()}.
 */
public final class ConfigLimit {
  private final String name;
  private final List<MethodPattern> patterns;
  private final LimitSpec spec;
  private final int keyIndex;
  private final boolean dryRun;
  private final String origin;
  private final List<PathPattern> paths;
  private final List<String> httpMethods;
  private final String httpKey;
  private final ClusterScope.OnFailure onBackendFailure;

  ConfigLimit(
      String name,
      List<MethodPattern> patterns,
      LimitSpec spec,
      int keyIndex,
      boolean dryRun,
      String origin,
      List<PathPattern> paths,
      List<String> httpMethods,
      String httpKey,
      ClusterScope.OnFailure onBackendFailure) {
    this.name = name;
    this.onBackendFailure = onBackendFailure;
    this.patterns = Collections.unmodifiableList(patterns);
    this.paths = Collections.unmodifiableList(paths);
    this.httpMethods = Collections.unmodifiableList(httpMethods);
    this.httpKey = httpKey;
    this.spec = spec;
    this.keyIndex = keyIndex;
    this.dryRun = dryRun;
    this.origin = origin;
  }

  /**
   * The limiter's name, JVM-wide.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The methods it limits.
   *
   * @return the patterns; empty for an override of an annotated limiter
   */
  public List<MethodPattern> patterns() {
    return patterns;
  }

  /**
   * Whether this is an {@code http} entry: it limits requests, not methods.
   *
   * @return true if it has {@link #paths()}
   */
  public boolean isHttp() {
    return !paths.isEmpty();
  }

  /**
   * The request paths an {@code http} entry limits.
   *
   * @return the path patterns; empty for a methods entry or an override
   */
  public List<PathPattern> paths() {
    return paths;
  }

  /**
   * The HTTP methods an {@code http} entry limits.
   *
   * @return the methods, upper case; empty for all
   */
  public List<String> httpMethods() {
    return httpMethods;
  }

  /**
   * The key of an {@code http} entry: {@code client}, {@code user}, {@code header:NAME}, {@code
   * param:NAME} or {@code cookie:NAME}.
   *
   * @return the key as written, or null for one bucket
   */
  public String httpKey() {
    return httpKey;
  }

  /**
   * The settings.
   *
   * @return the spec
   */
  public LimitSpec spec() {
    return spec;
  }

  /**
   * The parameter whose value is the key ({@code key:}): one bucket per distinct value.
   *
   * @return the parameter index, {@code 0..254}; {@code -1} for one bucket
   */
  public int keyIndex() {
    return keyIndex;
  }

  /**
   * Whether the limit only counts what it would limit.
   *
   * @return true for {@code dryRun: true}
   */
  public boolean dryRun() {
    return dryRun;
  }

  /**
   * Where the entry is, for messages: {@code weir.yaml:7}.
   *
   * @return file and line
   */
  public String origin() {
    return origin;
  }

  /**
   * Whether the limit is {@code scope: cluster}: its bucket kept by the backend.
   *
   * @return true for cluster scope
   */
  public boolean cluster() {
    return onBackendFailure != null;
  }

  /**
   * What a cluster limit does while the backend fails.
   *
   * @return the policy ({@code local} by default); null for a local limit
   */
  public ClusterScope.OnFailure onBackendFailure() {
    return onBackendFailure;
  }
}
