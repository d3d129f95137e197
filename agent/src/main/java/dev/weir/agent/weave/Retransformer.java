package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.control.ClassFiles;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Has the JVM weave again classes that are loaded already (retransformation), through the {@link
 * WeirTransformer} it calls for each: at an attach, the loaded classes the limits name or that
 * mention a limit; at JVM start, the JDK classes the patterns name; after a reload, those the old
 * or the new patterns may match; and, whenever they are found, the ancestors that subtypes of a
 * {@code Type+} pattern's type inherit implementations from. Classes go in batches of {@value
 * #BATCH}; a batch that fails is retried class by class, so one failure leaves the others woven,
 * and what the coverage record staged for each class is applied once the JVM takes it.
 *
 * <p>Thread-safe; a call blocks while the JVM retransforms. Never throws for a class that cannot be
 * retransformed (it is logged, and keeps its old code).
 */
final class Retransformer {
  /** The most classes handed to the JVM in one call. */
  static final int BATCH = 500;

  /** The transformer the JVM calls: its limits now, and its weaver's coverage record. */
  private final WeirTransformer transformer;

  /** Whether a thread of Weir's is weaving ancestors again ({@link #weaveAncestorsLater}). */
  private final AtomicBoolean ancestorsScheduled = new AtomicBoolean();

  /**
   * Creates the retransformer of a transformer.
   *
   * @param transformer the transformer the JVM calls for the classes retransformed
   */
  Retransformer(WeirTransformer transformer) {
    this.transformer = transformer;
  }

  /**
   * Retransforms, in batches, the loaded classes the patterns may match (the current ones, and
   * {@code previous} unless null), and with {@code scanAnnotations} those that mention a limit;
   * then the pending ancestors ({@link #retransformPendingAncestors}).
   *
   * @param instrumentation the JVM's instrumentation
   * @param scanAnnotations whether to look for annotated classes too, not only for classes the
   *     patterns name
   * @param previous the limits before a reload, or null
   * @return the number of classes retransformed
   */
  int retransformWhere(
      Instrumentation instrumentation, boolean scanAnnotations, ConfigLimits previous) {
    ConfigLimits limits = transformer.config();
    List<Class<?>> batch = new ArrayList<Class<?>>();
    int count = 0;
    Class<?>[] loaded = instrumentation.getAllLoadedClasses();
    // a Type+ type not loaded yet has no loaded subtype: no walk up each loaded class's ancestors
    boolean subtypes = limits.anyRootAmong(loaded);
    boolean previousSubtypes = previous != null && previous.anyRootAmong(loaded);
    for (Class<?> type : loaded) {
      if (type.isArray() || type.isPrimitive()) {
        continue;
      }
      limits.noteLoadedName(type); // a Type+ subtype loading later gains an override instead
      if (!instrumentation.isModifiableClass(type)) {
        continue;
      }
      String internalName = type.getName().replace('.', '/');
      if (internalName.startsWith(WeirTransformer.OWN_PREFIX)) {
        continue;
      }
      boolean candidate =
          patternsMayMatch(limits, subtypes, type)
              || previous != null && patternsMayMatch(previous, previousSubtypes, type);
      if (!candidate && scanAnnotations && !WeirTransformer.isSkipped(internalName)) {
        byte[] classFile = ClassFiles.read(type.getClassLoader(), internalName);
        candidate = classFile == null || WeirTransformer.mentionsLimit(internalName, classFile);
      }
      if (candidate) {
        batch.add(type);
        count++;
      }
      if (batch.size() == BATCH) {
        retransform(instrumentation, batch);
      }
    }
    retransform(instrumentation, batch);
    return count + retransformPendingAncestors(instrumentation, null);
  }

  private static boolean patternsMayMatch(ConfigLimits limits, boolean subtypes, Class<?> type) {
    return limits.hasPatterns()
        && (subtypes && limits.noteLoaded(type)
            || limits.mayMatchType(type.getName(), type.getClassLoader()));
  }

  /**
   * Retransforms the loaded classes of the ancestors that subtypes of a {@code Type+} pattern's
   * type were found to inherit implementations from, since the last time: their methods are then
   * limited in place for instances of the type ({@link ConfigLimits#inheritFrom}). An ancestor not
   * loaded yet is woven when it loads.
   *
   * @param instrumentation the JVM's instrumentation
   * @param loaded the loaded classes, or null to ask the JVM
   * @return the number of classes retransformed
   */
  int retransformPendingAncestors(Instrumentation instrumentation, Class<?>[] loaded) {
    int count = 0;
    for (Set<String> names = transformer.config().takePendingAncestors();
        !names.isEmpty();
        names = transformer.config().takePendingAncestors()) {
      Class<?>[] all = loaded != null ? loaded : instrumentation.getAllLoadedClasses();
      loaded = null; // a second round (ancestors found while weaving these) looks again
      List<Class<?>> batch = new ArrayList<Class<?>>();
      for (Class<?> type : all) {
        if (names.contains(type.getName()) && instrumentation.isModifiableClass(type)) {
          batch.add(type);
          count++;
        }
        if (batch.size() == BATCH) {
          retransform(instrumentation, batch);
        }
      }
      retransform(instrumentation, batch);
    }
    return count;
  }

  /**
   * {@link #retransformPendingAncestors} on a thread of Weir's: from a class being loaded, whose
   * ancestor is loaded already, the JVM cannot retransform. Does nothing if such a thread is at it
   * already; it looks again before it ends.
   *
   * @param inst the JVM's instrumentation, retransformation-capable for the transformer
   */
  void weaveAncestorsLater(final Instrumentation inst) {
    if (!ancestorsScheduled.compareAndSet(false, true)) {
      return;
    }
    AgentThreads.start(
        new Runnable() {
          @Override
          public void run() {
            try {
              do {
                retransformPendingAncestors(inst, null);
                ancestorsScheduled.set(false);
              } while (transformer.config().hasPendingAncestors()
                  && ancestorsScheduled.compareAndSet(false, true));
            } catch (Throwable t) {
              ancestorsScheduled.set(false);
              AgentLog.error("could not weave the ancestors of a Type+ pattern's subtypes: " + t);
            }
          }
        },
        "weir-ancestors");
  }

  /**
   * Retransforms the classes, in one call; if that fails, one by one, so that one failure leaves
   * the others woven. What the coverage record staged for each is applied once the JVM takes it.
   */
  private void retransform(Instrumentation instrumentation, List<Class<?>> batch) {
    if (batch.isEmpty()) {
      return;
    }
    Coverage coverage = transformer.coverage();
    Class<?>[] classes = batch.toArray(new Class<?>[0]);
    try {
      instrumentation.retransformClasses(classes);
      coverage.commit(classes);
    } catch (Throwable batchFailed) {
      for (Class<?> type : classes) {
        try {
          instrumentation.retransformClasses(type);
          coverage.commit(type);
        } catch (Throwable t) {
          coverage.discard(type);
          AgentLog.error(
              "could not retransform " + type.getName() + " (it keeps its old code): " + t);
        }
      }
    }
    batch.clear();
  }
}
