package dev.weir.agent.bootstrap.http;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The answer to a limited request (docs/web-apps.md), written directly, never through {@code
 * sendError} (which would run the application's error pages): the {@code http.status} (429 by
 * default), {@code Retry-After} in whole seconds rounded up and at least 1, and a one-line {@code
 * text/plain} body naming the limit, with a {@code Content-Length} so the connection stays open;
 * 503 and no {@code Retry-After} for a request refused because the JVM is shutting down ({@code
 * drainOnExit}). The same answer goes to a request whose servlet or filter threw a {@code
 * RateLimitedException} ({@link #answeredLimitedMethod}). Nothing is logged per request.
 *
 * <p>Thread-safe: a response is written by the thread that holds its request.
 */
final class LimitedAnswer {
  private LimitedAnswer() {}

  /**
   * The limiters whose exception reached a committed response, each logged once; at most {@link
   * #MAX_COMMITTED_REPORTED} names (then one line says no more are named). Guarded by itself.
   */
  private static final Set<String> COMMITTED_REPORTED = new HashSet<String>();

  private static final int MAX_COMMITTED_REPORTED = 1000;

  /**
   * Answers a request whose servlet threw a {@code RateLimitedException} (a limited method it
   * called: a controller, a service, a JDBC call), found in what it threw however wrapped ({@link
   * LimitedCause}), as a limited request: {@code http.status}, {@code Retry-After} and the one-line
   * body naming the limiter (503 and no {@code Retry-After} while {@code drainOnExit} refuses every
   * call), nothing logged. It is left to the container, as before, when {@code
   * http.answerLimitedMethods} is false; when the request is an include or an error dispatch (the
   * dispatch that included it, or the container's error handling, decides); when it went
   * asynchronous (its asynchronous context would stay open); and when the response is committed
   * (its status is sent already: the container ends it as it ends any failed request), which is
   * logged once per limiter. Never throws.
   *
   * @param s the settings installed
   * @param thrown what the servlet or filter threw
   * @param request its request
   * @param response its response
   * @return true if the request was answered; false to throw {@code thrown} on
   */
  static boolean answeredLimitedMethod(
      HttpGate.Settings s, Throwable thrown, Object request, Object response) {
    if (!s.answerMethods || request == null || response == null) {
      return false;
    }
    LimitedCause limited = LimitedCause.in(thrown);
    if (limited == null) {
      return false;
    }
    try {
      Object http = request;
      ServletApi api = ServletApi.of(http);
      for (int depth = 0;
          api == ServletApi.NONE && http != null && depth < HttpGate.MAX_WRAPPERS;
          depth++) {
        http = HttpGate.unwrap(http); // a plain ServletRequestWrapper around the HTTP request
        api = http == null ? ServletApi.NONE : ServletApi.of(http);
      }
      if (api == ServletApi.NONE || api.broken != null) {
        return false;
      }
      String type = String.valueOf(HttpGate.call(api.dispatcherType, http));
      if (type.equals("INCLUDE")
          || type.equals("ERROR")
          || Boolean.TRUE.equals(HttpGate.call(api.isAsyncStarted, http))) {
        return false;
      }
      Object httpResponse = httpResponse(api, response);
      if (Boolean.TRUE.equals(HttpGate.call(api.isCommitted, httpResponse))) {
        reportCommitted(limited.limiterName, s.status);
        return false;
      }
      if (limited.retryAfterNanos == Long.MAX_VALUE
          && LimiterRegistry.isDraining(limited.limiterName)) {
        answer(api, httpResponse, 503, -1, limited.limiterName);
      } else {
        answer(api, httpResponse, s.status, limited.retryAfterNanos, limited.limiterName);
      }
      return true;
    } catch (RuntimeException | LinkageError cannotAnswer) {
      return false; // the container gets what the servlet threw, as it did before
    }
  }

  /** One line per limiter whose exception reached a response committed already. */
  private static void reportCommitted(String limiterName, int status) {
    String line;
    synchronized (COMMITTED_REPORTED) {
      if (COMMITTED_REPORTED.size() > MAX_COMMITTED_REPORTED
          || !COMMITTED_REPORTED.add(limiterName)) {
        return;
      }
      line =
          COMMITTED_REPORTED.size() > MAX_COMMITTED_REPORTED
              ? "more limiters' RateLimitedExceptions reached committed responses: no more are named"
              : "a RateLimitedException of '"
                  + limiterName
                  + "' escaped a servlet after the response was committed, so the request could"
                  + " not be answered with "
                  + status
                  + " and is left to the container (logged once per limiter): call the limited"
                  + " method before writing the response";
    }
    AgentLog.warn(line);
  }

  /**
   * Writes the answer to a limited request, unless the response is committed already.
   *
   * @param retryAfterNanos nanoseconds until it would be admitted; {@code Long.MAX_VALUE} for
   *     never, {@code -1} for no {@code Retry-After} (503 while draining)
   */
  static void answer(
      ServletApi api, Object plainResponse, int status, long retryAfterNanos, String name) {
    Object response = httpResponse(api, plainResponse);
    if (Boolean.TRUE.equals(HttpGate.call(api.isCommitted, response))) {
      return; // a filter answered already: the servlet is still not run
    }
    HttpGate.call(api.resetBuffer, response);
    HttpGate.call(api.setStatus, response, status);
    String text;
    if (retryAfterNanos < 0) {
      text = "the server is shutting down: '" + name + "' admits no more requests\n";
    } else if (retryAfterNanos == Long.MAX_VALUE) {
      text = "rate limited by '" + name + "'\n";
    } else {
      long seconds = Math.max(1, retryAfterNanos / 1_000_000_000L);
      if (seconds * 1_000_000_000L < retryAfterNanos) {
        seconds++; // whole seconds, rounded up: a client that waits that long is admitted
      }
      HttpGate.call(api.setHeader, response, "Retry-After", Long.toString(seconds));
      text = "rate limited by '" + name + "': retry after " + seconds + " s\n";
    }
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    HttpGate.call(api.setContentType, response, "text/plain;charset=UTF-8");
    try {
      Object out;
      try {
        out = HttpGate.call(api.outputStream, response);
      } catch (IllegalStateException writerInUse) {
        // the writer keeps the encoding it was given: no Content-Length, which would count bytes
        // of another encoding (the container ends the body itself)
        ((Writer) HttpGate.call(api.writer, response)).write(text);
        return;
      }
      HttpGate.call(api.setContentLength, response, body.length);
      ((OutputStream) out).write(body);
    } catch (IOException | HttpGate.UncheckedIo clientGone) {
      // the client went away: nothing to answer, nothing to log
    }
  }

  /** The HTTP response behind a response: itself, or what plain wrappers wrap. */
  static Object httpResponse(ServletApi api, Object response) {
    Object r = response;
    for (int depth = 0; r != null && !api.responseType.isInstance(r); depth++) {
      r = depth < HttpGate.MAX_WRAPPERS ? HttpGate.unwrap(r) : null;
    }
    if (r == null) {
      throw new IllegalStateException(
          "the response " + response.getClass().getName() + " is no HTTP response");
    }
    return r;
  }
}
