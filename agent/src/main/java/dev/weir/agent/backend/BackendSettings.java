package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.config.BackendTls;
import dev.weir.agent.config.BackendUri;
import dev.weir.agent.config.ConfigFile;
import dev.weir.agent.config.ConfigLimit;
import java.util.ArrayList;
import java.util.List;

/**
 * A config file's backend ({@code backend}, {@code backendTimeoutMillis}, {@code backendKeyPrefix},
 * {@code backendTls}, {@code backendAllowEviction}) and its connection, shared by the cluster
 * limits of every version of the file that keeps these settings: a reload that changes none of them
 * keeps the connection. Thread-safe.
 */
public final class BackendSettings {
  private final List<BackendUri> uris;
  private final long timeoutMillis;
  private final String keyPrefix;
  private final BackendTls tls;
  private final boolean allowEviction;
  private RedisBackend backend;

  private BackendSettings(
      List<BackendUri> uris,
      long timeoutMillis,
      String keyPrefix,
      BackendTls tls,
      boolean allowEviction) {
    this.uris = uris;
    this.timeoutMillis = timeoutMillis;
    this.keyPrefix = keyPrefix;
    this.tls = tls;
    this.allowEviction = allowEviction;
  }

  /**
   * The backend settings of a valid config file, not connected yet.
   *
   * @param file the file
   * @return the settings; null if the file names no backend
   */
  public static BackendSettings of(ConfigFile file) {
    if (file.backends().isEmpty()) {
      return null;
    }
    return new BackendSettings(
        new ArrayList<BackendUri>(file.backends()),
        file.backendTimeoutMillis(),
        file.backendKeyPrefix(),
        file.backendTls(),
        file.backendAllowEviction());
  }

  /**
   * Whether another version of the file has the same backend settings (passwords and the content of
   * the TLS files included), so that its connection and its cluster limits can be kept.
   *
   * @param other the other settings, or null
   * @return true if every setting is alike
   */
  public boolean sameAs(BackendSettings other) {
    return other != null
        && uris.equals(other.uris)
        && timeoutMillis == other.timeoutMillis
        && keyPrefix.equals(other.keyPrefix)
        && (tls == null ? other.tls == null : tls.equals(other.tls))
        && allowEviction == other.allowEviction;
  }

  /**
   * The cluster scope of one limit: starts connecting (in the background) on first use.
   *
   * @param limit a {@code scope: cluster} limit
   * @return its scope
   */
  public ClusterScope scopeFor(ConfigLimit limit) {
    return new ClusterScope(connect(), keyPrefix, limit.name(), limit.onBackendFailure());
  }

  /**
   * The backend, connecting in the background on the first call.
   *
   * @return the backend
   */
  public synchronized RedisBackend connect() {
    if (backend == null) {
      backend = RedisBackend.start(uris, timeoutMillis, keyPrefix, tls, allowEviction);
    }
    return backend;
  }

  /** Closes the connection, if one was made: the file's next version has other settings. */
  public synchronized void close() {
    if (backend != null) {
      backend.close();
    }
  }

  @Override
  public String toString() {
    return RedisBackend.describe(uris)
        + " timeout "
        + timeoutMillis
        + " ms"
        + (keyPrefix.isEmpty() ? "" : " key prefix " + keyPrefix)
        + (tls == null ? "" : " " + tls)
        + (allowEviction ? " eviction allowed" : "");
  }
}
