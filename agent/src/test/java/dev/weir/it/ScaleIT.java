package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ten thousand config limits cost ten times what a thousand cost, not a hundred (SPEC
 * "Observability": one MBean per limiter within its bound "with 10,000 limiters as with one"). Each
 * run generates its classes and its file: for N entries, N/10 classes of ten methods, the
 * interfaces of the {@code Type+} entries and two implementations each; 70% of the entries name one
 * method of one class, 15% are {@code Type+}, 10% {@code http}, five are wildcards that reach
 * hundreds of classes, and the rest name classes that never load. The fixture loads every class
 * (each is woven), waits for every MBean, reloads a second version of the file (every rate changed,
 * one entry in a hundred renamed) and reads every {@code Methods} and {@code Unlimited}.
 *
 * <p>Each step is timed in CPU time on the thread that does it, which a loaded machine stretches
 * far less than wall time: with ten times the entries (and the classes they name), no step may cost
 * more than {@value #MOST_TIMES} times as much (linear costs 10 or less; one check of every pattern
 * per class, or a walk over every limiter per limiter, costs 100). The SPEC's wall-clock bound on
 * the MBeans is asserted too when the machine has a core to spare (its load average, read before
 * the run, is below its cores less one), as the SPEC says; otherwise it is only printed.
 */
class ScaleIT {
  private static final String MANY_LIMITS = "dev.weir.it.fixtures.ManyLimits";

  /** The most a step of ten times the entries may cost, in times the smaller run's. */
  private static final double MOST_TIMES = 25;

  /** Implementations of each {@code Type+} entry's interface. */
  private static final int IMPLEMENTATIONS = 2;

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void tenThousandLimitsCostTenTimesAThousand(String jdk) throws Exception {
    Run small = run(jdk, 1_000);
    Run large = run(jdk, 10_000);
    System.out.println("[ScaleIT] " + jdk + "\n  " + small + "\n  " + large);
    for (String step : new String[] {"load", "reload", "methods", "management"}) {
      double ratio = (double) large.cpuMillis(step) / Math.max(1, small.cpuMillis(step));
      assertTrue(
          ratio <= MOST_TIMES,
          step
              + ": 10,000 entries cost "
              + ratio
              + " times 1,000 entries' CPU time (at most "
              + MOST_TIMES
              + ")\n"
              + small
              + "\n"
              + large);
    }
    double premain = (double) large.mainCpuMillis / Math.max(1, small.mainCpuMillis);
    assertTrue(premain <= 10, "main is reached after " + premain + " times the CPU\n" + large);
  }

  /** What one forked JVM did with {@code entries} config limits. */
  private static final class Run {
    final int entries;
    final Result result;
    final long mainCpuMillis;
    final long mainAfterLaunchMillis;
    final long mbeansAfterMainMillis;
    final long mbeansAfterJvmStartMillis;
    final boolean coreToSpare;

    Run(int entries, Result result, long launchedAt, boolean coreToSpare) {
      this.entries = entries;
      this.result = result;
      this.coreToSpare = coreToSpare;
      mainCpuMillis = result.longValue("main.cpuMillis");
      long mainAt = result.longValue("main.epochMillis");
      long visibleAt = result.longValue("mbeans.epochMillis");
      mainAfterLaunchMillis = mainAt - launchedAt;
      mbeansAfterMainMillis = visibleAt - mainAt;
      mbeansAfterJvmStartMillis = visibleAt - result.longValue("jvmStart.epochMillis");
    }

    long cpuMillis(String step) {
      return result.longValue(step + ".cpuMillis");
    }

    @Override
    public String toString() {
      return String.format(
          "%,d entries: main %d ms after launch (%d ms CPU); MBeans visible %d ms after main, %d"
              + " ms after the JVM started%s; CPU ms: loading the classes %d, registering the"
              + " MBeans %d (weir-management), a reload %d, every Methods and Unlimited %d",
          entries,
          mainAfterLaunchMillis,
          mainCpuMillis,
          mbeansAfterMainMillis,
          mbeansAfterJvmStartMillis,
          coreToSpare ? "" : " (no core to spare: the SPEC's bound not asserted)",
          cpuMillis("load"),
          cpuMillis("management"),
          cpuMillis("reload"),
          cpuMillis("methods"));
    }
  }

