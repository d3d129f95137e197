package dev.weir.it;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.ClassLoaderReference;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.ExceptionEvent;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.event.ThreadStartEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.ExceptionRequest;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;
import com.sun.jdi.request.ThreadStartRequest;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Runs a fixture under the agent and a debugger (JDI, over JDWP), and records every JDK method that
 * Weir's acquire, weaving or logging path enters on the fixture's threads before Weir can tell the
 * call is its own: what {@code Unlimitable.JDK_METHODS} must list.
 *
 * <h2>The paths</h2>
 *
 * <p>A call into a path from outside opens a <em>window</em>:
 *
 * <ul>
 *   <li><b>acquire</b>: a call of {@code WeirBridge}, of {@code HttpGate.enter}, {@code filter},
 *       {@code pass} or {@code service}, or of a {@code RateLimitedException} constructor, made by
 *       a frame that is not Weir's (woven code), until it returns; and a JDK method that a woven
 *       frame calls directly before its first call into the bridge (the prologue's key: {@code
 *       String.valueOf}, {@code Arrays}), until it returns;
 *   <li><b>weave</b>: {@code InstrumentationImpl.transform}, the JVM's call that hands a loading
 *       class to the transformers, until it returns;
 *   <li><b>log</b>: a public method of {@code AgentLog}, until it returns.
 * </ul>
 *
 * Every method entered in a window is on its path, but for two exceptions. A method of the
 * application (a class of neither the JDK's loaders nor Weir's) and what it calls are on none: what
 * a key's {@code toString} or a container's request does is the application's. And a section of
 * Weir's own work closes the window: when {@code CallDepth.enterWeir()} returns, the frame that
 * called it and its callees are on no path until that frame exits. That is a faithful model of a
 * section because Weir opens sections only at the top of a method ({@code int[] s =
 * CallDepth.enterWeir(); try { ... } finally { s[0]--; }}), so the section and the method end
 * together. A window opens whatever sections are open below it (an error logged while a class is
 * woven records what the logger runs before its own section): what runs there would be charged had
 * the call come from outside a section.
 *
 * <p>A JDK method is one of a class of the boot or platform class loader, outside {@code java.lang}
 * and its subpackages (which Weir refuses by name), outside Weir's own classes ({@code dev.weir}
 * and {@code dev.weir.agent}, refused by name too), and not of a hidden class (which no pattern can
 * name and no agent can weave). Each is recorded as {@code binary.Class#name(descriptor)} with its
 * path, the Weir or woven method whose call into the JDK led to it, and the calls that opened its
 * windows.
 *
 * <h2>How</h2>
 *
 * <p>The fixture starts suspended; the recorder sets a breakpoint at the first instruction of each
 * method that opens a window (and of each woven method), in each class as it is prepared. Once the
 * fixture's {@code main} runs (the agent has started), on its main thread and on the threads it
 * names, such a breakpoint turns on that thread's method entry, exit and exception events, which
 * suspend nothing and are replayed on a shadow stack, until the method returns: a debugger's events
 * are slow, and most of a run is outside any window. JDWP reports no exit of a frame that an
 * exception pops, so each exception pops the frames above the method that catches it.
 */
final class PathRecorder {
  static final String ACQUIRE = "acquire";
  static final String WEAVE = "weave";
  static final String LOG = "log";

  private static final String BRIDGE = "dev.weir.agent.bootstrap.limit.WeirBridge";
  private static final String GATE = "dev.weir.agent.bootstrap.http.HttpGate";

  /** What woven code calls of the http gate: a filter's prologue and call site, a servlet's. */
  private static final Set<String> GATE_ENTRIES = Set.of("enter", "filter", "pass", "service");

  private static final String EXCEPTION = "dev.weir.RateLimitedException";
  private static final String LOGGER = "dev.weir.agent.bootstrap.AgentLog";
  private static final String CALL_DEPTH = "dev.weir.agent.bootstrap.CallDepth";
  private static final String INSTRUMENTATION = "sun.instrument.InstrumentationImpl";
  private static final String PLATFORM_LOADER =
      "jdk.internal.loader.ClassLoaders$PlatformClassLoader";

  /** The classes whose methods open windows. */
  private static final List<String> OPENERS =
      List.of(BRIDGE, GATE, EXCEPTION, LOGGER, INSTRUMENTATION);

  /** What a method is, for the shadow stack; computed once a method. */
  private static final class Kind {
    static final int JAVA_LANG = 0;
    static final int WEIR = 1;
    static final int JDK = 2;
    static final int APP = 3;

    final String name;
    final int origin;

    /** The path a call of it opens, or null. */
    final String opens;

    /** A call into the acquire path from woven code: the end of the prologue's key. */
    final boolean bridge;

    final boolean woven;
    final boolean entersSection;

    Kind(String name, int origin, String opens, boolean bridge, boolean woven, boolean section) {
      this.name = name;
      this.origin = origin;
      this.opens = opens;
      this.bridge = bridge;
      this.woven = woven;
      this.entersSection = section;
    }
  }

  /** One call into a path from outside: what it entered. */
  private static final class Window {
    final String path;

    /** The method that opened it, and its caller: {@code WeirBridge#acquire(I)J from ...}. */
    final String opening;

    /** What it entered, each with the Weir (or woven) method that led to it. */
    final Map<String, Set<String>> found = new TreeMap<>();

    Window(String path, String opening) {
      this.path = path;
      this.opening = opening;
    }
  }

  private static final class Frame {
    final Method method;
    final Kind kind;

    /** The window this frame runs in, or null: then no path runs here. */
    Window window;

    boolean bridgeCalled;

    /** The nearest Weir or woven method below, or this frame's if it is one. */
    final String weirCaller;

    Frame(Method method, Kind kind, Window window, String weirCaller) {
      this.method = method;
      this.kind = kind;
      this.window = window;
      this.weirCaller = weirCaller;
    }
  }

  /** A thread whose windows are recorded. */
  private static final class Followed {
    final Deque<Frame> stack = new ArrayDeque<>();

    /** Its method entry, exit and exception requests, on while a window's method runs. */
    final List<EventRequest> stream = new ArrayList<>();

    boolean streaming;
  }

  /** A JDK method recorded: its paths, and who in Weir (or in woven code) reached it. */
  static final class Found {
    final Set<String> paths = new TreeSet<>();

    /**
     * The Weir (or woven) methods whose calls into the JDK led to it, each with the calls into
     * Weir's paths (the windows' openings) it was reached in.
     */
    final Map<String, Set<String>> callers = new TreeMap<>();

    /**
     * The callers under which the last window of an opening entered it too: there it runs on every
     * such call, not only on the first (as class initialization and the JDK's own linking do). A
     * hint for readers, no more: the last call may be the first of its kind (the first wait, say).
     */
    final Set<String> everyCall = new TreeSet<>();

    /** The path to name it by: the acquire path if it is on it (every limited call runs it). */
    String path() {
      for (String p : new String[] {ACQUIRE, WEAVE, LOG}) {
        if (paths.contains(p)) {
          return p;
        }
      }
      throw new IllegalStateException("no path");
    }
  }

  /** What a run found. */
  static final class Recording {
    final Map<String, Found> methods = new TreeMap<>();

    /** How many windows each path opened. */
    final Map<String, Integer> windows = new TreeMap<>();

    /** How many windows each opening opened. */
    final Map<String, Integer> openings = new TreeMap<>();

    String out = "";
    String err = "";
    int exitCode = -1;
    long events;
    long unmatchedExits;
    long exceptions;
    long elapsedMillis;

    @Override
    public String toString() {
      return "exit "
          + exitCode
          + ", "
          + events
          + " events in "
          + elapsedMillis
          + " ms ("
          + exceptions
          + " exceptions, "
          + unmatchedExits
          + " exits unmatched), windows "
          + windows
          + "\n--- stdout\n"
          + out
          + "--- stderr\n"
          + err;
    }
  }

  private final Predicate<Method> woven;
  private final List<String> wovenClasses;
  private final Set<String> threads;
  private final Map<Method, Kind> kinds = new HashMap<>();
  private final Map<ReferenceType, Integer> origins = new HashMap<>();
  private final Map<ThreadReference, Followed> followed = new HashMap<>();
  private final Set<Location> openingBreakpoints = new HashSet<>();
  private final Recording recording = new Recording();

  /** The last window of each opening. */
  private final Map<String, Window> lastWindows = new HashMap<>();

  /**
   * @param woven which methods are woven limited methods of the fixture
   * @param wovenClasses the classes that hold them, as class prepare filters ({@code a.B*})
   * @param threads the names of the fixture's threads to record besides its main thread
   */
  PathRecorder(Predicate<Method> woven, List<String> wovenClasses, Set<String> threads) {
    this.woven = woven;
    this.wovenClasses = wovenClasses;
    this.threads = threads;
  }

  /**
   * Runs {@code main} with the given JVM options (the agent's among them) and the fixtures' class
   * path followed by {@code extraClassPath}, under the debugger, and records.
   *
   * @param timeoutSeconds the longest the whole run may take
   */
  Recording run(
      String jdk,
      List<String> jvmOptions,
      String extraClassPath,
      String main,
      long timeoutSeconds,
      String... args)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(jdk + File.separator + "bin" + File.separator + "java");
    command.add("-Xshare:auto");
    command.add("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(
        ForkedJvm.FIXTURES
            + File.pathSeparator
            + ForkedJvm.ANNOTATIONS_JAR
            + (extraClassPath.isEmpty() ? "" : File.pathSeparator + extraClassPath));
    command.add(main);
    command.addAll(List.of(args));
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    Process process = new ProcessBuilder(command).start();
    StringBuilder out = new StringBuilder();
    StringBuilder err = new StringBuilder();
    CompletableFuture<String> port = new CompletableFuture<>();
    Thread outReader = drain(process.getInputStream(), out, port);
    Thread errReader = drain(process.getErrorStream(), err, null);
    try {
      VirtualMachine vm = attach(port.get(30, TimeUnit.SECONDS));
      record(vm, main, deadline);
      long left = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
      if (!process.waitFor(left, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command);
      }
      outReader.join(10_000);
      errReader.join(10_000);
      recording.exitCode = process.exitValue();
    } finally {
      process.destroyForcibly();
      synchronized (out) {
        recording.out = out.toString();
      }
      synchronized (err) {
        recording.err = err.toString();
      }
      recording.elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
    return recording;
  }

  /** Copies a stream into {@code into}; the JDWP line naming the port completes {@code port}. */
  private static Thread drain(
      InputStream stream, StringBuilder into, CompletableFuture<String> port) {
    Thread t =
        new Thread(
            () -> {
              String prefix = "Listening for transport dt_socket at address: ";
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  if (port != null && !port.isDone() && line.startsWith(prefix)) {
                    port.complete(line.substring(prefix.length()).trim());
                    continue;
                  }
                  synchronized (into) {
                    into.append(line).append('\n');
                  }
                }
              } catch (IOException ended) {
                // the process ended
              }
              if (port != null) {
                port.completeExceptionally(new AssertionError("no JDWP port: " + into));
              }
            },
            "path-recorder-drain");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static VirtualMachine attach(String port) throws Exception {
    AttachingConnector socket =
        Bootstrap.virtualMachineManager().attachingConnectors().stream()
            .filter(c -> c.name().equals("com.sun.jdi.SocketAttach"))
            .findFirst()
            .orElseThrow();
    Map<String, Connector.Argument> arguments = socket.defaultArguments();
    arguments.get("hostname").setValue("127.0.0.1");
    arguments.get("port").setValue(port);
    return socket.attach(arguments);
  }

  private void record(VirtualMachine vm, String main, long deadline) throws Exception {
    EventRequestManager requests = vm.eventRequestManager();
    List<String> prepared = new ArrayList<>(OPENERS);
    prepared.addAll(wovenClasses);
    prepared.add(main);
    for (String filter : prepared) {
      ClassPrepareRequest prepare = requests.createClassPrepareRequest();
      prepare.addClassFilter(filter);
      prepare.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD); // until its breakpoints are set
      prepare.enable();
    }
    for (String opener : OPENERS) {
      for (ReferenceType loaded : vm.classesByName(opener)) {
        setBreakpoints(requests, loaded, main);
      }
    }
    ThreadStartRequest started = requests.createThreadStartRequest();
    started.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
    started.enable();
    vm.resume();
    try {
      while (System.nanoTime() < deadline) {
        EventSet events = vm.eventQueue().remove(1000);
        if (events == null) {
          continue;
        }
        for (Event event : events) {
          recording.events++;
          if (event instanceof MethodEntryEvent) {
            MethodEntryEvent e = (MethodEntryEvent) event;
            Followed f = followed.get(e.thread());
            if (f != null && f.streaming) {
              entered(f, e.method());
            }
          } else if (event instanceof MethodExitEvent) {
            MethodExitEvent e = (MethodExitEvent) event;
            Followed f = followed.get(e.thread());
            if (f != null && f.streaming) {
              exited(f, e.method());
            }
          } else if (event instanceof ExceptionEvent) {
            ExceptionEvent e = (ExceptionEvent) event;
            Followed f = followed.get(e.thread());
            if (f != null && f.streaming) {
              thrown(f, e.catchLocation() == null ? null : e.catchLocation().method());
            }
          } else if (event instanceof BreakpointEvent) {
            opened(requests, (BreakpointEvent) event, main);
          } else if (event instanceof ClassPrepareEvent) {
            setBreakpoints(requests, ((ClassPrepareEvent) event).referenceType(), main);
          } else if (event instanceof ThreadStartEvent) {
            ThreadReference thread = ((ThreadStartEvent) event).thread();
            if (threads.contains(thread.name())) {
              follow(requests, thread);
            }
          } else if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
            return;
          }
        }
        events.resume();
      }
    } catch (VMDisconnectedException ended) {
      // the fixture ended
    } finally {
      for (Window last : lastWindows.values()) {
        last.found.forEach((name, by) -> recording.methods.get(name).everyCall.addAll(by));
      }
    }
  }

  /** A breakpoint at the first instruction of each method of the class that opens a window. */
  private void setBreakpoints(EventRequestManager requests, ReferenceType type, String main) {
    for (Method method : type.methods()) {
      Kind kind = kindOf(method);
      boolean isMain =
          type.name().equals(main)
              && method.name().equals("main")
              && method.signature().equals("([Ljava/lang/String;)V");
      if ((kind.opens != null || kind.woven || isMain)
          && !method.isAbstract()
          && !method.isNative()) {
        // the first instruction, not the first line's: a woven prologue comes before that
        Location first = method.locationOfCodeIndex(0);
        BreakpointRequest at = requests.createBreakpointRequest(first);
        at.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        at.enable();
        if (!isMain) {
          openingBreakpoints.add(first);
        }
      }
    }
  }

  /**
   * A method that opens a window (or main) is entered: on a followed thread outside any window, its
   * events are turned on until it returns.
   */
  private void opened(EventRequestManager requests, BreakpointEvent event, String main)
      throws IncompatibleThreadStateException {
    ThreadReference thread = event.thread();
    if (!openingBreakpoints.contains(event.location())) {
      follow(requests, thread); // main
      return;
    }
    Followed f = followed.get(thread);
    if (f == null || f.streaming) {
      return; // not the fixture's, or already seen by the events on
    }
    Method method = event.location().method();
    Method caller = thread.frameCount() > 1 ? thread.frame(1).location().method() : null;
    f.stack.clear();
    if (caller != null) {
      Kind callerKind = kindOf(caller);
      f.stack.push(new Frame(caller, callerKind, null, callerKind.name));
    }
    entered(f, method);
    f.streaming = true;
    for (EventRequest r : f.stream) {
      r.enable();
    }
  }

  /** Records the windows of {@code thread} from now on. */
  private void follow(EventRequestManager requests, ThreadReference thread) {
    Followed f = new Followed();
    MethodEntryRequest entries = requests.createMethodEntryRequest();
    MethodExitRequest exits = requests.createMethodExitRequest();
    ExceptionRequest throwing = requests.createExceptionRequest(null, true, true);
    entries.addThreadFilter(thread);
    exits.addThreadFilter(thread);
    throwing.addThreadFilter(thread);
    f.stream.add(entries);
    f.stream.add(exits);
    f.stream.add(throwing);
    for (EventRequest r : f.stream) {
      r.setSuspendPolicy(EventRequest.SUSPEND_NONE);
    }
    followed.put(thread, f);
  }

  /** The window's method has returned: its thread's events go off. */
  private void closeIfDone(Followed f) {
    if (f.stack.size() <= 1) {
      f.streaming = false;
      f.stack.clear();
      for (EventRequest r : f.stream) {
        r.disable(); // the events already on their way are dropped: streaming is off
      }
    }
  }

  private void entered(Followed f, Method method) {
    Deque<Frame> stack = f.stack;
    Kind kind = kindOf(method);
    Frame caller = stack.peek();
    Window window = caller == null ? null : caller.window;
    String opens = null;
    if (kind.opens != null && (!kind.bridge || caller == null || caller.kind.origin != Kind.WEIR)) {
      opens = kind.opens;
      if (kind.bridge && caller != null && caller.kind.woven) {
        caller.bridgeCalled = true;
      }
    } else if (caller != null
        && caller.kind.woven
        && !caller.bridgeCalled
        && (kind.origin == Kind.JDK || kind.origin == Kind.JAVA_LANG)) {
      opens = ACQUIRE; // the prologue's key
    } else if (kind.origin == Kind.APP) {
      window = null; // the application's own code
    }
    if (opens != null) {
      String opening = kind.name + " from " + (caller == null ? "?" : caller.kind.name);
      window = new Window(opens, opening);
      lastWindows.put(opening, window);
      recording.windows.merge(opens, 1, Integer::sum);
      recording.openings.merge(opening, 1, Integer::sum);
    }
    String weirCaller =
        kind.origin == Kind.WEIR || kind.woven
            ? kind.name
            : caller == null ? "?" : caller.weirCaller;
    stack.push(new Frame(method, kind, window, weirCaller));
    if (window != null && kind.origin == Kind.JDK) {
      Found found = recording.methods.computeIfAbsent(kind.name, k -> new Found());
      found.paths.add(window.path);
      found.callers.computeIfAbsent(weirCaller, c -> new TreeSet<>()).add(window.opening);
      window.found.computeIfAbsent(kind.name, k -> new TreeSet<>()).add(weirCaller);
    }
  }

  private void exited(Followed f, Method method) {
    Deque<Frame> stack = f.stack;
    if (!stack.isEmpty() && !stack.peek().method.equals(method)) {
      recording.unmatchedExits++;
      boolean below = false;
      for (Frame frame : stack) {
        below |= frame.method.equals(method);
      }
      if (!below) {
        return;
      }
      while (!stack.peek().method.equals(method)) {
        stack.pop();
      }
    }
    Frame done = stack.pop();
    if (done.kind.entersSection && !stack.isEmpty()) {
      stack.peek().window = null; // a section of Weir's own work: until its caller exits
    }
    closeIfDone(f);
  }

  /** Pops the frames an exception unwinds: those above the method that catches it. */
  private void thrown(Followed f, Method catcher) {
    recording.exceptions++;
    Deque<Frame> stack = f.stack;
    boolean caught = false;
    for (Frame frame : stack) {
      caught |= frame.method.equals(catcher);
    }
    while (!stack.isEmpty() && !(caught && stack.peek().method.equals(catcher))) {
      stack.pop();
    }
    closeIfDone(f);
  }

  private Kind kindOf(Method method) {
    Kind kind = kinds.get(method);
    if (kind == null) {
      ReferenceType type = method.declaringType();
      String owner = type.name();
      String name = owner + "#" + method.name() + method.signature();
      String opens = null;
      boolean bridge = false;
      if (owner.equals(BRIDGE)
          || owner.equals(GATE) && GATE_ENTRIES.contains(method.name())
          || owner.equals(EXCEPTION) && method.isConstructor()) {
        opens = ACQUIRE;
        bridge = true;
      } else if (owner.equals(INSTRUMENTATION) && method.name().equals("transform")) {
        opens = WEAVE;
      } else if (owner.equals(LOGGER) && method.isPublic() && method.isStatic()) {
        opens = LOG;
      }
      boolean section = owner.equals(CALL_DEPTH) && method.name().equals("enterWeir");
      kind = new Kind(name, originOf(type), opens, bridge, woven.test(method), section);
      kinds.put(method, kind);
    }
    return kind;
  }

  private int originOf(ReferenceType type) {
    Integer origin = origins.get(type);
    if (origin == null) {
      String name = type.name();
      if (name.startsWith("java.lang.")) {
        origin = Kind.JAVA_LANG;
      } else if (name.startsWith("dev.weir.agent.")
          || name.startsWith("dev.weir.") && name.indexOf('.', "dev.weir.".length()) < 0) {
        origin = Kind.WEIR;
      } else {
        ClassLoaderReference loader = type.classLoader();
        boolean jdk = loader == null || loader.referenceType().name().equals(PLATFORM_LOADER);
        // the JDK's hidden classes (a lambda's, Pattern$$Lambda$18/0x800000028): no pattern can
        // name one, and no agent can weave one; their callees count as java.lang's do
        origin = !jdk ? Kind.APP : name.indexOf('/') >= 0 ? Kind.JAVA_LANG : Kind.JDK;
      }
      origins.put(type, origin);
    }
    return origin;
  }
}
