package dev.weir.agent.bootstrap.http;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Draining;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code RateLimitedException} escaping the servlet a container calls through {@link
 * HttpGate#service}, on stubbed requests and responses and real servlets: answered as a limited
 * request, or thrown on as before. Real containers are {@code LimitedMethodsIT}'s.
 */
class HttpGateLimitedMethodsTest {
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  @AfterEach
  void defaults() {
    HttpGate.install(List.of(), List.of(), 429);
    AgentLog.capture(false);
  }

  /** A servlet that throws what it is given. */
  private static GenericServlet throwing(Throwable thrown) {
    return new GenericServlet() {
      @Override
      public void service(ServletRequest req, ServletResponse res) {
        throw HttpGateLimitedMethodsTest.<RuntimeException>sneaky(thrown);
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static HttpServletRequest request(DispatcherType type) {
    HttpServletRequest req = mock(HttpServletRequest.class);
    when(req.getDispatcherType()).thenReturn(type);
    when(req.getMethod()).thenReturn("GET");
    when(req.getServletPath()).thenReturn("/orders");
    return req;
  }

  private HttpServletResponse response() throws IOException {
    HttpServletResponse res = mock(HttpServletResponse.class);
    when(res.getOutputStream())
        .thenReturn(
            new ServletOutputStream() {
              @Override
              public void write(int b) {
                body.write(b);
              }

              @Override
              public boolean isReady() {
                return true;
              }

              @Override
              public void setWriteListener(WriteListener listener) {}
            });
    return res;
  }

  /** Calls the servlet as a woven container does; returns what it threw on, or null. */
  private static Throwable serve(GenericServlet servlet, ServletRequest req, ServletResponse res) {
    try {
      HttpGate.service(servlet, req, res);
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  @Test
  void aLimitedMethodsExceptionIsAnsweredAsALimitedRequest() throws IOException {
    HttpServletResponse res = response();
    Throwable out =
        serve(
            throwing(new RateLimitedException("orders", 2_500_000_000L)),
            request(DispatcherType.REQUEST),
            res);
    assertNull(out, "answered, not thrown on");
    verify(res).resetBuffer();
    verify(res).setStatus(429);
    verify(res).setHeader("Retry-After", "3"); // 2.5 s, rounded up
    verify(res).setContentType("text/plain;charset=UTF-8");
    String text = "rate limited by 'orders': retry after 3 s\n";
    verify(res).setContentLength(text.length());
    assertEquals(text, body.toString(StandardCharsets.UTF_8));
    verify(res, never()).sendError(anyInt());
  }

  @Test
  void theStatusIsTheConfiguredOneAndNeverHasNoRetryAfter() throws IOException {
    HttpGate.install(List.of(), List.of(), 503, true);
    HttpServletResponse res = response();
    assertNull(
        serve(
            throwing(new RateLimitedException("quota", Long.MAX_VALUE)),
            request(DispatcherType.REQUEST),
            res));
    verify(res).setStatus(503);
    verify(res, never()).setHeader(eq("Retry-After"), anyString());
    assertEquals("rate limited by 'quota'\n", body.toString(StandardCharsets.UTF_8));
  }

  @Test
  void wrappedByServletExceptionsAndFrameworksItIsAnsweredAllTheSame() throws IOException {
    RateLimitedException limited = new RateLimitedException("stock", 1);
    Throwable[] wrappings = {
      new ServletException("Request processing failed", limited),
      new RuntimeException(
          new UndeclaredThrowableException(
              new ServletException(new IllegalStateException("in a proxy", limited)))),
      new javax.servlet.ServletException("javax", limited)
    };
    for (Throwable wrapped : wrappings) {
      HttpServletResponse res = response();
      assertNull(serve(throwing(wrapped), request(DispatcherType.REQUEST), res), wrapped::toString);
      verify(res).setStatus(429);
      verify(res).setHeader("Retry-After", "1"); // at least 1
    }
  }

  @Test
  void theWalkIsBoundedAndEndsOnACycle() throws IOException {
    Throwable deep = new RateLimitedException("deep", 1);
    for (int i = 0; i < LimitedCause.MAX_DEPTH; i++) {
      deep = new RuntimeException(deep);
    }
    assertSame(deep, serve(throwing(deep), request(DispatcherType.REQUEST), response()));
    Throwable within = deep.getCause(); // 32 deep: the exception is the last one looked at
    assertNull(serve(throwing(within), request(DispatcherType.REQUEST), response()));

    Exception a = new Exception("a");
    Exception b = new Exception("b", a);
    a.initCause(b); // a -> b -> a -> ...
    assertSame(a, serve(throwing(a), request(DispatcherType.REQUEST), response()));
    Throwable selfish =
        new RuntimeException() {
          @Override
          public synchronized Throwable getCause() {
            throw new IllegalStateException("a getCause() that throws");
          }
        };
    assertSame(selfish, serve(throwing(selfish), request(DispatcherType.REQUEST), response()));
  }

  @Test
  void anythingElseIsThrownOnUnchanged() throws IOException {
    HttpServletResponse res = response();
    for (Throwable t :
        new Throwable[] {
          new IOException("client gone"),
          new ServletException("no limit here"),
          new IllegalStateException("fails closed", null),
          new StackOverflowError()
        }) {
      assertSame(t, serve(throwing(t), request(DispatcherType.REQUEST), res));
    }
    verify(res, never()).setStatus(anyInt());
  }

  @Test
  void theApplicationsOwnCopyOfTheClassIsAnsweredByItsNameAndRetryAfter() throws Exception {
    Class<?> copy = ownCopy();
    assertTrue(copy != RateLimitedException.class && copy.getName().equals(LimitedCause.NAME));
    Throwable theirs =
        (Throwable)
            copy.getConstructor(String.class, long.class)
                .newInstance("their-copy", 61_000_000_000L);
    HttpServletResponse res = response();
    assertNull(serve(throwing(new ServletException(theirs)), request(DispatcherType.REQUEST), res));
    verify(res).setHeader("Retry-After", "61");
    assertEquals(
        "rate limited by 'their-copy': retry after 61 s\n", body.toString(StandardCharsets.UTF_8));
  }

  /** {@code dev.weir.RateLimitedException} defined again by a loader of its own. */
  private static Class<?> ownCopy() throws Exception {
    byte[] bytes;
    try (InputStream in =
        RateLimitedException.class.getResourceAsStream("RateLimitedException.class")) {
      bytes = in.readAllBytes();
    }
    return new net.bytebuddy.dynamic.loading.ByteArrayClassLoader(
            null, Map.of(LimitedCause.NAME, bytes))
        .loadClass(LimitedCause.NAME);
  }

  @Test
  void offItIsThrownOnAsBefore() throws IOException {
    HttpGate.install(List.of(), List.of(), 429, false);
    RateLimitedException limited = new RateLimitedException("orders", 1);
    HttpServletResponse res = response();
    assertSame(limited, serve(throwing(limited), request(DispatcherType.REQUEST), res));
    verify(res, never()).setStatus(anyInt());
    HttpGate.install(List.of(), List.of(), 429, true);
    assertNull(serve(throwing(limited), request(DispatcherType.REQUEST), response()));
  }

  @Test
  void forwardsAndAsyncDispatchesAreAnsweredIncludesAndErrorPagesAreNot() throws IOException {
    RateLimitedException limited = new RateLimitedException("orders", 1);
    for (DispatcherType answered :
        new DispatcherType[] {DispatcherType.FORWARD, DispatcherType.ASYNC}) {
      assertNull(serve(throwing(limited), request(answered), response()), answered::toString);
    }
    for (DispatcherType left :
        new DispatcherType[] {DispatcherType.INCLUDE, DispatcherType.ERROR}) {
      HttpServletResponse res = response();
      assertSame(limited, serve(throwing(limited), request(left), res), left::toString);
      verify(res, never()).setStatus(anyInt());
    }
    HttpServletRequest async = request(DispatcherType.REQUEST);
    when(async.isAsyncStarted()).thenReturn(true); // its context would stay open
    assertSame(limited, serve(throwing(limited), async, response()));
  }

  @Test
  void aCommittedResponseIsLeftToTheContainerLoggedOncePerLimiter() throws IOException {
    AgentLog.capture(true);
    HttpServletResponse committed = response();
    when(committed.isCommitted()).thenReturn(true);
    String a = "committed-a-" + System.nanoTime();
    String b = "committed-b-" + System.nanoTime();
    for (int i = 0; i < 5; i++) {
      for (String name : new String[] {a, b}) {
        RateLimitedException limited = new RateLimitedException(name, 1);
        assertSame(limited, serve(throwing(limited), request(DispatcherType.REQUEST), committed));
      }
    }
    verify(committed, never()).setStatus(anyInt());
    verify(committed, never()).resetBuffer();
    List<String> lines = AgentLog.capture(false);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(
        lines.get(0).contains("'" + a + "'") && lines.get(0).contains("committed"), lines.get(0));
    assertTrue(lines.get(1).contains("'" + b + "'"), lines.get(1));
  }

  @Test
  void whileDrainingTheAnswerIs503WithoutRetryAfter() throws IOException {
    String name = "drained-" + System.nanoTime();
    GcraBucket bucket =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false, Long.MAX_VALUE, 0);
    BucketLimiter limiter = new BucketLimiter(name, "Test", bucket, 1, NanoClock.SYSTEM);
    int id = LimiterRegistry.register("name " + name, limiter);
    LimiterRegistry.redirect(id, new Draining(limiter));
    try {
      HttpServletResponse res = response();
      assertNull(
          serve(
              throwing(new RateLimitedException(name, Long.MAX_VALUE)),
              request(DispatcherType.REQUEST),
              res));
      verify(res).setStatus(503);
      verify(res, never()).setHeader(eq("Retry-After"), anyString());
      assertTrue(body.toString(StandardCharsets.UTF_8).contains("shutting down"));
    } finally {
      LimiterRegistry.redirect(id, null);
    }
  }

  @Test
  void notAnHttpRequestIsThrownOn() {
    RateLimitedException limited = new RateLimitedException("orders", 1);
    ServletRequest plain = mock(ServletRequest.class);
    assertSame(limited, serve(throwing(limited), plain, mock(ServletResponse.class)));
    assertThrows(
        RateLimitedException.class,
        () -> HttpGate.service(throwing(limited), null, mock(ServletResponse.class)));
  }
}
