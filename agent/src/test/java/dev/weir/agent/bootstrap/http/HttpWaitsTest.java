package dev.weir.agent.bootstrap.http;

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

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
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
 * Requests that wait in the gate: suspended at their servlet with the servlet API's async and
 * dispatched again at their slot by the timer, or holding their thread within {@code
 * http.maxBlockedThreads}; on stubbed servlet API objects, a fake clock and a timer the test runs
 * by hand (the test plays the container, and runs the dispatch the timer asks for). Real containers
 * are {@code WaitingRequestsIT}'s.
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
    BucketLimiter limiter = shapingLimiter(rate, capacity);
    HttpGate.install(List.of(rule(limiter, null, true)), List.of(), 429);
    return limiter;
  }

  private BucketLimiter shapingLimiter(double rate, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(Discipline.SHAPING, rate, SECONDS, capacity, false, Long.MAX_VALUE, 0);
    return new BucketLimiter("waits", "Test", bucket, 1, clock);
  }

  private static HttpRule rule(BucketLimiter limiter, String key, boolean waits) {
    String name = "waits-" + names++;
    int id = LimiterRegistry.register("name " + name, limiter);
    return new HttpRule(id, name, List.of(PathPattern.parse("/api/**")), List.of(), key, waits);
  }

  /**
   * A request with attributes, async support as given, and an asynchronous context to start (with
   * or without the request and response): a dispatch of its own after {@link #dispatchedAgain}.
   */
  private static HttpServletRequest request(boolean asyncSupported, AsyncContext context) {
    HttpServletRequest req = mock(HttpServletRequest.class);
    Map<String, Object> attributes = new HashMap<>();
    DispatcherType[] type = {DispatcherType.REQUEST};
    boolean[] started = {false};
    when(req.getDispatcherType()).thenAnswer(i -> type[0]);
    when(req.getMethod()).thenReturn("GET");
    when(req.getServletPath()).thenReturn("/api");
    when(req.getPathInfo()).thenReturn("/x");
    when(req.getRequestURI()).thenReturn("/api/x");
    when(req.getAttribute(any())).thenAnswer(i -> attributes.get(i.getArgument(0)));
    doAnswer(i -> attributes.put(i.getArgument(0), i.getArgument(1)))
        .when(req)
        .setAttribute(any(), any());
    when(req.isAsyncSupported()).thenReturn(asyncSupported);
    when(req.isAsyncStarted()).thenAnswer(i -> started[0]);
    when(req.getAsyncContext()).thenReturn(context);
    when(req.startAsync())
        .thenAnswer(
            i -> {
              started[0] = true;
              return context;
            });
    when(req.startAsync(any(), any()))
        .thenAnswer(
            i -> {
              started[0] = true;
              return context;
            });
    // the container's dispatch: a new one, not asynchronous until started again
    attributes.put(
        "test.dispatch",
        (Runnable)
            () -> {
              type[0] = DispatcherType.ASYNC;
              started[0] = false;
            });
    return req;
  }

  /** Makes {@code req} what the container dispatches again: an ASYNC dispatch, not started. */
  private static void dispatchedAgain(HttpServletRequest req) {
    ((Runnable) req.getAttribute("test.dispatch")).run();
  }

  /** Makes {@code req} look started by the application itself. */
  private static void startedByTheApplication(HttpServletRequest req) {
    req.startAsync();
  }

  private static HttpServletResponse response(ByteArrayOutputStream body) throws Exception {
    return HttpGateTest.response(body);
  }

  /** The listener Weir added to a context. */
  private static AsyncListener listenerOf(AsyncContext context) {
    ArgumentCaptor<AsyncListener> listener = ArgumentCaptor.forClass(AsyncListener.class);
    verify(context).addListener(listener.capture());
    return listener.getValue();
  }

  private void runDue() {
    List<Runnable> now = new ArrayList<>(due);
    due.clear();
    for (Runnable task : now) {
      task.run();
    }
  }

  @Test
  void aWaitingRequestIsSuspendedAndDispatchedAgainAtItsSlot() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    verify(servlet, times(1)).service(any(), any()); // departs at once
    AsyncContext context = mock(AsyncContext.class);
    HttpServletRequest waiting = request(true, context);
    HttpGate.service(servlet, waiting, res);
    verify(servlet, times(1)).service(any(), any()); // not yet: suspended
    verify(waiting).startAsync(waiting, res); // as the servlet was called with them
    verify(context).setTimeout(0); // its slot ends the wait, not the container
    assertEquals(List.of(100 * MS), delays, "the timer is set for its slot");
    assertEquals(1, limiter.waiting());
    assertEquals(0, clock.parkedNanos(), "no thread slept");
    verify(context, never()).dispatch();

    clock.advance(100 * MS);
    runDue(); // Weir's timer: counts the slot reached, asks the container to dispatch
    verify(context).dispatch();
    verify(servlet, times(1)).service(any(), any()); // the timer runs nothing of the application
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(1, limiter.waited());
    assertEquals(100 * MS, limiter.totalWaitNanos());

    dispatchedAgain(waiting); // the container's thread: the ASYNC dispatch reaches the servlet
    HttpGate.service(servlet, waiting, res);
    verify(servlet).service(waiting, res);
    verify(context, never()).complete(); // the container ends the dispatch as any other
    assertEquals(2, limiter.granted(), "counted once");
    assertEquals(0, limiter.rejected());
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
    // their slots come: nothing runs, and the container is asked for nothing
    clock.advance(200 * MS);
    runDue();
    verify(earlier, never()).dispatch();
    verify(last, never()).dispatch();
    verify(last, never()).complete();
    verify(servlet, times(1)).service(any(), any());
    assertEquals(2, limiter.rejected());
    assertEquals(1, limiter.granted());
    assertEquals(0, limiter.waiting());
  }

  @Test
  void aContainerThatWillNotDispatchAtTheSlotLeavesNothingToTheTimer() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    AsyncContext context = mock(AsyncContext.class);
    doAnswer(
            i -> {
              throw new IllegalStateException("the request has ended");
            })
        .when(context)
        .dispatch();
    HttpGate.service(servlet, request(true, context), res);
    clock.advance(100 * MS);
    runDue(); // the container refuses: the timer writes nothing and completes nothing
    verify(res, never()).setStatus(anyInt());
    verify(context, never()).complete();
    assertTrue(due.isEmpty());
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted(), "its slot had come: counted reached");
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

  @Test
  void aRequestAsynchronousAlreadyOrIncludedHoldsItsThread() throws Exception {
    shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    HttpServletRequest started = request(true, mock(AsyncContext.class));
    startedByTheApplication(started);
    HttpGate.service(servlet, started, res);
    verify(started, never()).startAsync(any(), any());
    assertEquals(100 * MS, clock.parkedNanos());
    HttpServletRequest included = request(true, mock(AsyncContext.class));
    when(included.getDispatcherType()).thenReturn(DispatcherType.INCLUDE);
    HttpGate.service(servlet, included, res);
    verify(included, never()).startAsync(any(), any());
    assertEquals(200 * MS, clock.parkedNanos(), "the included one waited its 100 ms on its thread");
    verify(servlet, times(3)).service(any(), any());
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
    // a servlet's own prologue cannot name the servlet to check the resumed dispatch against:
    // never suspended, held to the same bound
    HttpServletResponse prologue = response(new ByteArrayOutputStream());
    HttpServletRequest asyncCapable = request(true, mock(AsyncContext.class));
    assertFalse(HttpGate.pass(asyncCapable, prologue));
    verify(asyncCapable, never()).startAsync(any(), any());
    verify(prologue).setStatus(429);
  }

  /** A filter that wraps the request and passes it on to {@code servlet}, as a chain would. */
  private static Filter wrappingFor(Servlet servlet) throws Exception {
    Filter filter = mock(Filter.class);
    doAnswer(
            i -> {
              HttpServletRequest req = i.getArgument(0);
              Object wrapped =
                  req.getDispatcherType() == DispatcherType.REQUEST
                      ? new HttpServletRequestWrapper(req)
                      : req; // an async dispatch carries the wrapper already
              HttpGate.service(servlet, wrapped, i.getArgument(1));
              return null;
            })
        .when(filter)
        .doFilter(any(), any(), any());
    return filter;
  }

  @Test
  void aWaitingRequestThatPassedAFilterWaitsInsideItOnItsThreadNeverSuspended() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    Filter filter = wrappingFor(servlet);
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.filter(filter, request(true, mock(AsyncContext.class)), res, chain);
    verify(servlet, times(1)).service(any(), any()); // departs at once
    HttpServletRequest waiting = request(true, mock(AsyncContext.class));
    HttpGate.filter(filter, waiting, res, chain);
    // suspending it would unwind the filter before the servlet ran: it waits on its thread
    verify(waiting, never()).startAsync(any(), any());
    verify(waiting, never()).startAsync();
    assertEquals(100 * MS, clock.parkedNanos());
    ArgumentCaptor<jakarta.servlet.ServletRequest> served =
        ArgumentCaptor.forClass(jakarta.servlet.ServletRequest.class);
    verify(servlet, times(2)).service(served.capture(), any());
    assertTrue(served.getValue() instanceof HttpServletRequestWrapper, "inside the filter");
    assertTrue(due.isEmpty());
    assertEquals(0, HttpWaits.blockedThreads());
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(1, limiter.waited());
  }

  @Test
  void aFilterAnswerBeforeItsSlotIsHeldUntilTheSlot() throws Exception {
    BucketLimiter limiter = shaping(10, 4);
    List<Long> ranAt = new ArrayList<>();
    Filter answers = mock(Filter.class); // a login filter: answers, never calls the chain
    doAnswer(
            i -> {
              ranAt.add(clock.nanoTime());
              return null;
            })
        .when(answers)
        .doFilter(any(), any(), any());
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpServletRequest first = request(true, mock(AsyncContext.class));
    HttpGate.filter(answers, first, res, chain);
    verify(first, never()).startAsync();
    assertEquals(0, limiter.waiting(), "at its slot: settled when its entrance returned");

    AsyncContext held = mock(AsyncContext.class);
    HttpServletRequest early = request(true, held);
    HttpGate.filter(answers, early, res, chain); // answered before its slot: its answer is held
    verify(early).startAsync();
    verify(held).setTimeout(0);
    assertEquals(1, limiter.waiting());
    clock.advance(100 * MS);
    runDue();
    verify(held).complete(); // the answer leaves at its slot
    verify(held, never()).dispatch();
    assertEquals(0, limiter.waiting());

    // one that cannot be suspended holds its thread to its slot, within the bound
    HttpServletRequest later = request(false, null);
    HttpGate.filter(answers, later, res, chain);
    assertEquals(100 * MS, clock.parkedNanos());
    assertEquals(List.of(0L, 0L, 100 * MS), ranAt, "the filter's work is done when it comes");
    assertEquals(3, limiter.granted());
    assertEquals(2, limiter.waited());
    assertEquals(0, limiter.rejected());
    assertEquals(0, limiter.waiting());
  }

  /** A servlet class of its own: what the gate learns of a servlet is per class. */
  abstract static class OwnServlet implements Servlet {
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
      return getClass().getSimpleName();
    }

    @Override
    public void destroy() {}
  }

  static final class Suspended extends OwnServlet {}

  static final class Elsewhere extends OwnServlet {}

  @Test
  void aRequestResumedAtAnotherServletIsRefused() throws Exception {
    shaping(10, 5);
    Suspended servlet = new Suspended();
    Elsewhere other = new Elsewhere();
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    AsyncContext context = mock(AsyncContext.class);
    HttpServletRequest waiting = request(true, context);
    HttpGate.service(servlet, waiting, res);
    clock.advance(100 * MS);
    runDue();
    dispatchedAgain(waiting); // a wrapper named another path: the dispatch went there
    HttpServletResponse refused = response(new ByteArrayOutputStream());
    HttpGate.service(other, waiting, refused);
    assertTrue(other.served.isEmpty(), "the other servlet is not run");
    verify(refused).setStatus(429);
    assertFalse(HttpWaits.resumable(servlet));
    assertTrue(HttpWaits.resumable(other));
  }

  @Test
  void aFilterAnswerSentAlreadyIsCountedReached() throws Exception {
    BucketLimiter limiter = shaping(10, 4);
    Filter answers = mock(Filter.class);
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.filter(answers, request(true, mock(AsyncContext.class)), res, chain);
    HttpServletResponse committed = response(new ByteArrayOutputStream());
    when(committed.isCommitted()).thenReturn(true);
    HttpServletRequest early = request(true, mock(AsyncContext.class));
    HttpGate.filter(answers, early, committed, chain);
    verify(early, never()).startAsync();
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(0, clock.parkedNanos());
  }

  @Test
  void theQueueFullARequestIsLimitedBeforeItsFiltersAndChargedByNone() throws Exception {
    BucketLimiter limiter = shaping(10, 2);
    Filter answers = mock(Filter.class);
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.filter(answers, request(true, mock(AsyncContext.class)), res, chain);
    HttpGate.filter(answers, request(true, mock(AsyncContext.class)), res, chain);
    HttpServletResponse limited = response(new ByteArrayOutputStream());
    HttpGate.filter(answers, request(true, mock(AsyncContext.class)), limited, chain);
    verify(limited).setStatus(429);
    verify(answers, times(2)).doFilter(any(), any(), any());
    assertEquals(1, limiter.rejected());
  }

  @Test
  void aFilterThatGoesAsynchronousItselfLeavesTheSlotToTheDispatchThatReachesTheServlet()
      throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    Servlet servlet = mock(Servlet.class);
    AsyncContext context = mock(AsyncContext.class);
    Filter goesAsync = mock(Filter.class); // starts the cycle, dispatches later itself
    doAnswer(
            i -> {
              HttpServletRequest req = i.getArgument(0);
              if (req.getDispatcherType() == DispatcherType.REQUEST) {
                req.startAsync();
              } else {
                HttpGate.service(servlet, req, i.getArgument(1));
              }
              return null;
            })
        .when(goesAsync)
        .doFilter(any(), any(), any());
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.service(servlet, request(true, mock(AsyncContext.class)), res);
    HttpServletRequest req = request(true, context);
    HttpGate.filter(goesAsync, req, res, chain);
    assertEquals(1, limiter.waiting(), "not settled: the filter's cycle is open");
    listenerOf(context); // Weir listens to the filter's cycle
    assertEquals(0, clock.parkedNanos());
    // the filter dispatches it before its slot: it waits at the servlet, inside the filter
    dispatchedAgain(req);
    HttpGate.filter(goesAsync, req, res, chain);
    verify(req, never()).startAsync(any(), any());
    assertEquals(100 * MS, clock.parkedNanos(), "on its thread, to its slot");
    verify(servlet).service(req, res);
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
    assertEquals(0, limiter.rejected());
  }

  @Test
  void aFilterThatCompletesItsOwnCycleSettlesTheSlotAtItsEnd() throws Exception {
    BucketLimiter limiter = shaping(10, 5);
    AsyncContext context = mock(AsyncContext.class);
    Filter goesAsync = mock(Filter.class);
    doAnswer(
            i -> {
              ((HttpServletRequest) i.getArgument(0)).startAsync();
              return null;
            })
        .when(goesAsync)
        .doFilter(any(), any(), any());
    FilterChain chain = mock(FilterChain.class);
    HttpServletResponse res = response(new ByteArrayOutputStream());
    HttpGate.filter(goesAsync, request(true, mock(AsyncContext.class)), res, chain);
    HttpGate.filter(goesAsync, request(true, context), res, chain);
    assertEquals(1, limiter.waiting());
    listenerOf(context).onComplete(new AsyncEvent(context));
    assertEquals(0, limiter.waiting());
    assertEquals(2, limiter.granted());
  }

  @Test
  void aRequestAUserEntryRefusesGivesItsSlotBackCountedByNeither() throws Exception {
    BucketLimiter shaped = shapingLimiter(10, 5);
    GcraBucket oneEach =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false, Long.MAX_VALUE, 0);
    BucketLimiter perUser = new BucketLimiter("waits", "Test", oneEach, 1, clock);
    HttpGate.install(
        List.of(rule(shaped, null, true), rule(perUser, "user", false)), List.of(), 429);
    Servlet servlet = mock(Servlet.class);
    Filter filter = wrappingFor(servlet);
    FilterChain chain = mock(FilterChain.class);
    java.security.Principal alice = () -> "alice";
    HttpServletRequest first = request(true, mock(AsyncContext.class));
    when(first.getUserPrincipal()).thenReturn(alice);
    HttpGate.filter(filter, first, response(new ByteArrayOutputStream()), chain);
    HttpServletRequest second = request(true, mock(AsyncContext.class));
    when(second.getUserPrincipal()).thenReturn(alice);
    HttpServletResponse limited = response(new ByteArrayOutputStream());
    HttpGate.filter(filter, second, limited, chain); // a slot at the entrance; alice's bucket empty
    verify(limited).setStatus(429);
    verify(second, never()).startAsync(any(), any());
    assertEquals(0, shaped.waiting());
    assertEquals(
        0, shaped.rejected(), "charged by none: not counted rejected by the shaping entry");
    assertEquals(1, shaped.granted());
    assertEquals(4, shaped.availablePermits(), "its slot went back: one request holds one");
    assertEquals(1, perUser.rejected());
  }

  @Test
  void aRequestWaitingForTwoEntriesIsResumedAtTheLaterSlotAndGivesBothBackIfEnded()
      throws Exception {
    // one departure charged on both (SPEC): the fast entry's queue must hold the slow one's wait
    BucketLimiter fast = shaping(10, 20);
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
    verify(served, never()).dispatch();
    assertEquals(100 * MS, delays.get(2));
    clock.advance(100 * MS);
    due.get(2).run();
    verify(served).dispatch();
    assertEquals(0, fast.waiting());
    assertEquals(0, slow.waiting());
    assertEquals(2, fast.granted());
    assertEquals(2, slow.granted());
  }
}
