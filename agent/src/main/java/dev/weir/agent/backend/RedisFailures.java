package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.config.BackendUri;
import java.security.cert.CertificateException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import javax.net.ssl.SSLException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * How the Redis backend tells its failures apart, and their log lines. A failed exchange is one of
 * three: an error of one key ({@link #ofOneKey}: it holds another type), which fails that key's
 * calls only and is logged once per key, for 100 keys at most; a full pool ({@link #poolExhausted}:
 * more calls at once than connections), logged once, Redis being fine; or anything else, which
 * marks the backend down, and whose line ({@link #logDown}) says a server that answers with an
 * error refuses, in its words, names the host and {@code backendTls} for a certificate that cannot
 * be verified, and otherwise says the server does not answer.
 *
 * <p>Thread-safe: what was logged once is a volatile flag and a synchronized set.
 */
final class RedisFailures {
  /** The most keys whose refusal is logged, a line each. */
  private static final int MAX_LOGGED_KEYS = 100;

  private final String described;
  private final List<BackendUri> uris;

  /** Whether a full pool was logged. */
  private volatile boolean poolFullLogged;

  /** Keys whose refusal was logged (one line each). */
  private final Set<String> loggedErrors = Collections.synchronizedSet(new LinkedHashSet<String>());

  /**
   * @param described the backend's URIs for messages, passwords hidden
   * @param uris the backend's URIs: their hosts are named in a TLS failure's line
   */
  RedisFailures(String described, List<BackendUri> uris) {
    this.described = described;
    this.uris = uris;
  }

  /**
   * Whether a refusal concerns its key alone (the key holds something else than a bucket), not the
   * server (out of memory, read-only, a cluster slot down, loading, a refused password, ...).
   */
  static boolean ofOneKey(JedisDataException e) {
    String message = String.valueOf(e.getMessage());
    return message.startsWith("WEIR_STATE")
        || message.startsWith("WEIR_ARGS")
        || message.startsWith("WRONGTYPE");
  }

  /** Logs a key's refusal ({@link #ofOneKey}), once per key; never throws. */
  void keyRefused(String key, JedisDataException e) {
    if (loggedErrors.size() < MAX_LOGGED_KEYS && loggedErrors.add(key)) {
      AgentLog.error(
          "cluster bucket "
              + key
              + " on "
              + described
              + ": Redis refused the exchange ("
              + String.valueOf(e.getMessage())
              + "); its calls follow onBackendFailure");
    }
  }

  /**
   * Whether the pool had no connection to give (all in use, at {@link
   * RedisBackend#MAX_CONNECTIONS}).
   */
  static boolean poolExhausted(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof NoSuchElementException) {
        return true;
      }
    }
    return false;
  }

  /** Logs a full pool ({@link #poolExhausted}), once; never throws. */
  void poolFull() {
    if (!poolFullLogged) {
      poolFullLogged = true;
      AgentLog.warn(
          "backend "
              + described
              + ": more than "
              + RedisBackend.MAX_CONNECTIONS
              + " calls at once; the calls beyond follow onBackendFailure (logged once)");
    }
  }

  /**
   * The one line of an outage, or of a start that finds the backend down: a server that answers
   * with an error refuses, in its words; a certificate that cannot be verified names the host and
   * {@code backendTls}; otherwise the server does not answer.
   *
   * @param again appended to the line: {@code " again"} after an outage, empty at the start
   */
  void logDown(RuntimeException e, String again) {
    JedisDataException refusal = find(e, JedisDataException.class);
    SSLException tlsFailure = find(e, SSLException.class);
    if (refusal != null) {
      AgentLog.error(
          "backend "
              + described
              + " refuses Weir's calls ("
              + oneLine(refusal.getMessage())
              + "); cluster limits follow onBackendFailure until it takes them"
              + again);
    } else if (tlsFailure != null) {
      logTlsDown(e, again);
    } else {
      AgentLog.error(
          "backend "
              + described
              + " does not answer ("
              + oneLine(reason(e))
              + (uris.get(0).tls() && find(e, java.net.SocketException.class) != null
                  ? "; over TLS, a server that requires a client certificate closes the"
                      + " connection so: check backendTls.certificate"
                  : "")
              + "); cluster limits follow onBackendFailure until it answers"
              + again);
    }
  }

  /** {@link #logDown}'s line for a TLS handshake that fails. */
  private void logTlsDown(RuntimeException e, String again) {
    boolean unverified = find(e, CertificateException.class) != null;
    AgentLog.error(
        "backend "
            + described
            + ": "
            + (unverified
                ? "cannot verify the TLS certificate of " + hosts()
                : "the TLS handshake with " + hosts() + " fails")
            + " ("
            + oneLine(reason(e))
            + "): "
            + (unverified
                ? "give the CA that signs it in backendTls.caCertificate"
                : "check backendTls (caCertificate, certificate, privateKey)")
            + "; cluster limits follow onBackendFailure until it answers"
            + again);
  }

  /** The backend's host names, for a TLS message. */
  private String hosts() {
    Set<String> hosts = new LinkedHashSet<String>();
    for (BackendUri uri : uris) {
      hosts.add(uri.host());
    }
    return String.join(", ", hosts);
  }

  /** The first throwable of a type in the chain of causes and suppressed exceptions; or null. */
  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    return find(e, type, 0);
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type, int depth) {
    if (e == null || depth > 20) {
      return null;
    }
    if (type.isInstance(e)) {
      return type.cast(e);
    }
    for (Throwable s : e.getSuppressed()) {
      T found = find(s, type, depth + 1);
      if (found != null) {
        return found;
      }
    }
    return e.getCause() == e ? null : find(e.getCause(), type, depth + 1);
  }

  /**
   * What a failure says, for a log line: a server's refusal in its words, otherwise its deepest
   * cause.
   *
   * @param e the failure
   * @return one line
   */
  static String words(RuntimeException e) {
    JedisDataException refusal = find(e, JedisDataException.class);
    return oneLine(refusal != null ? refusal.getMessage() : reason(e));
  }

  private static String oneLine(String text) {
    return String.valueOf(text).replace('\r', ' ').replace('\n', ' ');
  }

  private static String reason(RuntimeException e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    if (cause instanceof java.net.UnknownHostException) {
      message = "unknown host " + message;
    }
    String kind = e instanceof JedisConnectionException ? "" : e.getClass().getSimpleName() + ": ";
    return kind + (message != null ? message : cause.getClass().getSimpleName());
  }
}
