package dev.weir.agent.bootstrap;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * Requests that wait in the gate: suspended with the servlet API's async and resumed at their slot
 * by the timer, or holding their thread within {@code http.maxBlockedThreads}; on stubbed servlet
 * API objects, a fake clock and a timer the test runs by hand. Real containers are {@code
 * WaitingRequestsIT}'s.
 */
class HttpWaitsTest {
  private static final long MS = 1_000_000L;
  private static int names;

  private final FakeClock clock = new FakeClock(0);
  private final List<Runnable> due = new ArrayList<>();
  private final List<Long> delays = new ArrayList<>();

  @BeforeEach
  void manualTimer() {
    HttpWaits.useTimer(
        (task, delayNanos) -> {
          due.add(task);
          delays.add(delayNanos);
        });
  }

  @AfterEach
  void reset() {
    HttpGate.install(List.of(), List.of(), 429);
    HttpWaits.useTimer(null);
    HttpWaits.setMaxBlockedThreads(HttpWaits.DEFAULT_MAX_BLOCKED_THREADS);
    Thread.interrupted();
  }

  private BucketLimiter shaping(double rate, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(Discipline.SHAPING, rate, SECONDS, capacity, false, Long.MAX_VALUE, 0);
    BucketLimiter limiter = new BucketLimiter("waits", "Test", bucket, 1, clock);
    String name = "waits-" + names++;
    int id = LimiterRegistry.register("name " + name, limiter);
    HttpGate.install(
        List.of(
            new HttpRule(id, name, List.of(PathPattern.parse("/api/**")), List.of(), null, true)),
        List.of(),
        429);
    return limiter;
  }

  /** A request with attributes, async support as given, and an asynchronous context to start. */
  private static HttpServletRequest request(boolean asyncSupported, AsyncContext context) {
    HttpServletRequest req = mock(HttpServletRequest.class);
    Map<String, Object> attributes = new HashMap<>();
    when(req.getDispatcherType()).thenReturn(DispatcherType.REQUEST);
    when(req.getMethod()).thenReturn("GET");
    when(req.getServletPath()).thenReturn("/api");
    when(req.getPathInfo()).thenReturn("/x");
    when(req.getAttribute(any())).thenAnswer(i -> attributes.get(i.getArgument(0)));
    org.mockito.Mockito.doAnswer(i -> attributes.put(i.getArgument(0), i.getArgument(1)))
        .when(req)
        .setAttribute(any(), any());
    when(req.isAsyncSupported()).thenReturn(asyncSupported);
    when(req.startAsync()).thenReturn(context);
    return req;
  }

  private static HttpServletResponse response(ByteArrayOutputStream body) throws Exception {
    return HttpGateTest.response(body);
  }

  /** The listener Weir added to a context, and the task it asked the context to start. */
  private static AsyncListener listenerOf(AsyncContext context) {
    ArgumentCaptor<AsyncListener> listener = ArgumentCaptor.forClass(AsyncListener.class);
    verify(context).addListener(listener.capture());
    return listener.getValue();
  }

  private static Runnable startedOn(AsyncContext context) {
    ArgumentCaptor<Runnable> task = ArgumentCaptor.forClass(Runnable.class);
    verify(context).start(task.capture());
    return task.getValue();
  }

  @Test
  void aWaitingRequestIsSuspendedAndServedAtItsSlotOnTheContainersThread() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    verify(servlet, times(1)).service(any(), any()); // departs at once
    AsyncContext context = mock(AsyncContext.class);
    HttpServletRequest waiting = request(true, context);
    HttpGate.service(servlet, waiting, res);
    verify(servlet, times(1)).service(any(), any()); // not yet: suspended
    verify(context).setTimeout(0); // its slot ends the wait, not the container
    assertEquals(List.of(100 * MS), delays, "the timer is set for its slot");
    assertEquals(1, limiter.waiting());
    assertEquals(0, clock.parkedNanos(), "no thread slept");
    verify(context, never()).start(any());

