package dev.weir.agent.weave;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The methods a config pattern may reach that Weir refuses to limit, each with the true reason
 * (docs/config-file.md, "Patterns"): {@code java.lang} and its subpackages, Weir's own classes (the
 * agent's, and the API's of package {@code dev.weir}), and exactly the JDK methods that Weir's own
 * acquire, weaving or logging path runs before it can tell that the call is its own.
 *
 * <h2>Why a method is refused, and why the rest are not</h2>
 *
 * <p>A config limit charges only calls made outside Weir: Weir's own work runs inside a section
 * ({@code CallDepth.enterWeir}), and a call made inside one passes free. What runs <em>before</em>
 * Weir can enter a section, or outside any because it is the hot path of every limited call, would
 * be charged to a limit on it, or call itself without end (the acquire of a limit on {@code
 * AtomicLongFieldUpdater#compareAndSet} would run that method's prologue again):
 *
 * <ul>
 *   <li>the acquire path: the prologue woven into a limited method and everything it calls in the
 *       bridge, the registry, the limiter and the bucket, until it returns, on every call;
 *   <li>the weaving path: what the JVM runs to hand a loading class to Weir's transformer, until
 *       the transformer's section starts;
 *   <li>the logging path: until the logger's section starts.
 * </ul>
 *
 * <p>{@link #JDK_METHODS} lists those methods, found by running each path (the test {@code
 * OwnJdkCallsIT} records every JDK method they enter, on each JDK tested, and fails when one is
 * missing here). Every other JDK method is limitable: the JDK's HTTP clients, its streams and
 * sockets, its collections (Weir's weaving uses them inside its section, where a limit charges
 * nothing).
 *
 * <p>Immutable and thread-safe.
 */
final class Unlimitable {
  private Unlimitable() {}

  /** Which path runs a method of {@link #JDK_METHODS}. */
  private static final String ACQUIRE = "acquire";

  private static final String WEAVE = "weave";

  private static final String LOG = "log";

  /**
   * The JDK methods outside {@code java.lang} that Weir's acquire, weaving or logging path runs
   * before it can tell a call is its own: {@code binary.Class#name(descriptor)} and the path (the
   * acquire path where a method is on two), sorted. The union of what {@code OwnJdkCallsIT}
   * recorded on JDK 17 and on JDK 25 (it prints the lines to add when it finds more). Most run only
   * on a path's first call: class loading and initialization, the JDK's own method handle linking
   * behind the http gate's handles; the rest on every call: the per-key table, the counters, a
   * wait, the http gate's client address.
   */
  static final String[][] JDK_METHODS = {
    {"java.util.Arrays#copyOf([BI)[B", "acquire"},
    {"java.util.Arrays#copyOfRange([BII)[B", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#addCount(JI)V", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#casTabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;ILjava/util/concurrent/ConcurrentHashMap$Node;Ljava/util/concurrent/ConcurrentHashMap$Node;)Z",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#initTable()[Ljava/util/concurrent/ConcurrentHashMap$Node;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#putVal(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#spread(I)I", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#tabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;I)Ljava/util/concurrent/ConcurrentHashMap$Node;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$Node#<init>(ILjava/lang/Object;Ljava/lang/Object;)V",
      "acquire"
    },
    {"java.util.concurrent.atomic.AtomicInteger#decrementAndGet()I", "acquire"},
    {"java.util.concurrent.atomic.AtomicInteger#incrementAndGet()I", "acquire"},
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#accessCheck(Ljava/lang/Object;)V",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#compareAndSet(Ljava/lang/Object;JJ)Z",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#lazySet(Ljava/lang/Object;J)V",
      "acquire"
    },
    {"java.util.concurrent.locks.LockSupport#unpark(Ljava/lang/Thread;)V", "acquire"},
    {"jdk.internal.loader.BootLoader#getUnnamedModule()Ljava/lang/Module;", "weave"},
    {
      "jdk.internal.loader.BuiltinClassLoader#findLoadedModule(Ljava/lang/String;)Ljdk/internal/loader/BuiltinClassLoader$LoadedModule;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClass(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClassOrNull(Ljava/lang/String;)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClassOrNull(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.ClassLoaders$AppClassLoader#loadClass(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.ClassLoaders$BootClassLoader#loadClassOrNull(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#compareAndSetInt(Ljava/lang/Object;JII)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#compareAndSetLong(Ljava/lang/Object;JJJ)Z", "acquire"},
    {
      "jdk.internal.misc.Unsafe#compareAndSetReference(Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#getAndAddInt(Ljava/lang/Object;JI)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getInt(Ljava/lang/Object;J)I", "weave"},
    {"jdk.internal.misc.Unsafe#getIntUnaligned(Ljava/lang/Object;J)I", "weave"},
    {"jdk.internal.misc.Unsafe#getIntVolatile(Ljava/lang/Object;J)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getLong(Ljava/lang/Object;J)J", "weave"},
    {"jdk.internal.misc.Unsafe#getLongUnaligned(Ljava/lang/Object;J)J", "weave"},
    {
      "jdk.internal.misc.Unsafe#getReferenceAcquire(Ljava/lang/Object;J)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.misc.Unsafe#getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#putByte(Ljava/lang/Object;JB)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putLongRelease(Ljava/lang/Object;JJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putLongVolatile(Ljava/lang/Object;JJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#unpark(Ljava/lang/Object;)V", "acquire"},
    {"jdk.internal.misc.Unsafe#weakCompareAndSetInt(Ljava/lang/Object;JII)Z", "acquire"},
    {"jdk.internal.util.ArraysSupport#hashCodeOfUnsigned([BIII)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#mismatch([BI[BII)I", "weave"},
    {"jdk.internal.util.ArraysSupport#newLength(III)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#unsignedHashCode(I[BII)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#vectorizedHashCode(Ljava/lang/Object;IIII)I", "acquire"},
    {
      "jdk.internal.util.ArraysSupport#vectorizedMismatch(Ljava/lang/Object;JLjava/lang/Object;JII)I",
      "weave"
    },
    {"jdk.internal.util.DecimalDigits#stringSize(I)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedGetCharsLatin1(II[B)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedPutCharLatin1([BII)V", "acquire"},
    {
      "jdk.internal.util.Preconditions#checkFromToIndex(IIILjava/util/function/BiFunction;)I",
      "acquire"
    },
    {"jdk.internal.util.Preconditions#checkIndex(IILjava/util/function/BiFunction;)I", "acquire"},
    {
      "sun.instrument.InstrumentationImpl#transform(Ljava/lang/Module;Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/lang/Class;Ljava/security/ProtectionDomain;[BZ)[B",
      "weave"
    },
    {
      "sun.instrument.TransformerManager#getSnapshotTransformerList()[Lsun/instrument/TransformerManager$TransformerInfo;",
      "weave"
    },
    {
      "sun.instrument.TransformerManager#transform(Ljava/lang/Module;Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/lang/Class;Ljava/security/ProtectionDomain;[B)[B",
      "weave"
    },
    {
      "sun.instrument.TransformerManager$TransformerInfo#transformer()Ljava/lang/instrument/ClassFileTransformer;",
      "weave"
    },
  };

  private static final Map<String, String> PATH_BY_METHOD = index();

  private static Map<String, String> index() {
    Map<String, String> paths = new HashMap<String, String>();
    for (String[] entry : JDK_METHODS) {
      paths.put(entry[0], entry[1]);
    }
    return Collections.unmodifiableMap(paths);
  }

  /**
   * Why Weir refuses to limit a method a config pattern matched.
   *
   * @param binaryName the method's class, {@code java.util.concurrent.atomic.LongAdder}
   * @param methodName its name
   * @param descriptor its descriptor, {@code (J)V}
   * @return the reason, for the pattern's one report line; null if the method can be limited
   */
  static String why(String binaryName, String methodName, String descriptor) {
    if (binaryName.startsWith("java.lang.")) {
      return "java.lang is the JVM's own machinery (classes, strings, threads), which Weir's"
          + " limiting, weaving and logging run on";
    }
    if (isWeirs(binaryName)) {
      return "it is part of Weir";
    }
    String path = PATH_BY_METHOD.get(binaryName + "#" + methodName + descriptor);
    if (path == null) {
      return null;
    }
    if (path.equals(ACQUIRE)) {
      return "Weir's acquire path runs it on limited calls before it can tell the call is its"
          + " own, so a limit there would limit Weir itself";
    }
    if (path.equals(WEAVE)) {
      return "the JVM runs it to hand each loading class to Weir, before Weir can tell the call is"
          + " its own";
    }
    return "Weir's logging runs it before it can tell the call is its own";
  }

  /**
   * Whether a class is Weir's own: the agent's ({@code dev.weir.agent} and below, the libraries it
   * carries relocated there included) or the API's ({@code dev.weir} itself). Other packages under
   * {@code dev.weir} (Weir's examples and tests) are applications like any other.
   */
  static boolean isWeirs(String binaryName) {
    return binaryName.startsWith("dev.weir.agent.")
        || binaryName.startsWith("dev.weir.") && binaryName.indexOf('.', "dev.weir.".length()) < 0;
  }

  /**
   * The methods of {@link #JDK_METHODS}, for tests.
   *
   * @return {@code binary.Class#name(descriptor)} of each
   */
  static java.util.List<String> jdkMethods() {
    String[] names = new String[JDK_METHODS.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = JDK_METHODS[i][0];
    }
    return Collections.unmodifiableList(Arrays.asList(names));
  }
}
