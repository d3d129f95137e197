package dev.weir.agent.config;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

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
   * Parses a URI. It is read as Redis clients read it, not by the stricter rules of {@code
   * java.net.URI}: the user and password are everything before the last {@code @} (so a password
   * from {@code ${NAME}} may hold {@code / @ # ?} or spaces as they are; {@code %XX} escapes in
   * them are decoded, a {@code %} that starts none is kept), and a host name may hold {@code _} (as
   * Docker Compose's service names do).
   *
   * @param text the URI as written (after {@code ${NAME}} substitution)
   * @return the backend
   * @throws IllegalArgumentException naming the rule the text breaks (the caller adds the value)
   */
  public static BackendUri parse(String text) {
    boolean tls = text.startsWith("rediss://");
    if (!tls && !text.startsWith("redis://")) {
      if (text.startsWith("unix:") || text.startsWith("redis+unix:") || text.startsWith("/")) {
        throw new IllegalArgumentException(
            "must be a redis:// or rediss:// URI: Weir reaches Redis over TCP only (a Unix socket"
                + " is not supported; give the server's host and port, as redis://127.0.0.1:6379)");
      }
      throw new IllegalArgumentException("must be a redis:// or rediss:// URI");
    }
    String rest = text.substring(tls ? "rediss://".length() : "redis://".length());
    int at = rest.lastIndexOf('@');
    String userInfo = at < 0 ? null : rest.substring(0, at);
    rest = rest.substring(at + 1);
    if (rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0) {
      throw new IllegalArgumentException("must have no ?query or #fragment");
    }
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    int portColon = portColon(authority);
    String host = host(authority, portColon);
    int port = portColon < 0 ? 6379 : port(authority.substring(portColon + 1));
    int database = database(slash < 0 ? "" : rest.substring(slash));
    return new BackendUri(tls, user(userInfo), password(userInfo), host, port, database);
  }

  /** The user of {@code user:password} (decoded); null for none or the default user. */
  private static String user(String userInfo) {
    if (userInfo == null) {
      return null;
    }
    int colon = userInfo.indexOf(':');
    String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
    return user.isEmpty() ? null : user; // redis://:password@host: the default user
  }

  /** The password of {@code user:password} (decoded): all after the first ':'; null for none. */
  private static String password(String userInfo) {
    int colon = userInfo == null ? -1 : userInfo.indexOf(':');
    return colon < 0 ? null : decode(userInfo.substring(colon + 1));
  }

  /**
   * Where the port of {@code host[:port]} or {@code [ipv6][:port]} starts.
   *
   * @return the index of the ':' before the port; -1 for none
   * @throws IllegalArgumentException for an IPv6 literal not closed, or followed by more than a
   *     port
   */
  private static int portColon(String authority) {
    if (!authority.startsWith("[")) {
      return authority.lastIndexOf(':');
    }
    int close = authority.indexOf(']'); // an IPv6 literal
    if (close < 0) {
      throw new IllegalArgumentException("must close its IPv6 address with ]");
    }
    if (authority.startsWith(":", close + 1)) {
      return close + 1;
    }
    if (close + 1 < authority.length()) {
      throw new IllegalArgumentException("must have only :port after its IPv6 address");
    }
    return -1;
  }

  /**
   * The host of {@code host[:port]}: a name or address of letters, digits, '.', '-' and '_', or the
   * address inside an IPv6 literal's brackets.
   *
   * @throws IllegalArgumentException for a host with other characters, or none
   */
  private static String host(String authority, int portColon) {
    String host;
    if (authority.startsWith("[")) {
      host = authority.substring(1, authority.indexOf(']'));
    } else {
      host = portColon < 0 ? authority : authority.substring(0, portColon);
      if (!host.matches("[A-Za-z0-9._-]*")) {
        throw new IllegalArgumentException(
            "must name a host of letters, digits, '.', '-' and '_', as redis://host:6379");
      }
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("must name a host, as redis://host:6379");
    }
    return host;
  }

  /** A port as written after the ':'; 1..65535, else an {@link IllegalArgumentException}. */
  private static int port(String text) {
    int port = text.matches("[0-9]{1,5}") ? Integer.parseInt(text) : -1;
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("must have a port from 1 to 65535");
    }
    return port;
  }

  /** The database of the path ({@code /2}); 0 for none, a negative one an exception. */
  private static int database(String path) {
    if (path.isEmpty() || path.equals("/")) {
      return 0;
    }
    int database = path.matches("/[0-9]{1,9}") ? Integer.parseInt(path.substring(1)) : -1;
    if (database < 0) {
      throw new IllegalArgumentException("must have a database number >= 0 after the /");
    }
    return database;
  }

  /** {@code %XX} escapes decoded as UTF-8; a {@code %} that starts none is kept as it is. */
  private static String decode(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); ) {
      char c = text.charAt(i);
      if (c == '%'
          && i + 2 < text.length()
          && Character.digit(text.charAt(i + 1), 16) >= 0
          && Character.digit(text.charAt(i + 2), 16) >= 0) {
        bytes.write(
            Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16));
        i += 3;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
          b = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(b, 0, b.length);
        i++;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
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