    clock.advance(100 * MS);
    due.remove(0).run(); // Weir's timer: asks the container to run it, runs nothing itself
    verify(servlet, times(1)).service(any(), any());
    startedOn(context).run(); // the container's thread
    verify(servlet).service(waiting, res);
    verify(context).complete();
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(1, limiter.waited());
    assertEquals(100 * MS, limiter.totalWaitNanos());
    assertEquals(1, waiting.getAttribute(HttpGate.COUNTED) == null ? 0 : 1, "counted once");
  }

  @Test
  void aRequestTheContainerEndsBeforeItsSlotGivesTheSlotBack() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    HttpServletResponse res = response(body);
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    AsyncContext earlier = mock(AsyncContext.class);
    HttpGate.service(servlet, request(true, earlier), res);
    AsyncContext last = mock(AsyncContext.class);
    HttpGate.service(servlet, request(true, last), res);
    assertEquals(2, limiter.waiting());

    // the last in the queue: its client reset the stream
    listenerOf(last).onError(new AsyncEvent(last));
    assertEquals(1, limiter.rejected());
    assertEquals(1, limiter.waiting());
    assertEquals(3, limiter.availablePermits(), "its slot went back: two hold slots");
    verify(res, never()).setStatus(anyInt());
    // the container timed the other out: given back too, and answered as limited
    listenerOf(earlier).onTimeout(new AsyncEvent(earlier));
    assertEquals(4, limiter.availablePermits());
    verify(res).setStatus(429);
    verify(earlier).complete();
    assertTrue(body.toString().startsWith("rate limited by 'waits-"), body.toString());
    // their slots come: nothing runs, and the container is not asked to run anything
    clock.advance(200 * MS);
    for (Runnable task : due) {
      task.run();
    }
    verify(earlier, never()).start(any());
    verify(last, never()).start(any());
    verify(servlet, times(1)).service(any(), any());
    assertEquals(2, limiter.rejected());
    assertEquals(1, limiter.granted());
    assertEquals(0, limiter.waiting());
  }

  @Test
  void aRequestThatCannotBeSuspendedWaitsOnItsThreadWithinTheBound() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(false, null), res);
    HttpWaits.setMaxBlockedThreads(1);
    HttpGate.service(servlet, request(false, null), res); // holds its thread: the clock moves
    assertEquals(100 * MS, clock.parkedNanos());
    verify(servlet, times(2)).service(any(), any());
    assertEquals(0, HttpWaits.blockedThreads(), "its place given back");
    assertTrue(due.isEmpty());
    assertEquals(1, limiter.waited());
  }

  /** A servlet class of its own (what the gate learns is per class), counting its requests. */
  static final class StartsAsync implements Servlet {
    final List<Object> served = new ArrayList<>();

    @Override
    public void init(jakarta.servlet.ServletConfig config) {}

    @Override
    public jakarta.servlet.ServletConfig getServletConfig() {
      return null;
    }

    @Override
    public void service(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
      served.add(req);
    }

    @Override
    public String getServletInfo() {
      return "starts async";
    }

    @Override
    public void destroy() {}
  }

  @Test
  void aServletSeenGoingAsynchronousItselfIsNeverSuspended() throws Exception {
    shaping(10, 5);
    StartsAsync servlet = new StartsAsync();
    HttpServletRequest first = request(true, mock(AsyncContext.class));
    when(first.isAsyncStarted()).thenReturn(true); // as the servlet left it
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, first, res);
    HttpServletRequest second = request(true, mock(AsyncContext.class));
    HttpGate.service(servlet, second, res); // would wait: holds its thread instead
    verify(second, never()).startAsync();
    assertEquals(100 * MS, clock.parkedNanos());
    assertEquals(List.of(first, second), servlet.served);
  }

  @Test
  void beyondMaxBlockedThreadsARequestThatWouldWaitIsLimitedAtOnce() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    HttpWaits.setMaxBlockedThreads(0); // no request ever holds its thread
    Servlet servlet = mock(Servlet.class);
    HttpGate.service(servlet, request(false, null), response(new ByteArrayOutputStream()));
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(false, null), res);
    verify(servlet, times(1)).service(any(), any());
    verify(res).setStatus(429);
    verify(res).setHeader("Retry-After", "1");
    assertEquals(0, clock.parkedNanos());
    assertEquals(1, limiter.rejected());
    assertEquals(4, limiter.availablePermits(), "its slot went back");
    // the prologue (no servlet to resume) is held to the same bound
    HttpServletResponse prologue = response(new ByteArrayOutputStream());
    assertFalse(HttpGate.pass(request(true, mock(AsyncContext.class)), prologue));
    verify(prologue).setStatus(429);
  }

  /** A filter that passes the request on to {@code servlet}, as the container's chain would. */
  private static Filter passingTo(Servlet servlet) throws Exception {
    Filter filter = mock(Filter.class);
    doAnswer(
            i -> {
              HttpGate.service(servlet, i.getArgument(0), i.getArgument(1));
              return null;
            })
        .when(filter)
        .doFilter(any(), any(), any());
    return filter;
  }

  @Test
  void aWaitingRequestRunsItsFiltersThenIsSuspendedAtItsServletAndServedAtItsSlot()
      throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    Filter filter = passingTo(servlet);
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.filter(filter, request(true, mock(AsyncContext.class)), res, chain);
    verify(servlet, times(1)).service(any(), any()); // departs at once
    AsyncContext context = mock(AsyncContext.class);
    HttpServletRequest waiting = request(true, context);
    HttpGate.filter(filter, waiting, res, chain);
    verify(filter).doFilter(waiting, res, chain); // its filters ran: the servlet waits
    verify(servlet, never()).service(waiting, res);
    verify(context).setTimeout(0);
    assertEquals(List.of(100 * MS), delays);
    assertEquals(1, limiter.waiting(), "suspended: the entrance left its slot to the servlet");
    assertEquals(0, clock.parkedNanos());

    clock.advance(100 * MS);
    due.remove(0).run();
    startedOn(context).run();
    verify(servlet).service(waiting, res);
    verify(filter, times(2))
        .doFilter(any(), any(), any()); // not run again: never more, never fewer
    verify(context).complete();
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(1, limiter.waited());
  }

  @Test
  void aRequestAFilterAnswersIsChargedAtTheEntranceAndNeverSuspended() throws Exception {
    BucketLimiter limiter = shaping(10, 2);
    Filter answers = mock(Filter.class); // a login filter: answers, never calls the chain
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    for (int i = 0; i < 2; i++) {
      HttpServletRequest req = request(true, mock(AsyncContext.class));
      HttpGate.filter(answers, req, res, chain);
      verify(req, never()).startAsync();
    }
    verify(answers, times(2)).doFilter(any(), any(), any());
    assertEquals(0, limiter.waiting(), "its slot counted reached when its entrance returned");
    assertEquals(2, limiter.granted());
    assertEquals(1, limiter.waited());
    // the queue of two slots is full: the next is limited before the filter, charged by none
    HttpServletResponse limited = response(new ByteArrayOutputStream());
    HttpServletRequest third = request(true, mock(AsyncContext.class));
    HttpGate.filter(answers, third, limited, chain);
    HttpGate.filter(answers, request(true, mock(AsyncContext.class)), limited, chain);
    verify(limited, times(2)).setStatus(429);
    verify(answers, times(2)).doFilter(any(), any(), any());
    assertEquals(2, limiter.rejected());
  }

  @Test
  void aFilterHoldersPrologueLeavesTheWaitToTheServletAndTheFilterCallInsideItSettles()
      throws Exception {
    // Jetty's FilterHolder and Undertow's ManagedFilter have a doFilter of their own: its prologue
    // is the entrance, and the container's call of the filter inside it sees the request end
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    Filter filter = passingTo(servlet);
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpServletRequest first = request(true, mock(AsyncContext.class));
    assertTrue(HttpGate.enter(first, res));
    HttpGate.filter(filter, first, res, chain);
    AsyncContext context = mock(AsyncContext.class);
    HttpServletRequest second = request(true, context);
    assertTrue(HttpGate.enter(second, res), "its filters run first");
    HttpGate.filter(filter, second, res, chain);
    verify(servlet, never()).service(second, res);
    assertEquals(0, clock.parkedNanos(), "suspended at its servlet: no thread held");
    clock.advance(100 * MS);
    due.remove(0).run();
    startedOn(context).run();
    verify(servlet).service(second, res);
    assertEquals(1, limiter.waited());

    // a filter that answers: the filter call inside the holder counts the slot reached
    Filter answers = mock(Filter.class);
    HttpServletRequest third = request(true, mock(AsyncContext.class));
    assertTrue(HttpGate.enter(third, res));
    assertEquals(1, limiter.waiting());
    HttpGate.filter(answers, third, res, chain);
    assertEquals(0, limiter.waiting());
    assertEquals(3, limiter.granted());
    verify(third, never()).startAsync();
  }

  @Test
  void aRequestWaitingForTwoEntriesIsResumedAtTheLaterSlotAndGivesBothBackIfEnded()
      throws Exception {
    BucketLimiter fast = shaping(10, 5);
    GcraBucket bucket =
        GcraBucket.create(Discipline.SHAPING, 2, SECONDS, 5, false, Long.MAX_VALUE, 0);
    BucketLimiter slow = new BucketLimiter("waits", "Test", bucket, 1, clock);
    int slowId = LimiterRegistry.register("name waits-slow-" + names++, slow);
    int fastId = LimiterRegistry.register("name waits-fast-" + names++, fast);
    HttpGate.install(
        List.of(
            new HttpRule(
                fastId, "fast", List.of(PathPattern.parse("/api/**")), List.of(), null, true),
            new HttpRule(slowId, "slow", List.of(PathPattern.parse("/**")), List.of(), null, true)),
        List.of(),
        429);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res); // both at once
    AsyncContext served = mock(AsyncContext.class);
    HttpGate.service(servlet, request(true, served), res);
    AsyncContext ended = mock(AsyncContext.class);
    HttpGate.service(servlet, request(true, ended), res);
    assertEquals(List.of(500 * MS, 1000 * MS), delays, "the later slot: the slow entry's");
    assertEquals(2, fast.waiting());
    assertEquals(2, slow.waiting());

    listenerOf(ended).onError(new AsyncEvent(ended));
    assertEquals(1, fast.waiting());
    assertEquals(1, slow.waiting());
    assertEquals(1, fast.rejected());
    assertEquals(1, slow.rejected());
    clock.advance(400 * MS);
    due.get(0).run(); // early by its limiters' clock: set again, resumes nothing
    verify(served, never()).start(any());
    assertEquals(100 * MS, delays.get(2));
    clock.advance(100 * MS);
    due.get(2).run();
    startedOn(served).run();
    verify(servlet, times(2)).service(any(), any());
    assertEquals(0, fast.waiting());
    assertEquals(0, slow.waiting());
    assertEquals(2, fast.granted());
    assertEquals(2, slow.granted());
  }
}
