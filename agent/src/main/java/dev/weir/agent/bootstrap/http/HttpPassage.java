package dev.weir.agent.bootstrap.http;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.Reservation;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request's charges through the {@code http} entries, kept in its {@value HttpGate#COUNTED}
 * attribute from its entrance to its servlet: the permits taken at once (given back if a later
 * entry limits it, so a limited request is charged by none), the departure slots it holds and has
 * yet to reach ({@code WAIT} and SHAPING entries, {@link Limiter#reserve}), and the {@code user}
 * entries its path matched, which are checked where it reaches a servlet.
 *
 * <p><b>Where a request waits.</b> Its slots are taken where it enters the application, before its
 * filters, in the order of every other charge; it waits for them where it reaches its servlet,
 * after its filters. A request that passed no filter on its way is suspended there if the servlet
 * API lets Weir do so (the container's call of the servlet is Weir's, so the servlet is known;
 * asynchronous support on; not asynchronous already; a {@code REQUEST} or {@code ASYNC} dispatch):
 * its asynchronous cycle is started with the request and response the servlet got ({@code
 * startAsync(request, response)}), no timeout (its slot, not the container, ends the wait) and a
 * listener of Weir's, and the container's thread goes back to its pool. At the slot Weir's timer
 * counts the slots reached ({@link Reservation#admit}) and asks the container to dispatch the
 * request again ({@code AsyncContext.dispatch()}), which it runs on its own pool, to the servlet,
 * which may go asynchronous itself; the request is counted once.
 *
 * <p><b>A request that passed filters holds its thread.</b> Suspending it would unwind its filters
 * before the servlet ran, and no dispatch the servlet API offers runs them again as they ran: an
 * {@code ASYNC} dispatch skips the filters mapped for {@code REQUEST} only, Spring's {@code
 * OncePerRequestFilter} skips its work on it (a tenant, a JWT authentication, an MDC left unset), a
 * wrapper may name another path, Jetty merges the query string into the parameters again, and a
 * filter's work after the chain runs on a response not yet served. So such a request waits on its
 * thread, inside its filters, exactly as it would run without Weir, within {@code
 * http.maxBlockedThreads} ({@link HttpWaits}), and is limited at once beyond them. The dispatch
 * Weir asks for is still checked where it reaches a servlet ({@link #missed}): one that reaches
 * another servlet is refused as limited, never served, logged once, and that servlet's requests
 * hold their thread from then on.
 *
 * <p><b>A request a filter answers.</b> It never reaches its servlet; where its entrance returns
 * (the container's call of its first filter, {@link #entranceReturned}) its slots are settled. One
 * answered before its slot has its answer held until the slot when it is not sent yet (suspended
 * with {@code startAsync()}, completed at the slot; else on its thread within {@code
 * http.maxBlockedThreads}); the filter's work is done, so the entry bounds how many requests the
 * filter answers (as a token bucket of the same capacity would), not when it works on them. A
 * filter that starts the request's asynchronous cycle itself leaves the slots to the dispatch that
 * reaches the servlet, or to the end of the cycle.
 *
 * <p><b>Ended before its slot.</b> A suspended request the container ends first (a timeout, an
 * error such as a client reset, a completion) gives its slots back by the rule for interrupted
 * waiters ({@link Reservation#abandon}) and the permits taken at once; one it timed out is answered
 * as a limited request.
 *
 * <p>Thread-safe by hand-off: the request's thread of the moment uses it until it is suspended;
 * from then on the timer thread and the container's thread that reports an event see it through
 * {@link #state}, whose one transition out of {@code SUSPENDED} decides, once, between reaching the
 * slots and giving them back.
 */
final class HttpPassage implements ServletApi.AsyncEvents {
  private static final HttpRule[] NO_RULES = new HttpRule[0];

  private static final int HELD = 0;
  private static final int SUSPENDED = 1;
  private static final int RESUMED = 2;
  private static final int ENDED = 3;

  /** The {@code user} entries to check where the request reaches a servlet; empty if none. */
  final HttpRule[] users;

  private Limiter[] taken = new Limiter[2];
  private String[] keys = new String[2];
  private int count;

  private Reservation[] jointCharges = new Reservation[1];
  private int joints;

  private Reservation[] slots = new Reservation[1];
  private HttpRule[] slotRules = new HttpRule[1];
  private int held;

  /** True once the servlet's side took the slots over: the entrance no longer settles them. */
  private boolean handedOver;

  /** True once a container's call of a filter will settle the slots when it returns. */
  private boolean settling;

  private final AtomicInteger state = new AtomicInteger(HELD);

  /** The API and the HTTP request and response where the request entered. */
  private final ServletApi api;

  private final Object request;
  private final Object response;

  /**
   * How many filters the container called on the dispatch that reaches the servlet: only a request
   * that passed none is suspended.
   */
  private int filtersPassed;

  /** True once the dispatch Weir asked for reached a servlet and was checked. */
  private boolean checked;

  // set before the request is suspended, read after state says SUSPENDED
  private Object servlet;
  private Object context;
  private Object answerTo;
  private boolean dispatchAtSlot;
  private int status;

  HttpPassage(HttpRule[] users, ServletApi api, Object request, Object response) {
    this.users = users == null ? NO_RULES : users;
    this.api = api;
    this.request = request;
    this.response = response;
  }

  /** Keeps permits an entry took at once, to give back if a later entry limits the request. */
  void took(Limiter limiter, String key) {
    if (count == taken.length) {
      taken = java.util.Arrays.copyOf(taken, count * 2);
      keys = java.util.Arrays.copyOf(keys, count * 2);
    }
    taken[count] = limiter;
    keys[count++] = key;
  }

  /**
   * Keeps the charges several entries made at once together ({@link
   * dev.weir.agent.bootstrap.limit.LimitGroup#reserveAll}), to give back exactly if a later entry
   * limits the request.
   */
  void tookAll(Reservation charges) {
    if (joints == jointCharges.length) {
      jointCharges = java.util.Arrays.copyOf(jointCharges, joints * 2);
    }
    jointCharges[joints++] = charges;
  }

  /** Keeps a slot an entry ({@code rule}) gave the request to wait for. */
  void holds(Reservation slot, HttpRule rule) {
    if (held == slots.length) {
      slots = java.util.Arrays.copyOf(slots, held * 2);
      slotRules = java.util.Arrays.copyOf(slotRules, held * 2);
    }
    slots[held] = slot;
    slotRules[held++] = rule;
  }

  /** Whether the request holds slots it has yet to reach. */
  boolean waits() {
    return held > 0;
  }

  /**
   * Gives back everything the request was charged, once, for a request another entry refused (or
   * that Weir could not decide): the permits taken at once and the slots it holds, counted by none.
   */
  void withdraw() {
    refund();
    int h = held;
    held = 0;
    for (int j = 0; j < h; j++) {
      slots[j].withdraw();
    }
  }

  /**
   * Gives back everything the request was charged, once, for a request that ended before its slot
   * (its client went away, the container ended it, it could not wait): the permits taken at once,
   * and the slots it holds by the rule for interrupted waiters, each counted rejected.
   *
   * @return the longest retry-after of the slots given back, nanoseconds; 0 if it held none
   */
  private long abandon() {
    refund();
    int h = held;
    held = 0;
    long retryAfter = 0;
    for (int j = 0; j < h; j++) {
      retryAfter = Math.max(retryAfter, slots[j].abandon());
    }
    return retryAfter;
  }

  private void refund() {
    int n = count;
    count = 0;
    for (int j = 0; j < n; j++) {
      taken[j].refund(keys[j]);
    }
    int t = joints;
    joints = 0;
    for (int j = 0; j < t; j++) {
      jointCharges[j].withdraw();
    }
  }

  /** Counts every slot the request holds reached. */
  private void admitAll() {
    int h = held;
    held = 0;
    for (int j = 0; j < h; j++) {
      slots[j].admit();
    }
  }

  /**
   * Claims the settling of the request's slots for the container's call of a filter that sees it
   * first: the outermost, which returns when the request has been served.
   *
   * @return true for the first caller, while the servlet's side has not taken the slots over
   */
  boolean claimSettling() {
    if (settling || handedOver) {
      return false;
    }
    settling = true;
    return true;
  }

  /**
   * Slots the servlet's side never took over are counted reached: the request was served without
   * waiting (or failed, or ended). Never throws.
   */
  private void settle() {
    if (handedOver) {
      return;
    }
    handedOver = true;
    admitAll();
  }

  /** Counts a filter the container called for the request, on its way to its servlet. */
  void passedFilter() {
    if (state.get() == HELD && !handedOver) {
      filtersPassed++;
    }
  }

  /** Whether the request is the dispatch Weir asked for at its slot, not yet at a servlet. */
  boolean resumed() {
    return state.get() == RESUMED && !checked;
  }

  /**
   * Where the dispatch Weir asked for reaches a servlet: whether it is the servlet the request was
   * suspended at (a container may route a dispatch elsewhere). Once.
   *
   * @param servletNow the servlet reached; null if unknown
   * @return null if it may run; else where the dispatch went, in words
   */
  String missed(Object servletNow) {
    checked = true;
    if (servletNow == servlet) {
      return null;
    }
    return "to another servlet ("
        + (servletNow == null ? "one Weir cannot name" : servletNow.getClass().getName())
        + ")";
  }

  /** The servlet the request was suspended at. */
  Object servlet() {
    return servlet;
  }

  /** The name of the first limit the request waited for; empty if it held no slot. */
  String waitedFor() {
    return slotRules[0] == null ? "" : slotRules[0].name;
  }

  /**
   * Waits for the request's slots where it reaches its servlet: suspended if it can be, else on
   * this thread within {@code http.maxBlockedThreads}, else limited at once. Called on the
   * request's thread, inside Weir's own section.
   *
   * @param http the HTTP request beneath {@code servletRequest}'s plain wrappers, for its API
   * @param servletRequest the request as the servlet was called with it
   * @param servletResponse the response as the servlet was called with it
   * @param servletToRun the servlet the container calls; null if unknown (then the request holds
   *     its thread: the dispatch at its slot could not be checked)
   * @return true to run the servlet now; false if the request was answered or suspended
   */
  boolean await(
      HttpGate.Settings s,
      ServletApi api,
      Object http,
      Object servletRequest,
      Object servletResponse,
      Object servletToRun) {
    handedOver = true;
    if (held == 0) {
      return true;
    }
    Object started = null;
    if (servletToRun != null
        && filtersPassed == 0
        && HttpWaits.resumable(servletToRun)
        && suspendable(api, http, true)) {
      try {
        started =
            HttpGate.call(api.startAsyncWith, servletRequest, servletRequest, servletResponse);
      } catch (RuntimeException cannotSuspend) {
        // it said it could be suspended and then could not: as one that cannot
      }
    }
    if (started != null) {
      servlet = servletToRun;
      try {
        // the dispatch at the slot finds the request's passage, and notes its filters
        HttpGate.call(api.setAttribute, http, HttpGate.COUNTED, this);
      } catch (RuntimeException cannotMark) {
        // the dispatch will find no passage and run as any other: it was counted already
      }
      suspend(s, api, started, servletResponse, true);
      return false;
    }
    return onThisThread(s, servletResponse);
  }

  /**
   * Whether the servlet API lets Weir suspend the request now: asynchronous support on, not
   * asynchronous already, and (where it is dispatched again) a {@code REQUEST} or {@code ASYNC}
   * dispatch.
   */
  private static boolean suspendable(ServletApi api, Object http, boolean toDispatch) {
    try {
      if (!Boolean.TRUE.equals(HttpGate.call(api.isAsyncSupported, http))
          || Boolean.TRUE.equals(HttpGate.call(api.isAsyncStarted, http))) {
        return false;
      }
      if (!toDispatch) {
        return true;
      }
      String type = String.valueOf(HttpGate.call(api.dispatcherType, http));
      return type.equals("REQUEST") || type.equals("ASYNC");
    } catch (RuntimeException cannotTell) {
      return false;
    }
  }

  /**
   * The request's asynchronous cycle, started: no timeout, Weir's listener, the timer set for the
   * last slot. At the slot the request is dispatched again ({@code dispatch}) or its cycle
   * completed (a filter's answer held until its slot).
   */
  private void suspend(
      HttpGate.Settings s, ServletApi api, Object started, Object answerTo, boolean dispatch) {
    handedOver = true;
    this.context = started;
    this.answerTo = answerTo;
    this.dispatchAtSlot = dispatch;
    this.status = s.status;
    try {
      HttpGate.call(api.setTimeout, started, Long.valueOf(0)); // the slot ends the wait
    } catch (RuntimeException keepsItsOwn) {
      // the container keeps its own timeout: the listener gives the slots back if it comes first
    }
    state.set(SUSPENDED); // published: the listener and the timer see the rest through it
    try {
      HttpGate.call(api.addListener, started, api.asyncListener(this));
    } catch (RuntimeException | LinkageError cannotListen) {
      // the container would not tell Weir of an end: the request is resumed at its slot all the
      // same, and one the client left gives nothing back
    }
    new Wake(this).run();
  }

  /**
   * Waits for the slots on the request's thread, within {@code http.maxBlockedThreads}; limited at
   * once, its slots given back, when every place is taken or the thread is interrupted.
   *
   * @return true to go on; false if the request was answered as limited
   */
  private boolean onThisThread(HttpGate.Settings s, Object answerTo) {
    handedOver = true;
    String name = slotRules[0].name;
    if (HttpWaits.takePlace()) {
      try {
        int h = held;
        int j = 0;
        for (; j < h; j++) {
          long r = slots[j].await();
          if (r != 0) {
            name = slotRules[j].name;
            break;
          }
        }
        if (j == h) {
          held = 0;
          return true;
        }
        // interrupted: the slots reached already are kept (those calls proceeded), the rest go back
        System.arraycopy(slots, j, slots, 0, h - j);
        System.arraycopy(slotRules, j, slotRules, 0, h - j);
        held = h - j;
      } finally {
        HttpWaits.releasePlace();
      }
    }
    long retryAfter = Math.max(1, abandon());
    LimitedAnswer.answer(api, answerTo, s.status, retryAfter, name);
    return false;
  }

  /**
   * Where the request's entrance returns (the container's call of its first filter) while the
   * servlet's side never took its slots over: a filter answered it, or failed ({@code thrown}), or
   * started its asynchronous cycle. Called on the request's thread, inside Weir's own section.
   * Never throws.
   */
  void entranceReturned(HttpGate.Settings s, boolean thrown) {
    if (handedOver) {
      return;
    }
    try {
      if (thrown || held == 0) {
        settle();
      } else if (Boolean.TRUE.equals(HttpGate.call(api.isAsyncStarted, request))) {
        // a filter's own asynchronous cycle: the dispatch that reaches the servlet waits there, the
        // entrance of the next dispatch settles, and the end of the cycle settles what is left
        settling = false;
        filtersPassed = 0; // the dispatch that reaches the servlet counts its own filters
        HttpGate.call(
            api.addListener, HttpGate.call(api.asyncContext, request), api.asyncListener(this));
      } else if (untilLastSlot() <= 0) {
        settle(); // answered by a filter, at or after its slot
      } else {
        answeredEarly(s);
      }
    } catch (RuntimeException | LinkageError cannotTell) {
      settle();
    }
  }

  /**
   * A filter answered the request before its slot: its answer, if not sent yet, is held until the
   * slot (suspended, else on its thread within {@code http.maxBlockedThreads}); else it is counted
   * reached now. The filter's work is done: an entry bounds how many requests a filter answers, not
   * when it works on them.
   */
  private void answeredEarly(HttpGate.Settings s) {
    if (Boolean.TRUE.equals(HttpGate.call(api.isCommitted, response))) {
      settle(); // sent already: counted reached
      return;
    }
    Object started = null;
    if (suspendable(api, request, false)) {
      try {
        started = HttpGate.call(api.startAsync, request);
      } catch (RuntimeException cannotSuspend) {
        // as one that cannot be suspended
      }
    }
    if (started != null) {
      suspend(s, api, started, response, false);
      return;
    }
    if (HttpWaits.takePlace()) {
      try {
        for (int j = 0; j < held; j++) {
          if (slots[j].await() != 0) {
            break; // interrupted: the answer goes now, counted reached
          }
        }
      } finally {
        HttpWaits.releasePlace();
      }
    }
    settle();
  }

  /** The nanoseconds until the last of the request's slots, by each slot's limiter's clock. */
  private long untilLastSlot() {
    long longest = 0;
    for (int j = 0; j < held; j++) {
      Reservation r = slots[j];
      longest = Math.max(longest, r.reservedAtNanos() + r.waitNanos() - r.clock().nanoTime());
    }
    return longest;
  }

  /**
   * What the container reports of the request's asynchronous cycle (Weir's {@code AsyncListener}):
   * suspended by Weir, a timeout, an error or a completion before the slots gives them back with
   * the permits taken at once, and a timed-out request is answered as a limited request; in a
   * filter's own cycle, its end settles the slots no servlet took over. After the slots, nothing.
   */
  @Override
  public void happened(String event) {
    int[] section = CallDepth.enterWeir();
    try {
      if (state.get() == HELD) {
        settle(); // a filter's own cycle ended
        return;
      }
      if (!state.compareAndSet(SUSPENDED, ENDED)) {
        return; // resumed already (the request runs on)
      }
      String name = held > 0 ? slotRules[0].name : "";
      long retryAfter = Math.max(1, abandon());
      if (event.equals("onTimeout")) {
        if (dispatchAtSlot) {
          LimitedAnswer.answer(api, answerTo, status, retryAfter, name);
        }
        HttpGate.call(api.complete, context);
      }
    } catch (RuntimeException | LinkageError cannotAnswer) {
      // the container ends the request as it ends any that failed
    } finally {
      section[0]--;
    }
  }

  @Override
  public String toString() {
    return "counted by Weir's http limits; "
        + users.length
        + " user entries to check, "
        + held
        + " departure slots held";
  }

  /**
   * The timer's task: once the last slot has come by its limiter's clock, counts the slots reached
   * and asks the container to dispatch the request again (or to complete it, for an answer held
   * until its slot); before that, sets itself again for the time left. It runs no application code:
   * the container runs the dispatch on its own pool.
   */
  private static final class Wake implements Runnable {
    private final HttpPassage passage;

    Wake(HttpPassage passage) {
      this.passage = passage;
    }

    @Override
    public void run() {
      HttpPassage p = passage;
      if (p.state.get() != SUSPENDED) {
        return; // ended by the container meanwhile
      }
      long left = p.untilLastSlot();
      if (left > 0) {
        HttpWaits.schedule(this, left);
        return;
      }
      if (!p.state.compareAndSet(SUSPENDED, RESUMED)) {
        return;
      }
      int[] section = CallDepth.enterWeir();
      try {
        p.admitAll();
        HttpGate.call(p.dispatchAtSlot ? p.api.dispatch : p.api.complete, p.context);
      } catch (RuntimeException | LinkageError endedMeanwhile) {
        // the container ended the request as its slot came: nothing is left to resume
      } finally {
        section[0]--;
      }
    }
  }
}
