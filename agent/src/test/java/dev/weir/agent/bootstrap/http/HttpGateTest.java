package dev.weir.agent.bootstrap.http;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Draining;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gate in front of servlets, on stubbed requests and responses of the servlet API and limiters
 * on a fake clock: exact answers at exact instants. Real containers are {@code WebLimitsIT}'s.
 */
class HttpGateTest {
  private static final long MS = 1_000_000L;
  private static int names;

  private final FakeClock clock = new FakeClock(5 * 1_000_000_000L);
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  @AfterEach
  void noRules() {
    HttpGate.install(List.of(), List.of(), 429);
  }

  private BucketLimiter limiter(double rate, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, false, Long.MAX_VALUE, 0);
    return new BucketLimiter("gate", "Test", bucket, 1, clock);
  }

  private HttpRule rule(BucketLimiter limiter, String path, String key) {
    String name = "gate-" + names++;
    int id = LimiterRegistry.register("name " + name, limiter);
    return new HttpRule(id, name, List.of(PathPattern.parse(path)), List.of(), key, false);
  }

  private static HttpServletRequest request(String method, String servletPath, String pathInfo) {
    HttpServletRequest req = mock(HttpServletRequest.class);
    when(req.getDispatcherType()).thenReturn(DispatcherType.REQUEST);
    when(req.getMethod()).thenReturn(method);
    when(req.getServletPath()).thenReturn(servletPath);
    when(req.getPathInfo()).thenReturn(pathInfo);
    when(req.getRemoteAddr()).thenReturn("127.0.0.1");
    return req;
  }

  private HttpServletResponse response() throws Exception {
    return response(body);
  }

  /** A response whose output stream writes into {@code body}. */
  static HttpServletResponse response(ByteArrayOutputStream body) throws Exception {
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

  @Test
  void aLimitedRequestGetsTheStatusRetryAfterRoundedUpAndOneLineNamingTheLimit() throws Exception {
    BucketLimiter limiter = limiter(0.4, 1); // one request per 2.5 s
    HttpRule rule = rule(limiter, "/api/**", null);
    HttpGate.install(List.of(rule), List.of(), 429);
    assertTrue(HttpGate.pass(request("GET", "/api", "/x"), response()));
    HttpServletResponse res = response();
    assertFalse(HttpGate.pass(request("GET", "/api", "/x"), res));
    verify(res).setStatus(429);
    verify(res).setHeader("Retry-After", "3"); // 2.5 s, rounded up
    verify(res).setContentType("text/plain;charset=UTF-8");
    String text = "rate limited by '" + rule.name + "': retry after 3 s\n";
    verify(res).setContentLength(text.length());
    assertEquals(text, body.toString(StandardCharsets.UTF_8));
    verify(res, never()).sendError(org.mockito.ArgumentMatchers.anyInt());

    clock.advance(2500 * MS - 1);
    HttpServletResponse almost = response();
    assertFalse(HttpGate.pass(request("GET", "/api", "/x"), almost));
    verify(almost).setHeader("Retry-After", "1"); // 1 ns to go: at least 1
    clock.advance(1);
    assertTrue(HttpGate.pass(request("GET", "/api", "/x"), response()), "waited exactly enough");
    assertEquals(2, limiter.granted());
    assertEquals(2, limiter.rejected());
  }

  @Test
  void theStatusIsTheConfiguredOne() throws Exception {
    HttpRule rule = rule(limiter(1, 1), "/**", null);
    HttpGate.install(List.of(rule), List.of(), 503);
    HttpGate.pass(request("GET", "/", null), response());
    HttpServletResponse res = response();
    assertFalse(HttpGate.pass(request("GET", "/", null), res));
    verify(res).setStatus(503);
    verify(res).setHeader("Retry-After", "1");
  }

  @Test
  void otherPathsAndMethodsPassUncounted() throws Exception {
    BucketLimiter limiter = limiter(1, 1);
    String name = "gate-" + names++;
    int id = LimiterRegistry.register("name " + name, limiter);
    HttpRule posts =
        new HttpRule(id, name, List.of(PathPattern.parse("/api/*")), List.of("POST"), null, false);
    HttpGate.install(List.of(posts), List.of(), 429);
    for (int i = 0; i < 5; i++) {
      assertTrue(HttpGate.pass(request("GET", "/api/x", null), response()));
      assertTrue(HttpGate.pass(request("POST", "/api/x/y", null), response()));
      assertTrue(HttpGate.pass(request("POST", "/other", null), response()));
    }
    assertTrue(HttpGate.pass(request("post", "/api/x", null), response()));
    assertFalse(HttpGate.pass(request("POST", "/api/x", null), response()));
    assertEquals(1, limiter.granted());
  }

  @Test
  void aRequestLimitedByOneEntryIsChargedByNone() throws Exception {
    BucketLimiter perClient = limiter(0.001, 3);
    BucketLimiter total = limiter(0.001, 1);
    HttpRule clients = rule(perClient, "/api/**", "client");
    HttpGate.install(List.of(clients, rule(total, "/api/**", null)), List.of(), 429);
    assertTrue(HttpGate.pass(request("GET", "/api/x", null), response()));
    for (int i = 0; i < 4; i++) {
      assertFalse(HttpGate.pass(request("GET", "/api/x", null), response()));
    }
    assertEquals(1, perClient.granted(), "its permits came back each time the total refused");
    assertEquals(0, perClient.rejected());
    assertEquals(4, total.rejected());
    HttpGate.install(List.of(clients), List.of(), 429);
    assertTrue(HttpGate.pass(request("GET", "/api/x", null), response()));
    assertTrue(HttpGate.pass(request("GET", "/api/x", null), response()));
    assertFalse(HttpGate.pass(request("GET", "/api/x", null), response()), "2 were left, not 0");
  }

  @Test
  void aRequestIsCountedOnceHoweverOftenItReachesAServlet() throws Exception {
    BucketLimiter limiter = limiter(0.001, 5);
    HttpGate.install(List.of(rule(limiter, "/api/**", null)), List.of(), 429);
    HttpServletRequest req = request("GET", "/api", "/x");
    List<Object> attributes = new ArrayList<>();
    org.mockito.Mockito.doAnswer(i -> attributes.add(i.getArgument(1)))
        .when(req)
        .setAttribute(
            org.mockito.ArgumentMatchers.eq(HttpGate.COUNTED), org.mockito.ArgumentMatchers.any());
    when(req.getAttribute(HttpGate.COUNTED)).thenAnswer(i -> attributes.isEmpty() ? null : true);
    for (int i = 0; i < 3; i++) { // an override calling super, a forward, an async dispatch
      assertTrue(HttpGate.pass(req, response()));
    }
    assertEquals(1, limiter.granted());
  }

  @Test
  void aForwardOrAsyncDispatchIsMatchedOnThePathTheRequestArrivedWith() throws Exception {
    BucketLimiter limiter = limiter(0.001, 5);
    HttpGate.install(List.of(rule(limiter, "/api/**", null)), List.of(), 429);
    HttpServletRequest forwarded = request("GET", "/internal", null);
    when(forwarded.getDispatcherType()).thenReturn(DispatcherType.FORWARD);
    when(forwarded.getAttribute("jakarta.servlet.forward.servlet_path")).thenReturn("/api");
    when(forwarded.getAttribute("jakarta.servlet.forward.path_info")).thenReturn("/x");
    assertTrue(HttpGate.pass(forwarded, response()));
    HttpServletRequest async = request("GET", "/api", "/x");
    when(async.getDispatcherType()).thenReturn(DispatcherType.ASYNC);
    when(async.getAttribute("jakarta.servlet.async.servlet_path")).thenReturn("/done");
    assertTrue(HttpGate.pass(async, response()));
    HttpServletRequest error = request("GET", "/api", "/x");
    when(error.getDispatcherType()).thenReturn(DispatcherType.ERROR);
    assertTrue(HttpGate.pass(error, response()));
    assertEquals(1, limiter.granted(), "the forward only: /done is no /api path, errors pass");
  }

  @Test
  void theClientIsTheLastUntrustedHopBehindTrustedProxies() {
    HttpRule rule = rule(limiter(1, 1), "/**", "client");
    HttpGate.install(
        List.of(rule), List.of(AddressBlock.parse("10.0.0.0/8"), AddressBlock.parse("::1")), 429);
    assertEquals("203.0.113.9", key(rule, "10.1.1.1", "198.51.100.1, 203.0.113.9"));
    assertEquals("203.0.113.9", key(rule, "10.1.1.1", "203.0.113.9, 10.2.2.2", "10.3.3.3"));
    assertEquals("192.0.2.1", key(rule, "192.0.2.1", "203.0.113.9"), "an untrusted peer's header");
    assertEquals("10.1.1.1", key(rule, "10.1.1.1"), "no header: the proxy itself");
    assertEquals("10.5.5.5", key(rule, "10.1.1.1", "10.5.5.5, 10.6.6.6"), "all trusted: the first");
    assertEquals("203.0.113.9", key(rule, "0:0:0:0:0:0:0:1", "[203.0.113.9]:443"));
    assertEquals("203.0.113.9", key(rule, "::1", "203.0.113.9:5555"));
    assertEquals(
        "2001:db8:0:0:0:0:0:0/64",
        key(rule, "::ffff:10.0.0.1", "2001:DB8::1"),
        "mapped; one form, by its /64");
    assertEquals("unknown", key(rule, "10.1.1.1", "unknown"), "not an address: as written");
    HttpGate.install(List.of(rule), List.of(), 429);
    assertEquals("10.1.1.1", key(rule, "10.1.1.1", "203.0.113.9"), "no proxies: header ignored");
    assertEquals("0:0:0:0:0:0:0:0/64", key(rule, "::1"));
  }

  @Test
  void anIpv6ClientIsKeyedByItsPrefixComparedAsAnAddress() {
    HttpRule rule = rule(limiter(1, 1), "/**", "client");
    HttpGate.install(List.of(rule), List.of(), 429);
    String network = "2001:db8:1:2:0:0:0:0/64";
    assertEquals(network, key(rule, "2001:db8:1:2::1"));
    assertEquals(network, key(rule, "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff"), "one host's /64");
    assertEquals(network, key(rule, "[2001:db8:1:2::7]:443"));
    assertEquals("2001:db8:1:3:0:0:0:0/64", key(rule, "2001:db8:1:3::1"), "the next /64");
    assertEquals("10.1.2.3", key(rule, "10.1.2.3"), "IPv4 whole");
    assertEquals("10.1.2.3", key(rule, "::ffff:10.1.2.3"), "IPv4-mapped: IPv4");
    HttpGate.install(List.of(rule), List.of(), 429, true, 48);
    assertEquals("2001:db8:1:0:0:0:0:0/48", key(rule, "2001:db8:1:2::1"));
    assertTrue(HttpGate.settingsInWords().endsWith(", ipv6PrefixLength 48"));
    HttpGate.install(List.of(rule), List.of(), 429, true, 128);
    assertEquals("2001:db8:1:2:0:0:0:1", key(rule, "2001:db8:1:2::1"), "128: the address");
    assertThrows(
        IllegalArgumentException.class,
        () -> HttpGate.install(List.of(rule), List.of(), 429, true, 0));
  }

  @Test
  void theClientAddressIsTheContainersBeneathEveryRequestWrapper() {
    HttpRule rule = rule(limiter(1, 1), "/**", "client");
    HttpServletRequest container = request("GET", "/", null);
    when(container.getRemoteAddr()).thenReturn("192.0.2.7");
    when(container.getHeaders("X-Forwarded-For"))
        .thenAnswer(i -> Collections.enumeration(List.of("198.51.100.1")));
    // what Spring's ForwardedHeaderFilter puts around the request: the address from the header
    HttpServletRequest forwarded =
        new jakarta.servlet.http.HttpServletRequestWrapper(container) {
          @Override
          public String getRemoteAddr() {
            return "203.0.113." + (int) (Math.random() * 200);
          }

          @Override
          public java.util.Enumeration<String> getHeaders(String name) {
            return Collections.enumeration(List.of("203.0.113.99"));
          }
        };
    HttpGate.install(List.of(rule), List.of(), 429);
    assertEquals("192.0.2.7", HttpGate.keyOf(forwarded, rule));
    assertEquals(
        "192.0.2.7",
        HttpGate.keyOf(new jakarta.servlet.http.HttpServletRequestWrapper(forwarded), rule));
    HttpGate.install(List.of(rule), List.of(AddressBlock.parse("192.0.2.0/24")), 429);
    assertEquals("198.51.100.1", HttpGate.keyOf(forwarded, rule), "the container's header");
  }

  /** A request whose attributes are kept, as a container keeps them. */
  private static HttpServletRequest withAttributes(HttpServletRequest req) {
    java.util.Map<String, Object> attributes = new java.util.HashMap<>();
    org.mockito.Mockito.doAnswer(i -> attributes.put(i.getArgument(0), i.getArgument(1)))
        .when(req)
        .setAttribute(anyString(), org.mockito.ArgumentMatchers.any());
    when(req.getAttribute(anyString())).thenAnswer(i -> attributes.get(i.<String>getArgument(0)));
    return req;
  }

  @Test
  void theEntranceDecidesOnceAndEveryLaterFilterAndTheServletPassAtOnce() throws Exception {
    BucketLimiter limiter = limiter(0.001, 1);
    HttpGate.install(List.of(rule(limiter, "/login", "client")), List.of(), 429);
    HttpServletRequest first = withAttributes(request("POST", "/login", null));
    assertTrue(HttpGate.enter(first, response()), "the first filter: admitted");
    for (int i = 0; i < 3; i++) {
      assertTrue(
          HttpGate.enter(new jakarta.servlet.http.HttpServletRequestWrapper(first), response()));
    }
    assertTrue(HttpGate.pass(first, response()));
    assertEquals(1, limiter.granted());
    HttpServletResponse res = response();
    HttpServletRequest second = withAttributes(request("POST", "/login", null));
    assertFalse(HttpGate.enter(second, res), "a filter that answers the request is never run");
    verify(res).setStatus(429);
    assertTrue(HttpGate.enter(second, response()), "a later filter: decided already");
    assertEquals(1, limiter.rejected());
    HttpServletRequest unmatched = withAttributes(request("GET", "/other", null));
    assertTrue(HttpGate.enter(unmatched, response()));
    verify(unmatched).setAttribute(HttpGate.COUNTED, Boolean.TRUE);
    assertTrue(HttpGate.enter(unmatched, response()));
    verify(unmatched, org.mockito.Mockito.times(1)).getServletPath();
  }

  @Test
  void aUserEntryIsCheckedAtTheServletAndOneItLimitsGetsTheEntrancesPermitsBack() throws Exception {
    BucketLimiter perClient = limiter(0.001, 5);
    BucketLimiter perUser = limiter(0.001, 1);
    HttpGate.install(
        List.of(rule(perClient, "/account/**", "client"), rule(perUser, "/account/**", "user")),
        List.of(),
        429);
    for (int i = 0; i < 3; i++) {
      HttpServletRequest req = withAttributes(request("GET", "/account", "/x"));
      assertTrue(HttpGate.enter(req, response()), "no principal yet: the filters set it");
      HttpServletRequest signedIn =
          new jakarta.servlet.http.HttpServletRequestWrapper(req) {
            @Override
            public java.security.Principal getUserPrincipal() {
              return () -> "alice";
            }
          };
      HttpServletResponse res = response();
      assertEquals(i == 0, HttpGate.pass(signedIn, res), "request " + i);
      assertTrue(HttpGate.pass(signedIn, response()), "a forward: decided already");
      if (i > 0) {
        verify(res).setStatus(429);
      }
    }
    assertEquals(1, perUser.granted());
    assertEquals(2, perUser.rejected());
    assertEquals(1, perClient.granted(), "the two the user entry limited were given back");
    HttpServletRequest anonymous = withAttributes(request("GET", "/account", "/x"));
    assertTrue(HttpGate.enter(anonymous, response()));
    assertTrue(HttpGate.pass(anonymous, response()), "no principal: not counted by user");
    assertEquals(2, perClient.granted());
  }

  @Test
  void aUserKeyThatCannotBeReadAtTheServletGivesTheEntrancesPermitsBack() throws Exception {
    BucketLimiter total = limiter(0.001, 1);
    HttpGate.install(
        List.of(rule(total, "/**", null), rule(limiter(1, 1), "/**", "user")), List.of(), 429);
    HttpServletRequest req = withAttributes(request("GET", "/", null));
    when(req.getUserPrincipal()).thenThrow(new UnsupportedOperationException("no realm"));
    assertTrue(HttpGate.enter(req, response()));
    assertEquals(1, total.granted());
    assertThrows(IllegalStateException.class, () -> HttpGate.pass(req, response()));
    assertEquals(0, total.granted(), "given back");
  }

  @Test
  void aPathWithDotSegmentsOrParametersIsMatchedOnItsNormalisedFormsToo() throws Exception {
    BucketLimiter files = limiter(0.001, 100);
    HttpGate.install(List.of(rule(files, "/files/**", null)), List.of(), 429);
    String[] tricks = {
      "/x/../files/big.bin",
      "/./files/big.bin",
      "/x/y/../../files/big.bin",
      "/../files/big.bin",
      "/x/..;/files/big.bin",
      "/files;a=b/big.bin",
      "/x//../files/big.bin",
      "/files/x/..",
    };
    for (String trick : tricks) {
      HttpGate.pass(request("GET", trick, null), response());
    }
    assertEquals(tricks.length, files.granted(), "every one counted");
    HttpGate.pass(request("GET", "/x/../other", null), response());
    HttpGate.pass(request("GET", "/files-x/../../other", null), response());
    assertEquals(tricks.length, files.granted(), "no other path");
  }

  @Test
  void aContainersCallOfAFilterIsDecidedAndALimitedMethodEscapingTheFiltersAnswered()
      throws Exception {
    BucketLimiter limiter = limiter(0.001, 1);
    HttpGate.install(List.of(rule(limiter, "/login", null)), List.of(), 429);
    int[] ran = {0};
    jakarta.servlet.Filter filter =
        (req, res, chain) -> {
          ran[0]++;
          throw new jakarta.servlet.ServletException(
              new dev.weir.RateLimitedException("lookup", 2_000_000_000L));
        };
    HttpServletResponse first = response();
    HttpGate.filter(filter, withAttributes(request("POST", "/login", null)), first, null);
    assertEquals(1, ran[0]);
    verify(first).setStatus(429);
    verify(first).setHeader("Retry-After", "2");
    assertTrue(body.toString(StandardCharsets.UTF_8).startsWith("rate limited by 'lookup'"));
    HttpServletResponse second = response();
    HttpGate.filter(filter, withAttributes(request("POST", "/login", null)), second, null);
    assertEquals(1, ran[0], "limited: the filter never ran");
    verify(second).setStatus(429);
    HttpServletRequest entered = withAttributes(request("GET", "/other", null));
    HttpGate.enter(entered, response());
    HttpServletResponse later = response();
    HttpGate.filter(filter, entered, later, null);
    verify(later).setStatus(429); // a filter after the entrance: answered at its own call
    jakarta.servlet.Filter failing =
        (req, res, chain) -> {
          throw new jakarta.servlet.ServletException("the filter's own");
        };
    assertThrows(
        jakarta.servlet.ServletException.class,
        () -> HttpGate.filter(failing, entered, response(), null),
        "anything else: thrown on");
  }

  private static String key(HttpRule rule, String remote, String... forwardedFor) {
    HttpServletRequest req = request("GET", "/", null);
    when(req.getRemoteAddr()).thenReturn(remote);
    List<String> headers = List.of(forwardedFor);
    when(req.getHeaders("X-Forwarded-For")).thenReturn(Collections.enumeration(headers));
    return HttpGate.keyOf(req, rule);
  }

  @Test
  void headerCookieUserAndQueryParameterKeys() {
    HttpServletRequest req = request("POST", "/", null);
    when(req.getHeader("X-Api-Key")).thenReturn("k1");
    when(req.getCookies())
        .thenReturn(new Cookie[] {new Cookie("theme", "dark"), new Cookie("session", "s1")});
    when(req.getUserPrincipal()).thenReturn(() -> "alice");
    when(req.getQueryString()).thenReturn("a=1&%74enant=t+1%21&tenant=x");
    BucketLimiter l = limiter(1, 1);
    assertEquals("k1", HttpGate.keyOf(req, rule(l, "/", "header:X-Api-Key")));
    assertEquals("s1", HttpGate.keyOf(req, rule(l, "/", "cookie:session")));
    assertEquals("alice", HttpGate.keyOf(req, rule(l, "/", "user")));
    assertEquals("t 1!", HttpGate.keyOf(req, rule(l, "/", "param:tenant")));
    assertNull(HttpGate.keyOf(req, rule(l, "/", "cookie:none")));
    verify(req, never()).getParameter(anyString());
    verify(req, never()).getParameterMap();
  }

  @Test
  void queryParametersAreReadFromTheQueryStringAlone() {
    assertEquals("2", RequestKeys.queryParameter("%zz=1&t=2", "t"), "a bad escape skips its pair");
    assertEquals("", RequestKeys.queryParameter("t&u=1", "t"));
    assertEquals("", RequestKeys.queryParameter("t=", "t"));
    assertNull(RequestKeys.queryParameter(null, "t"));
    assertNull(RequestKeys.queryParameter("tt=1&at=2", "t"));
    assertNull(RequestKeys.queryParameter("t=%zz", "t"));
  }

  @Test
  void aRequestWithoutItsKeyIsNotCounted() throws Exception {
    BucketLimiter limiter = limiter(0.001, 1);
    HttpGate.install(List.of(rule(limiter, "/**", "header:X-Api-Key")), List.of(), 429);
    HttpServletRequest empty = request("GET", "/", null);
    when(empty.getHeader("X-Api-Key")).thenReturn("");
    for (int i = 0; i < 3; i++) {
      assertTrue(HttpGate.pass(request("GET", "/", null), response()));
      assertTrue(HttpGate.pass(empty, response()));
    }
    assertEquals(0, limiter.granted() + limiter.rejected());
  }

  @Test
  void whileDrainingTheAnswerIs503WithoutRetryAfter() throws Exception {
    BucketLimiter limiter = limiter(1, 5);
    HttpRule rule = rule(limiter, "/**", null);
    HttpGate.install(List.of(rule), List.of(), 429);
    LimiterRegistry.redirect(rule.limiterId, new Draining(limiter));
    HttpServletResponse res = response();
    assertFalse(HttpGate.pass(request("GET", "/", null), res));
    verify(res).setStatus(503);
    verify(res, never()).setHeader(org.mockito.ArgumentMatchers.eq("Retry-After"), anyString());
    assertTrue(body.toString(StandardCharsets.UTF_8).contains("shutting down"));
    assertEquals(1, limiter.rejected());
  }

  @Test
  void aResponseWhoseWriterIsInUseGetsTheBodyThroughIt() throws Exception {
    HttpGate.install(List.of(rule(limiter(0.001, 1), "/**", null)), List.of(), 429);
    HttpGate.pass(request("GET", "/", null), response());
    HttpServletResponse res = mock(HttpServletResponse.class);
    when(res.getOutputStream()).thenThrow(new IllegalStateException("getWriter() was called"));
    StringWriter written = new StringWriter();
    when(res.getWriter()).thenReturn(new PrintWriter(written, true));
    assertFalse(HttpGate.pass(request("GET", "/", null), res));
    assertTrue(written.toString().startsWith("rate limited by "), written.toString());
    verify(res, never()).setContentLength(org.mockito.ArgumentMatchers.anyInt()); // its encoding
  }

  @Test
  void aPlainWrapperAroundTheRequestOrTheResponseHidesNothing() throws Exception {
    BucketLimiter limiter = limiter(0.001, 1);
    HttpGate.install(List.of(rule(limiter, "/**", null)), List.of(), 429);
    jakarta.servlet.ServletRequest wrapped =
        new jakarta.servlet.ServletRequestWrapper(
            new jakarta.servlet.ServletRequestWrapper(request("GET", "/x", null)));
    HttpServletResponse res = response();
    jakarta.servlet.ServletResponse plainResponse = new jakarta.servlet.ServletResponseWrapper(res);
    assertTrue(HttpGate.pass(wrapped, plainResponse));
    assertFalse(HttpGate.pass(wrapped, plainResponse), "limited through the wrappers");
    verify(res).setStatus(429);
    assertEquals(2, limiter.granted() + limiter.rejected());
  }

  @Test
  void wrappersTooDeepToSeeThroughRefuseTheRequest() throws Exception {
    HttpGate.install(List.of(rule(limiter(1000, 1000), "/**", null)), List.of(), 429);
    jakarta.servlet.ServletRequest deep = request("GET", "/x", null);
    for (int i = 0; i < 64; i++) {
      deep = new jakarta.servlet.ServletRequestWrapper(deep);
    }
    assertTrue(HttpGate.pass(deep, response()), "64 plain wrappers are seen through");
    jakarta.servlet.ServletRequest deeper = new jakarta.servlet.ServletRequestWrapper(deep);
    assertThrows(IllegalStateException.class, () -> HttpGate.pass(deeper, response()));
  }

  @Test
  void aRequestRefusedBecauseAKeyCannotBeReadIsChargedByNone() throws Exception {
    BucketLimiter first = limiter(0.001, 1);
    HttpRule total = rule(first, "/**", null);
    HttpRule byUser = rule(limiter(1, 1), "/**", "user");
    HttpGate.install(List.of(total, byUser), List.of(), 429);
    HttpServletRequest req = request("GET", "/", null);
    when(req.getUserPrincipal()).thenThrow(new UnsupportedOperationException("no realm"));
    assertThrows(IllegalStateException.class, () -> HttpGate.pass(req, response()));
    HttpGate.install(List.of(total), List.of(), 429);
    assertTrue(HttpGate.pass(request("GET", "/", null), response()), "its permit came back");
  }

  @Test
  void headIsLimitedAsGet() throws Exception {
    BucketLimiter limiter = limiter(0.001, 1);
    String name = "gate-" + names++;
    int id = LimiterRegistry.register("name " + name, limiter);
    HttpGate.install(
        List.of(
            new HttpRule(id, name, List.of(PathPattern.parse("/**")), List.of("GET"), null, false)),
        List.of(),
        429);
    assertTrue(HttpGate.pass(request("HEAD", "/", null), response()));
    assertFalse(HttpGate.pass(request("GET", "/", null), response()), "HEAD ran GET's code");
    assertTrue(HttpGate.pass(request("OPTIONS", "/", null), response()));
  }

  @Test
  void aCommittedResponseIsLeftAloneAndTheServletStillNotRun() throws Exception {
    HttpGate.install(List.of(rule(limiter(0.001, 1), "/**", null)), List.of(), 429);
    HttpGate.pass(request("GET", "/", null), response());
    HttpServletResponse res = response();
    when(res.isCommitted()).thenReturn(true);
    assertFalse(HttpGate.pass(request("GET", "/", null), res));
    verify(res, never()).setStatus(org.mockito.ArgumentMatchers.anyInt());
  }

  @Test
  void aKeyThatCannotBeReadFailsClosedNamingTheLimit() throws Exception {
    HttpRule rule = rule(limiter(1, 1), "/**", "user");
    HttpGate.install(List.of(rule), List.of(), 429);
    HttpServletRequest req = request("GET", "/", null);
    when(req.getUserPrincipal()).thenThrow(new UnsupportedOperationException("no realm"));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> HttpGate.pass(req, response()));
    assertTrue(e.getMessage().contains("'" + rule.name + "'"), e.getMessage());
  }

  @Test
  void aServletApiThatCannotBeCalledRefusesEveryRequestLoudly() throws Exception {
    HttpGate.install(List.of(rule(limiter(1, 1), "/**", null)), List.of(), 429);
    // a Servlet 2.5 API: no getDispatcherType(), and here no response type either
    net.bytebuddy.dynamic.DynamicType.Unloaded<?> plain =
        new net.bytebuddy.ByteBuddy().makeInterface().name("javax.servlet.ServletRequest").make();
    net.bytebuddy.dynamic.DynamicType.Unloaded<?> http =
        new net.bytebuddy.ByteBuddy()
            .makeInterface(plain.getTypeDescription())
            .name("javax.servlet.http.HttpServletRequest")
            .make();
    java.util.Map<String, byte[]> types = new java.util.HashMap<>();
    types.put("javax.servlet.ServletRequest", plain.getBytes());
    types.put("javax.servlet.http.HttpServletRequest", http.getBytes());
    ClassLoader oldContainer = new net.bytebuddy.dynamic.loading.ByteArrayClassLoader(null, types);
    Class<?> requestType = oldContainer.loadClass("javax.servlet.http.HttpServletRequest");
    Object old =
        java.lang.reflect.Proxy.newProxyInstance(
            oldContainer, new Class<?>[] {requestType}, (proxy, method, args) -> null);
    for (int i = 0; i < 2; i++) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> HttpGate.pass(old, new Object()));
      assertTrue(e.getMessage().contains("need Servlet 3.0 or later"), e.getMessage());
    }
  }

  @Test
  void anythingButAnHttpRequestPasses() {
    HttpGate.install(List.of(rule(limiter(0.001, 1), "/**", null)), List.of(), 429);
    for (int i = 0; i < 3; i++) {
      assertTrue(HttpGate.pass(new Object(), new Object()));
    }
  }
}