  private static Run run(String jdk, int entries) throws IOException {
    int classes = entries / 10;
    int interfaces = (entries * 3 / 20 + 9) / 10;
    Path classDir = Files.createTempDirectory("weir-scale");
    try {
      generateClasses(classDir, classes, interfaces);
      Path config = ForkedJvm.configFile(config(entries, interfaces, false));
      Path next = ForkedJvm.configFile(config(entries, interfaces, true));
      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      boolean coreToSpare = load >= 0 && load < Runtime.getRuntime().availableProcessors() - 1;
      long launchedAt = System.currentTimeMillis();
      Result r =
          ForkedJvm.runWithClassPath(
              jdk,
              List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
              classDir.toString(),
              MANY_LIMITS,
              String.valueOf(classes),
              String.valueOf(interfaces),
              String.valueOf(IMPLEMENTATIONS),
              String.valueOf(entries),
              config.toString(),
              next.toString());
      r.assertExit(0);
      assertEquals("admitted,limited", r.value("exact"), r::toString);
      assertEquals("admitted,limited", r.value("subtype"), r::toString);
      assertEquals("admitted,limited", r.value("wildcard"), r::toString);
      assertEquals(entries, r.longValue("mbeans.count"), "one MBean per limiter\n" + r);
      assertTrue(r.longValue("reload.lines") >= entries - 3, "every rate changed\n" + r);
      assertTrue(r.longValue("methods.count") >= entries * 7 / 10, r::toString);
      assertTrue(r.longValue("unlimited.count") > 0, "the patterns that matched nothing\n" + r);
      Run run = new Run(entries, r, launchedAt, coreToSpare);
      if (coreToSpare) {
        // SPEC: visible by the later of 1 s after the limiter's creation (before main) and 3 s
        // after the agent started (after the JVM did)
        assertTrue(
            run.mbeansAfterMainMillis <= 1_000 || run.mbeansAfterJvmStartMillis <= 3_000,
            "the MBeans are late: " + run);
      }
      return run;
    } finally {
      try (var files = Files.walk(classDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * The config file: entry {@code i} is named {@code l<i>}; of each twenty entries, fourteen name
   * one method ({@code scale.C<c>#m<k>}, in turn), three a {@code Type+} interface's method ({@code
   * scale.I<j>+#r<k>}), two a path, and one is a wildcard (the first five: {@code scale.C<d>*#w})
   * or a class that never loads. Entries 0, 14 and 19 allow one call an hour (the fixture checks
   * them), the others 1000 a second ({@code next}: 2000, and every hundredth renamed).
   */
  private static String[] config(int entries, int interfaces, boolean next) {
    List<String> lines = new ArrayList<>();
    lines.add("limits:");
    int exact = 0;
    int subtype = 0;
    int other = 0;
    for (int i = 0; i < entries; i++) {
      int slot = i % 20;
      String name = next && i % 100 == 50 ? "l" + i + "-renamed" : "l" + i;
      lines.add("  - name: " + name);
      if (slot < 14) {
        lines.add("    methods: \"scale.C" + exact / 10 + "#m" + exact % 10 + "\"");
        exact++;
      } else if (slot < 17) {
        lines.add(
            "    methods: \"scale.I" + subtype % interfaces + "+#r" + subtype / interfaces + "\"");
        subtype++;
      } else if (slot < 19) {
        lines.add("    http: { paths: \"/api/p" + i + "/**\" }");
      } else {
        lines.add(
            other < 5
                ? "    methods: \"scale.C" + (other + 1) + "*#w\""
                : "    methods: \"scale.missing.M" + i + "#run\"");
        other++;
      }
      lines.add(
          i == 0 || i == 14 || i == 19
              ? "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }"
              : "    tokenBucket: { rate: " + (next ? 2000 : 1000) + " }");
    }
    return lines.toArray(new String[0]);
  }

  /**
   * {@code scale.C0}..{@code scale.C<classes-1>}, each with {@code m0()}..{@code m9()} and {@code
   * w()}; the interfaces {@code scale.I<j>} with {@code r0()}..{@code r9()}, each implemented by
   * {@code scale.I<j>Impl0} and {@code scale.I<j>Impl1}. Every method returns at once.
   */
  private static void generateClasses(Path dir, int classes, int interfaces) throws IOException {
    Path scale = Files.createDirectories(dir.resolve("scale"));
    for (int c = 0; c < classes; c++) {
      List<String> methods = new ArrayList<>();
      for (int k = 0; k < 10; k++) {
        methods.add("m" + k);
      }
      methods.add("w");
      Files.write(scale.resolve("C" + c + ".class"), type("scale/C" + c, null, methods, false));
    }
    List<String> run = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      run.add("r" + k);
    }
    for (int j = 0; j < interfaces; j++) {
      Files.write(scale.resolve("I" + j + ".class"), type("scale/I" + j, null, run, true));
      for (int k = 0; k < IMPLEMENTATIONS; k++) {
        Files.write(
            scale.resolve("I" + j + "Impl" + k + ".class"),
            type("scale/I" + j + "Impl" + k, "scale/I" + j, run, false));
      }
    }
  }

  private static byte[] type(
      String internalName, String implemented, List<String> methods, boolean isInterface) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V1_8,
        Opcodes.ACC_PUBLIC | (isInterface ? Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT : 0),
        internalName,
        null,
        "java/lang/Object",
        implemented == null ? null : new String[] {implemented});
    if (!isInterface) {
      MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
      init.visitCode();
      init.visitVarInsn(Opcodes.ALOAD, 0);
      init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
      init.visitInsn(Opcodes.RETURN);
      init.visitMaxs(0, 0);
      init.visitEnd();
    }
    for (String method : methods) {
      MethodVisitor m =
          cw.visitMethod(
              Opcodes.ACC_PUBLIC | (isInterface ? Opcodes.ACC_ABSTRACT : 0),
              method,
              "()V",
              null,
              null);
      if (!isInterface) {
        m.visitCode();
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
      }
      m.visitEnd();
    }
    cw.visitEnd();
    return cw.toByteArray();
  }
}
