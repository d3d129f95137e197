package dev.weir.agent.bootstrap;

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
 * after its filters. There, if the request can be suspended (the container called the servlet
 * through the interface, so Weir can call it again; asynchronous support is on for every filter and
 * the servlet; the request is not asynchronous already; the servlet was never seen to start an
 * asynchronous cycle of its own), its asynchronous cycle is started with no timeout (its slot, not
 * the container, ends the wait) and a listener of Weir's, and the container's thread goes back to
 * its pool; at the slot Weir's timer asks the container to run {@link #run} on its own pool ({@code
 * AsyncContext.start}): the slots are reached ({@link Reservation#admit}) and the servlet is called
 * with the request and response it was called with, within the same filter calls, after which Weir
 * completes the cycle. Nothing is dispatched again, so every filter a request that never waited
 * runs has run, and the request is counted once. A request that cannot be suspended waits on its
 * thread, within {@code http.maxBlockedThreads} ({@link HttpWaits}), or is limited at once beyond
 * them. A request a filter answers never reaches its servlet: it has been served, and its slots are
 * counted reached when its entrance returns ({@link #settle}).
 *
 * <p><b>Ended before its slot.</b> A suspended request the container ends first (a timeout, an
 * error such as a client reset, a completion) gives its slots back by the rule for interrupted
 * waiters ({@link Reservation#abandon}) and the permits taken at once; one it timed out is answered
 * as a limited request.
 *
 * <p>Thread-safe by hand-off: the request's thread of the moment uses it until it is suspended;
 * from then on the timer thread, the container's thread that resumes it and the container's thread
 * that reports an event see it through {@link #state}, whose one transition out of {@code
 * SUSPENDED} decides, once, between resuming and giving back.
 */
final class HttpPassage implements Runnable, ServletApi.AsyncEvents {
  private static final HttpRule[] NO_RULES = new HttpRule[0];

  private static final int HELD = 0;
  private static final int SUSPENDED = 1;
  private static final int RESUMED = 2;
  private static final int ENDED = 3;

  /** The {@code user} entries to check where the request reaches its servlet; empty if none. */
  final HttpRule[] users;

  private Limiter[] taken = new Limiter[2];
  private String[] keys = new String[2];
  private int count;

  private Reservation[] slots = new Reservation[1];
  private String[] slotNames = new String[1];
  private int held;

  /** True once the servlet's side took the slots over: the entrance no longer settles them. */
  private boolean handedOver;

  /** True once a container's call of a filter will settle the slots when it returns. */
  private boolean settling;

  private final AtomicInteger state = new AtomicInteger(HELD);

  // set before the request is suspended, read after state says SUSPENDED
  private ServletApi api;
  private Object request;
  private Object response;
  private Object servlet;
  private Object context;
  private int status;

  HttpPassage(HttpRule[] users) {
    this.users = users == null ? NO_RULES : users;
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

  /** Keeps a slot an entry ({@code name}) gave the request to wait for. */
  void holds(Reservation slot, String name) {
    if (held == slots.length) {
      slots = java.util.Arrays.copyOf(slots, held * 2);
      slotNames = java.util.Arrays.copyOf(slotNames, held * 2);
    }
    slots[held] = slot;
    slotNames[held++] = name;
  }

  /** Whether the request holds slots it has yet to reach. */
  boolean waits() {
    return held > 0;
  }

  /**
   * Gives back everything the request was charged, once: the permits taken at once, and the slots
   * it holds (by the rule for interrupted waiters, each counted rejected).
   *
   * @return the longest retry-after of the slots given back, nanoseconds; 0 if it held none
   */
  long giveBack() {
    int n = count;
    count = 0;
    for (int j = 0; j < n; j++) {
      taken[j].refund(keys[j]);
    }
    int h = held;
    held = 0;
    long retryAfter = 0;
    for (int j = 0; j < h; j++) {
      retryAfter = Math.max(retryAfter, slots[j].abandon());
    }
    return retryAfter;
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
   * Where the request's entrance returns (the container's call of its first filter): slots the
   * servlet's side never took over belong to a request a filter answered, or one whose filters
   * failed; it was served without waiting, and its slots are counted reached. Never throws.
   */
  void settle() {
    if (handedOver) {
      return;
    }
    handedOver = true;
    int h = held;
    held = 0;
    for (int j = 0; j < h; j++) {
      slots[j].admit();
    }
  }

  /**
   * Waits for the request's slots where it reaches its servlet, or at an entrance that cannot see
   * the request end (a filter's own woven prologue): suspended if it can be, else on this thread
   * within {@code http.maxBlockedThreads}, else limited at once. Called on the request's thread,
   * inside Weir's own section.
   *
   * @param servletToResume the servlet to call at the slot; null if the caller cannot call it again
   *     (then the request holds its thread)
   * @return true to run the servlet (or filter) now; false if the request was answered or suspended
   */
  boolean await(
      HttpGate.Settings s,
      ServletApi api,
      Object request,
      Object response,
      Object servletToResume) {
    handedOver = true;
    if (held == 0) {
      return true;
    }
    if (servletToResume != null
        && !HttpWaits.goesAsync(servletToResume)
        && Boolean.TRUE.equals(HttpGate.call(api.isAsyncSupported, request))
        && !Boolean.TRUE.equals(HttpGate.call(api.isAsyncStarted, request))) {
      Object started;
      try {
        started = HttpGate.call(api.startAsync, request);
        HttpGate.call(api.setTimeout, started, Long.valueOf(0)); // the slot ends the wait
      } catch (RuntimeException cannotSuspend) {
        started = null; // it said it could be suspended and then could not: as one that cannot
      }
      if (started != null) {
        this.api = api;
        this.request = request;
        this.response = response;
        this.servlet = servletToResume;
        this.context = started;
        this.status = s.status;
        state.set(SUSPENDED); // published: the listener and the timer see the rest through it
        try {
          HttpGate.call(api.addListener, started, api.asyncListener(this));
        } catch (RuntimeException | LinkageError cannotListen) {
          // the container would not tell Weir of an end: without the listener the request is
          // served at its slot all the same, and one the client left gives nothing back
        }
        new Wake(this).run();
        return false;
      }
    }
    return onThisThread(s, api, response);
  }

  /**
   * Waits for the slots on the request's thread, within {@code http.maxBlockedThreads}; limited at
   * once, its slots given back, when every place is taken or the thread is interrupted.
   */
  private boolean onThisThread(HttpGate.Settings s, ServletApi api, Object response) {
    String name = slotNames[0];
    long retryAfter;
    if (HttpWaits.takePlace()) {
      try {
        int h = held;
        int j = 0;
        for (; j < h; j++) {
          long r = slots[j].await();
          if (r != 0) {
            name = slotNames[j];
            break;
          }
        }
        if (j == h) {
          held = 0;
          return true;
        }
        // interrupted: the slots reached already are kept (those calls proceeded), the rest go back
        System.arraycopy(slots, j, slots, 0, h - j);
        System.arraycopy(slotNames, j, slotNames, 0, h - j);
        held = h - j;
      } finally {
        HttpWaits.releasePlace();
      }
    }
    retryAfter = Math.max(1, giveBack());
    HttpGate.answer(api, response, s.status, retryAfter, name);
    return false;
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
   * Resumes the request at its slots, on the container's thread: the slots reached, the servlet
   * called, the asynchronous cycle completed.
   */
  @Override
  public void run() {
    int[] section = CallDepth.enterWeir();
    try {
      if (!state.compareAndSet(SUSPENDED, RESUMED)) {
        return; // given back already: the container ended the request first
      }
      for (int j = 0; j < held; j++) {
        slots[j].admit();
      }
      held = 0;
    } finally {
      section[0]--;
    }
    try {
      HttpGate.serve(servlet, request, response, true);
    } catch (Throwable e) {
      failed();
      throw HttpGate.<RuntimeException>sneaky(e); // to the container's thread, as it was thrown
    } finally {
      complete();
    }
  }

  /** A request that failed while resumed gets the 500 a failed synchronous request gets. */
  private void failed() {
    int[] section = CallDepth.enterWeir();
    try {
      Object http = HttpGate.httpResponse(api, response);
      if (!Boolean.TRUE.equals(HttpGate.call(api.isCommitted, http))) {
        HttpGate.call(api.sendError, http, Integer.valueOf(500));
      }
    } catch (RuntimeException | LinkageError cannotAnswer) {
      // the client went away, or the response cannot be written: nothing more to do
    } finally {
      section[0]--;
    }
  }

  private void complete() {
    int[] section = CallDepth.enterWeir();
    try {
      HttpGate.call(api.complete, context);
    } catch (RuntimeException endedAlready) {
      // the application completed the cycle itself, or the container ended it
    } finally {
      section[0]--;
    }
  }

  /**
   * What the container reports of the suspended request (Weir's {@code AsyncListener}): before the
   * slots, a timeout, an error or a completion gives them back with the permits taken at once; a
   * timed-out request is answered as a limited request. After the slots, nothing.
   */
  @Override
  public void happened(String event) {
    int[] section = CallDepth.enterWeir();
    try {
      if (!state.compareAndSet(SUSPENDED, ENDED)) {
        return; // resumed already (the request runs on), or not suspended
      }
      String name = held > 0 ? slotNames[0] : "";
      long retryAfter = Math.max(1, giveBack());
      if (event.equals("onTimeout")) {
        HttpGate.answer(api, response, status, retryAfter, name);
        complete();
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
   * The timer's task: once the last slot has come by its limiter's clock, asks the container to
   * resume the request on its pool; before that, sets itself again for the time left.
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
      try {
        HttpGate.call(p.api.start, p.context, p);
      } catch (RuntimeException | LinkageError cannotResume) {
        // the container ended the request meanwhile (its listener gave the slots back), or will
        // not run it: give the slots back and answer it as limited
        p.happened("onTimeout");
      }
    }
  }
}
