package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.CallDepth;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The class file transformer the agent installs: a cheap filter in front of the {@link Weaver}.
 *
 * <p>Most classes never mention Weir. For each class the JVM loads, this transformer first skips
 * {@code java.*} and the agent's own packages by name, then scans the raw class bytes for the
 * descriptors {@code Ldev/weir/TokenBucket;} and {@code Ldev/weir/LeakyBucket;} (an annotated
 * method's class has them in its constant pool). Only a class that passes both is handed to the
 * weaver, which is itself loaded only when the first such class appears. A scan of a few kilobytes
 * costs microseconds; a full parse costs far more, and annotation matching is the known start-up
 * cost of agents.
 *
 * <p>Never throws. A class whose limits cannot be woven (its constant pool is full, say) fails to
 * load ({@code ClassFormatError}) with an error line naming it, rather than run with its limits
 * off. A class whose thread's stack overflows while it is being woven is woven again on a thread of
 * Weir's with a whole stack. Any other failure is logged with the class name, and the class loads
 * unwoven. Thread-safe.
 */
final class WeirTransformer implements ClassFileTransformer {
  private static final String MARKER_PREFIX = "Ldev/weir/";

  /** {@code java.*} cannot be defined by applications; the agent never weaves itself. */
  private static final String[] SKIPPED_PREFIXES = {"java/", "dev/weir/agent/"};

  static final String OWN_PREFIX = "dev/weir/agent/";

  private final Callable<Weaver> weaverFactory;

  /** The config file's limits: replaced by a reload. */
  private volatile ConfigLimits config;

  private final ModuleEdges modules;

  /** Has the JVM weave loaded classes again, through this transformer. */
  private final Retransformer retransformer = new Retransformer(this);

  /** Per thread: 1 while this transformer weaves on it (a plain cell, cleared without a call). */
  private static final ThreadLocal<int[]> TRANSFORMING =
      new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
          return new int[1];
        }
      };

  /** While an attach retransforms the loaded classes: the names of those woven. */
  private volatile Set<String> wovenNames;

  private volatile Weaver weaver;

  /** Whether the JVM resolves natives renamed with {@link Weaver#MOVED_PREFIX}. */
  private volatile boolean nativePrefix;

  /** Whether the JVM calls this transformer when classes are retransformed. */
  private volatile boolean retransforms;

  /**
   * Set once a retransformation-capable registration has taken over from this one, which was
   * registered without ({@link #becomeRetransforming}): this registration then does nothing.
   */
  private volatile boolean handedOver;

  /** A class whose loading is awaited (the application's log manager), or null. */
  private volatile String watched;

  /** Whether {@link #watched} has loaded. */
  private volatile boolean watchedSeen;

  /** Told once, after the first class is woven with a limit; null if none is to be. */
  private volatile Runnable firstWoven;

  /** Whether a class was woven with a limit. */
  private volatile boolean woven;

  private final Object firstWovenLock = new Object();

  /**
   * Creates the transformer.
   *
   * @param weaverFactory builds the weaver, called once, when the first class to weave appears
   */
  WeirTransformer(Callable<Weaver> weaverFactory) {
    this(weaverFactory, ConfigLimits.NONE, null);
  }

  /**
   * Creates the transformer.
   *
   * @param weaverFactory builds the weaver, called once, when the first class to weave appears
   * @param config the config file's limits, whose method patterns name more candidate classes
   * @param modules adds module read edges for woven classes of named modules; null on Java 8
   */
  WeirTransformer(Callable<Weaver> weaverFactory, ConfigLimits config, ModuleEdges modules) {
    this.weaverFactory = weaverFactory;
    this.config = config;
    this.modules = modules;
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile) {
    if (handedOver) {
      return null;
    }
    return transformAny(loader, internalName, classBeingRedefined, classFile);
  }

  /**
   * Records how the transformer was registered.
   *
   * @param canRetransform whether the JVM calls it when classes are retransformed
   * @param instrumentation the JVM's instrumentation
   */
  void installed(boolean canRetransform, Instrumentation instrumentation) {
    retransforms = canRetransform;
    this.instrumentation = instrumentation;
  }

  /** The JVM's instrumentation, once installed; for weaving ancestors again. */
  private volatile Instrumentation instrumentation;

  /**
   * The JVM's loaded classes, for reports.
   *
   * @return the classes; null before the transformer is installed
   */
  Class<?>[] loadedClasses() {
    Instrumentation inst = instrumentation;
    return inst == null ? null : inst.getAllLoadedClasses();
  }

  /**
   * The loaded classes, indexed for the hints of patterns that matched nothing ({@link NearMatch}):
   * made at most once a second, so that the {@code Unlimited} of ten thousand limiters, read one
   * after another, cost one look at the loaded classes, not one each.
   *
   * @return the index; null before the transformer is installed
   */
  NearMatch.Loaded loadedIndex() {
    Instrumentation inst = instrumentation;
    if (inst == null) {
      return null;
    }
    long now = System.nanoTime();
    NearMatch.Loaded index = loadedIndex;
    if (index == null || now - loadedIndexNanos > 1_000_000_000L) {
      index = NearMatch.index(inst.getAllLoadedClasses());
      loadedIndexNanos = now;
      loadedIndex = index;
    }
    return index;
  }

  /** The last {@link #loadedIndex()}, and when it was made ({@code System.nanoTime()}). */
  private volatile NearMatch.Loaded loadedIndex;

  private volatile long loadedIndexNanos;

  /** In tests without instrumentation: which classes are loaded; null to ask the JVM. */
  private volatile LoadedNames loadedNames;

  /**
   * Tells the weaver, before it is built, which classes are loaded (tests without the JVM's
   * instrumentation).
   *
   * @param names the answer
   */
  void loadedNames(LoadedNames names) {
    loadedNames = names;
  }

  /**
   * Whether the JVM calls this transformer when classes are retransformed.
   *
   * @return true if it does
   */
  boolean retransforms() {
    return retransforms;
  }

  /**
   * Registers this transformer's weaving again, retransformation-capable, for a reload that brings
   * the first config patterns to an agent started without any (start-up is cheaper without). The
   * old registration does nothing from then on. A class woven at load by the old registration is
   * handed to the new one already woven, on load and on retransformation: it is left as it is (its
   * annotations are woven; a new pattern does not reach it until the JVM restarts, which is
   * reported).
   *
   * @param instrumentation the JVM's instrumentation
   */
  synchronized void becomeRetransforming(Instrumentation instrumentation) {
    ClassFileTransformer capable =
        new ClassFileTransformer() {
          @Override
          public byte[] transform(
              ClassLoader loader,
              String internalName,
              Class<?> classBeingRedefined,
              ProtectionDomain protectionDomain,
              byte[] classFile) {
            if (classFile != null && contains(classFile, BRIDGE)) {
              if (classBeingRedefined != null
                  && config.mayMatchType(classBeingRedefined.getName(), loader)) {
                AgentLog.warn(
                    "cannot weave "
                        + classBeingRedefined.getName()
                        + " again for the reloaded config: it was woven when it loaded, before any"
                        + " config pattern; new patterns reach its methods after a restart");
              }
              return null; // woven by the first registration, during the hand-over or at load
            }
            return transformAny(loader, internalName, classBeingRedefined, classFile);
          }
        };
    instrumentation.addTransformer(capable, true);
    if (nativePrefix) {
      instrumentation.setNativeMethodPrefix(capable, Weaver.MOVED_PREFIX);
    }
    handedOver = true;
    retransforms = true;
  }

  /** A name every woven class's constant pool holds, and no other class's. */
  private static final String BRIDGE = "dev/weir/agent/bootstrap/limit/WeirBridge";

  /** Whether a class file holds these characters (a name in its constant pool, say). */
  static boolean contains(byte[] classFile, String name) {
    return new String(classFile, 0, classFile.length, StandardCharsets.ISO_8859_1).contains(name);
  }

  /**
   * Forgets what was noted of classes of collected class loaders, and of limiters dropped.
   *
   * @param loaderIds the numbers of the collected loaders
   * @param limiterIds the ids freed
   */
  void forget(Set<Integer> loaderIds, Set<Integer> limiterIds) {
    config.forgetLoaders(loaderIds);
    Weaver w = weaver;
    if (w != null) {
      w.forget(loaderIds, limiterIds);
    }
  }

  /**
   * Whether the servlet API has loaded ({@code javax.servlet.Servlet} or {@code
   * jakarta.servlet.Servlet}): until then no request can reach a limited method, and the task of
   * {@link #onFirstWoven} waits. A JVM that serves no servlet never gets the gate, nor the
   * retransformation-capable transformer and the look over its loaded classes that come with it.
   */
  private volatile boolean servletApiSeen;

  /** Notes the servlet API's loading; runs the task a first limit left waiting for it. */
  private void noteServletApi(String internalName) {
    if (servletApiSeen
        || internalName == null
        || !(internalName.equals("javax/servlet/Servlet")
            || internalName.equals("jakarta/servlet/Servlet"))) {
      return;
    }
    servletApiSeen = true;
    if (woven) {
      firstClassWoven();
    }
  }

  /**
   * Takes the servlet API as loaded (an attach, whose loaded classes the gate looks over anyway).
   */
  void servletApiMayBeLoaded() {
    servletApiSeen = true;
  }

  private byte[] transformAny(
      ClassLoader loader, String internalName, Class<?> classBeingRedefined, byte[] classFile) {
    noteServletApi(internalName);
    try {
      if (!config.hasPatterns()) {
        // no config limit could charge the agent's own work, so no section: a class load costs
        // the application's threads no thread-local of Weir's (two fields read, nothing called)
        return transformNoted(loader, internalName, classBeingRedefined, classFile);
      }
      // first of all, before any call a config limit could name: the agent's own work is never
      // charged (only java.lang runs before this, which no limit may name)
      int[] section = CallDepth.enterWeir();
      try {
        return transformNoted(loader, internalName, classBeingRedefined, classFile);
      } finally {
        section[0]--; // a plain store: no StackOverflowError can skip it
      }
    } catch (StackOverflowError e) {
      // a class loading at the edge of its thread's stack: weave it on a thread of Weir's
      try {
        return transformElsewhere(loader, internalName, classBeingRedefined, classFile);
      } catch (StackOverflowError again) {
        // not even that fits: no call can be made here, not even to log; the next class that
        // loads reports it. The class may have no limit, so it is not made to fail to load
        unwovenOnOverflow = internalName;
        return null;
      }
    }
  }

  /** Reports a class left unwoven before, notes the watched class, and transforms. */
  private byte[] transformNoted(
      ClassLoader loader, String internalName, Class<?> classBeingRedefined, byte[] classFile) {
    if (unwovenOnOverflow != null) {
      reportUnwovenOnOverflow();
    }
    String w = watched;
    if (w != null && w.equals(internalName)) {
      watchedSeen = true;
      watched = null;
    }
    return transformOwn(loader, internalName, classBeingRedefined, classFile);
  }

  /**
   * Notices when the class of this internal name loads, from now on.
   *
   * @param internalName the class's internal name
   */
  void watchFor(String internalName) {
    watched = internalName;
  }

  /**
   * Whether the watched class has been seen loading.
   *
   * @return true if it was seen
   */
  boolean sawWatched() {
    return watchedSeen;
  }

  /** Records that the watched class is loaded (found among the loaded classes). */
  void markSeen() {
    watchedSeen = true;
    watched = null;
  }

  /**
   * The last class that loaded unwoven because its thread's stack overflowed twice, first while it
   * was being woven, then while a thread of Weir's was being asked to weave it; reported once.
   */
  private static volatile String unwovenOnOverflow;

  private static void reportUnwovenOnOverflow() {
    String name = unwovenOnOverflow;
    unwovenOnOverflow = null;
    if (name != null) {
      AgentLog.error(
          "could not weave "
              + name.replace('/', '.')
              + ": it loaded on a thread whose stack was exhausted, too far even to hand it to a"
              + " thread of Weir's; if it has limits, they are off until it loads again");
    }
  }

  /**
   * Transforms on a new thread of Weir's, with a whole stack of its own, and waits for it (10 s at
   * most): for a class that loads on a thread whose stack overflowed while it was being woven. If
   * that fails too, the class fails to load rather than run with its limits off.
   */
  private byte[] transformElsewhere(
      final ClassLoader loader,
      final String internalName,
      final Class<?> classBeingRedefined,
      final byte[] classFile) {
    final byte[][] result = new byte[1][];
    final Throwable[] failure = new Throwable[1];
    final CountDownLatch done = new CountDownLatch(1);
    try {
      AgentThreads.start(
          new Runnable() {
            @Override
            public void run() {
              try {
                result[0] = transformOwn(loader, internalName, classBeingRedefined, classFile);
              } catch (Throwable t) {
                failure[0] = t;
              } finally {
                done.countDown();
              }
            }
          },
          "weir-weaver");
      if (done.await(10, TimeUnit.SECONDS) && failure[0] == null) {
        return result[0];
      }
    } catch (Throwable t) {
      failure[0] = t;
    }
    return unloadable(
        internalName,
        "its stack overflowed while it was woven, and a thread of Weir's could not weave it ("
            + (failure[0] == null ? "it took over 10 s" : failure[0].toString())
            + ")");
  }

  /**
   * Bytes the JVM refuses to define ({@code ClassFormatError}): a class whose limits cannot be
   * woven fails to load rather than run with them off. Loading it again (on a thread with more
   * stack, say) weaves it anew.
   */
  static byte[] unloadable(String internalName, String why) {
    try {
      AgentLog.error(
          "cannot weave "
              + internalName.replace('/', '.')
              + ": "
              + why
              + "; it fails to load (ClassFormatError) rather than run with its limits off");
    } catch (Throwable cannotLog) {
      // the class fails to load all the same
    }
    return new byte[4]; // magic 0: "Incompatible magic value"
  }

  private byte[] transformOwn(
      ClassLoader loader, String internalName, Class<?> classBeingRedefined, byte[] classFile) {
    if (!isCandidate(internalName, classFile, loader)
        && !(classBeingRedefined != null && keepsAShape(loader, internalName))) {
      return null;
    }
    int[] transforming = TRANSFORMING.get();
    if (transforming[0] != 0) {
      AgentLog.error(
          "could not limit "
              + internalName.replace('/', '.')
              + ": it loaded while the agent was weaving another class (the agent itself uses it);"
              + " it runs unlimited");
      return null;
    }
    transforming[0] = 1;
    byte[] result;
    try {
      result = weaver().weave(loader, internalName, classFile, classBeingRedefined != null);
      if (classBeingRedefined == null && config.hasPendingAncestors()) {
        weaveAncestorsLater(); // a class loading: the JVM cannot retransform from in here
      }
      if (result != null) {
        if (modules != null) {
          modules.assureReadsBridge(classBeingRedefined, loader, internalName);
        }
        Set<String> names = wovenNames;
        if (names != null) {
          names.add(internalName);
        }
      }
    } catch (Weaver.LimitsNotWoven e) {
      return unloadable(internalName, e.getMessage());
    } catch (StackOverflowError e) {
      throw e; // woven again on a thread of Weir's
    } catch (Throwable t) {
      AgentLog.error(
          "could not weave "
              + internalName.replace('/', '.')
              + " (it loads unwoven, its limits are off): "
              + t);
      return null;
    } finally {
      transforming[0] = 0; // a plain store: no StackOverflowError can skip it
    }
    if (result != null && !woven) {
      firstClassWoven();
    }
    return result;
  }

  /**
   * Whether a class has been woven with a limit, annotated or from the config: a method that may
   * throw {@code RateLimitedException} exists.
   *
   * @return true once one has
   */
  boolean hasWoven() {
    return woven;
  }

  /**
   * Sets what is told, once, after the first class is woven with a limit (on the thread that wove
   * it, perhaps inside a class file transformer, with this transformer's own weaving over); told at
   * once if one was woven already.
   *
   * @param task what to do; must return quickly
   */
  void onFirstWoven(Runnable task) {
    firstWoven = task;
    if (woven) {
      firstClassWoven();
    }
  }

  private void firstClassWoven() {
    Runnable task;
    synchronized (firstWovenLock) {
      woven = true;
      if (!servletApiSeen) {
        return; // no servlet can serve yet: the task waits for the servlet API to load
      }
      task = firstWoven;
      firstWoven = null;
    }
    if (task != null) {
      task.run();
    }
  }

  /**
   * Retransforms the classes loaded before the agent started (attach) that mention a limit. A class
   * whose file its loader serves as a resource is scanned first; a class whose file it does not
   * serve (one defined from bytes, say) is retransformed so that the scan sees the bytes the JVM
   * holds. Classes go in batches; a batch that fails is retried class by class, so one failure
   * leaves the others woven.
   *
   * @param instrumentation the JVM's instrumentation
   * @param scanAnnotations whether to look for annotated classes too (at attach), not only for
   *     classes the config file's patterns name (at JVM start, JDK classes loaded already)
   * @return the number of classes woven
   */
  int retransformLoaded(Instrumentation instrumentation, boolean scanAnnotations) {
    Set<String> names = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
    wovenNames = names;
    retransformer.retransformWhere(instrumentation, scanAnnotations, null);
    wovenNames = null;
    return names.size();
  }

  /**
   * Weaves the pending ancestors on a thread of Weir's ({@link Retransformer#weaveAncestorsLater}),
   * once installed retransformation-capable.
   */
  private void weaveAncestorsLater() {
    Instrumentation inst = instrumentation;
    if (inst != null && retransforms) {
      retransformer.weaveAncestorsLater(inst);
    }
  }

  /**
   * After a reload whose patterns changed: retransforms the loaded classes the old or the new
   * patterns may match, so that they follow the new limits.
   *
   * @param instrumentation the JVM's instrumentation
   * @param previous the limits before the reload
   * @return the number of classes retransformed
   */
  int retransformForReload(Instrumentation instrumentation, ConfigLimits previous) {
    return retransformer.retransformWhere(instrumentation, false, previous);
  }

  /**
   * What each limiter limits now, method by method.
   *
   * @return the record; empty until a class is woven
   */
  Coverage coverage() {
    Weaver w = weaver;
    return w != null ? w.coverage() : NO_COVERAGE;
  }

  private static final Coverage NO_COVERAGE = new Coverage();

  /**
   * Whether the class mentions a limit, or a config pattern may name it: by its name, or as a
   * subtype of a {@code Type+} pattern's type (read from its constant pool, and remembered).
   */
  boolean isCandidate(String internalName, byte[] classFile, ClassLoader loader) {
    if (mentionsLimit(internalName, classFile)) {
      return true;
    }
    ConfigLimits limits = config;
    if (internalName == null || !limits.hasPatterns() || internalName.startsWith(OWN_PREFIX)) {
      return false;
    }
    boolean subtype =
        limits.hasSubtypePatterns()
            && classFile != null
            && limits.noteSupertypes(internalName, ClassHeader.supertypes(classFile), loader);
    return subtype || limits.mayMatchType(internalName.replace('/', '.'), loader);
  }

  /**
   * Whether the class gained methods when it loaded (an override, a moved body), which it must keep
   * when it is retransformed, limited or not.
   */
  private boolean keepsAShape(ClassLoader loader, String internalName) {
    Weaver w = weaver;
    return w != null && w.changedShapeAtLoad(loader, internalName);
  }

  static boolean mentionsLimit(String internalName, byte[] classFile) {
    if (internalName == null || classFile == null || isSkipped(internalName)) {
      return false;
    }
    // One pass for both annotations, through String.indexOf: compiled (vectorised) early in
    // every JVM's life, where a byte loop of our own would run interpreted during start-up.
    String text = new String(classFile, 0, classFile.length, StandardCharsets.ISO_8859_1);
    for (int at = text.indexOf(MARKER_PREFIX); at >= 0; at = text.indexOf(MARKER_PREFIX, at + 1)) {
      int end = text.indexOf(';', at);
      if (end > 0 && end - at < 80 && ClassModel.mentionsLimit(text.substring(at, end + 1))) {
        return true; // a limit, repeated ones' container, or an API type newer than the agent
      }
    }
    return false;
  }

  static boolean isSkipped(String internalName) {
    for (String prefix : SKIPPED_PREFIXES) {
      if (internalName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Builds and warms up the weaver now, on the calling thread, before this transformer is
   * installed: what the weaver loads for itself is then loaded before any class can be woven.
   */
  void prepareNow() {
    try {
      weaver().warmUp();
    } catch (Exception e) {
      AgentLog.error("could not prepare the weaver: " + e);
    }
  }

  /**
   * The JVM now resolves native methods renamed with {@link Weaver#MOVED_PREFIX}, the native method
   * prefix registered for this transformer: native methods of classes that load from now on can be
   * limited through a wrapper.
   */
  /**
   * Replaces the config file's limits (a reload): classes woven from now on, retransformed ones
   * included, follow {@code next}.
   *
   * @param next the new limits
   */
  synchronized void setConfig(ConfigLimits next) {
    config = next;
    Weaver w = weaver;
    if (w != null) {
      w.setConfig(next);
    }
  }

  /**
   * The config file's limits now.
   *
   * @return the limits
   */
  ConfigLimits config() {
    return config;
  }

  void nativePrefixSet() {
    nativePrefix = true;
    Weaver w = weaver; // volatile write, then read: the weaver's creation sees one or the other
    if (w != null) {
      w.nativePrefixSet();
    }
  }

  private Weaver weaver() throws Exception {
    Weaver w = weaver;
    if (w == null) {
      synchronized (this) {
        w = weaver;
        if (w == null) {
          w = weaverFactory.call();
          w.setConfig(config);
          w.setLoadedNames(
              loadedNames != null
                  ? loadedNames
                  : new LoadedNames() {
                    @Override
                    public boolean mayBeLoaded(ClassLoader loader, String internalName) {
                      return config.mayBeLoaded(internalName);
                    }
                  });
          weaver = w;
          if (nativePrefix) {
            w.nativePrefixSet();
          }
        }
      }
    }
    return w;
  }
}
