package dev.weir.agent.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;

/**
 * One {@code backend} URI of the config file: {@code
 * redis://[user:password@]host[:port][/database]} ({@code rediss://} for TLS; port 6379 when left
 * out, database 0). Immutable and thread-safe; its {@link #toString()} never shows the password.
 */
public final class BackendUri {
  private final boolean tls;
  private final String user;
  private final String password;
  private final String host;
  private final int port;
  private final int database;

  private BackendUri(
      boolean tls, String user, String password, String host, int port, int database) {
    this.tls = tls;
    this.user = user;
    this.password = password;
    this.host = host;
    this.port = port;
    this.database = database;
  }

  /**
   * Parses a URI.
   *
   * @param text the URI as written (after {@code ${NAME}} substitution)
   * @return the backend
   * @throws IllegalArgumentException naming the rule the text breaks (the caller adds the value)
   */
  public static BackendUri parse(String text) {
    boolean tls;
    if (text.startsWith("redis://")) {
      tls = false;
    } else if (text.startsWith("rediss://")) {
      tls = true;
    } else {
      throw new IllegalArgumentException("must be a redis:// or rediss:// URI");
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("must be a URI (" + e.getReason() + ")");
    }
    String host = uri.getHost();
    if (host != null && host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1); // an IPv6 literal
    }
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("must name a host, as redis://host:6379");
    }
    int port = uri.getPort() < 0 ? 6379 : uri.getPort();
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("must have a port from 1 to 65535");
    }
    String user = null;
    String password = null;
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
      if (user.isEmpty()) {
        user = null; // redis://:password@host: the default user
      }
    }
    int database = 0;
    String path = uri.getPath();
    if (path != null && !path.isEmpty() && !path.equals("/")) {
      try {
        database = Integer.parseInt(path.substring(1));
      } catch (NumberFormatException e) {
        database = -1;
      }
      if (database < 0) {
        throw new IllegalArgumentException("must have a database number >= 0 after the /");
      }
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("must have no ?query or #fragment");
    }
    return new BackendUri(tls, user, password, host, port, database);
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text.replace("+", "%2B"), "UTF-8");
    } catch (java.io.UnsupportedEncodingException | IllegalArgumentException e) {
      throw new IllegalArgumentException("must escape '%' in its user and password as %25");
    }
  }

  /**
   * Whether the connection is TLS ({@code rediss://}).
   *
   * @return true for TLS
   */
  public boolean tls() {
    return tls;
  }

  /**
   * The user (Redis 6 ACL).
   *
   * @return the user, or null for the default user
   */
  public String user() {
    return user;
  }

  /**
   * The password.
   *
   * @return the password, or null for none
   */
  public String password() {
    return password;
  }

  /**
   * The host.
   *
   * @return a name or an address
   */
  public String host() {
    return host;
  }

  /**
   * The port.
   *
   * @return 1..65535
   */
  public int port() {
    return port;
  }

  /**
   * The database index.
   *
   * @return {@code >= 0}
   */
  public int database() {
    return database;
  }

  /** The URI with its password hidden, for logs and messages. */
  @Override
  public String toString() {
    return (tls ? "rediss://" : "redis://")
        + (user != null || password != null
            ? (user == null ? "" : user) + (password == null ? "" : ":***") + "@"
            : "")
        + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
        + ":"
        + port
        + "/"
        + database;
  }

  /** Equal URIs: every part alike, the password included. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BackendUri)) {
      return false;
    }
    BackendUri u = (BackendUri) o;
    return tls == u.tls
        && port == u.port
        && database == u.database
        && host.equals(u.host)
        && String.valueOf(user).equals(String.valueOf(u.user))
        && String.valueOf(password).equals(String.valueOf(u.password));
  }

  @Override
  public int hashCode() {
    return (host.hashCode() * 31 + port) * 31 + database;
  }
}
