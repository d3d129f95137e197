package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Methods that cannot take the prologue in place are limited another way, or fail closed; never
 * does a class lose its limits. Before this was so, a class with a method too large for the
 * prologue loaded unwoven: both of its limited methods admitted 5 of 5, and a config limit over a
 * method with 4,000 returns admitted 6 of 6 against a capacity of 3.
 */
class UnweavableIT {
  private static final int MAX_CODE = 65_535;
  private static Path generated;

  @BeforeAll
  static void generate() throws IOException {
    generated = Files.createTempDirectory("weir-gen");
    generated.toFile().deleteOnExit();
    Path dir = Files.createDirectories(generated.resolve("gen"));
    Files.write(dir.resolve("Big.class"), big());
    Files.write(dir.resolve("BigCtor.class"), bigConstructor());
    Files.write(dir.resolve("Returns.class"), manyReturns());
    Files.write(dir.resolve("Pool.class"), fullPool());
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyMethodIsLimitedOrFailsClosed(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: many-returns",
            "    methods: \"gen.Returns#many\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: adler",
            "    methods: \"java.util.zip.Adler32#update(int,int)\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: deep",
            "    methods: \"gen.Returns#deep\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "  - name: wide",
            "    methods: \"gen.Returns#wide\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "  - name: intrinsic",
            "    methods: \"java.math.BigInteger#implMultiplyToLen\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                Collections.singletonList(
                    "-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
                generated.toString(),
                "dev.weir.it.fixtures.Unweavable")
            .assertExit(0);
    // a 65,507-byte method: moved behind a wrapper; the tiny one beside it woven in place
    r.assertCalls("huge", 1, 4, 0);
    r.assertCalls("tiny", 1, 4, 0);
    r.assertCalls("hugeInstance", 1, 4, 0);
    assertEquals("21", r.value("hugeInstance.value0"), "the wrapper passes arguments and result");
    assertTrue(
        r.err.contains("[weir] WARN gen.Big#huge(): with the limit woven in, its code would be "),
        r.err);
    assertTrue(
        r.err.contains("; it is limited through a wrapper instead (its body moved to $weir$huge)"),
        r.err);
    // a constructor's body cannot move: it fails closed, loudly
    r.assertCalls("bigCtor", 0, 0, 3);
    assertTrue(
        r.value("bigCtor.message")
            .matches(
                "weir: cannot limit gen\\.BigCtor#<init>\\(\\): with the limit woven in, its code"
                    + " would be \\d+ bytes, beyond the JVM's limit of 65535, and a constructor's"
                    + " body cannot move to a method of its own \\(every call fails closed\\)"),
        r::toString);
    assertTrue(r.err.contains("[weir] ERROR cannot limit gen.BigCtor#<init>()"), r.err);
    // a config limit whose exits push a legal method past the limit
    r.assertCalls("many", 3, 3, 0);
    // native methods: renamed with the native method prefix behind a wrapper
    r.assertCalls("nat", 2, 2, 0);
    r.assertCalls("natInstance", 3, 2, 0);
    r.assertCalls("invalidNat", 0, 0, 3);
    assertTrue(r.value("invalidNat.message").contains("rate must be > 0"), r::toString);
    // a JDK native loaded after the agent started: still linked to its code
    r.assertCalls("adler", 3, 2, 0);
    for (int i = 0; i < 3; i++) {
      assertEquals("131074", r.value("adler.value" + i), "Adler-32 of the byte 1");
    }
    // returns with values left on the stack (as Clojure's code does): room for the exit's store
    r.assertCalls("deep", 2, 1, 0);
    assertEquals("6", r.value("deep.value0"));
    // 65,534 local variable slots leave no room for the exit's three: moved behind a wrapper
    r.assertCalls("wide", 2, 1, 0);
    assertEquals("8", r.value("wide.value0"));
    assertTrue(
        r.err.contains(
            "[weir] WARN gen.Returns#wide(int): its code uses 65534 local variable slots, and the"
                + " limit needs 3 more, beyond the JVM's limit of 65535; it is limited through a"
                + " wrapper instead"),
        r.err);
    // a JIT intrinsic runs the JVM's own code once compiled: refused, reported
    assertTrue(
        r.err.contains(
            "the pattern java.math.BigInteger#implMultiplyToLen of 'intrinsic' matched 1 method"
                + " that Weir cannot limit; it runs unlimited: java.math.BigInteger"
                + "#implMultiplyToLen(int[],int,int[],int,int[]) (it is a JIT intrinsic: compiled"
                + " code runs the JVM's own version of it, without the limit)"),
        r.err);
    // no room for the limit at all: the class fails to load rather than run unlimited
    assertEquals("ClassFormatError", r.value("pool"), r::toString);
    assertTrue(
        r.err.contains(
            "[weir] ERROR cannot weave gen.Pool: its constant pool has no room left for the"
                + " constants of its limits; it fails to load (ClassFormatError) rather than run"
                + " with its limits off"),
        r.err);
    assertFalse(r.out.contains(".unexpected="), r::toString);
    assertFalse(r.err.contains("could not weave"), r.err);
  }

  /**
   * On attach, a loaded class cannot gain the method a too-large body would move to: that method
   * fails closed, loudly, and the rest of its class is limited.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void onAttachATooLargeMethodOfALoadedClassFailsClosed(String jdk) throws Exception {
    List<String> lines = AttachIT.attach(jdk, List.of(), "log=info", generated);
    assertTrue(lines.contains("hugeAfter=CCC"), "fails closed: " + lines);
    assertTrue(lines.contains("tinyAfter=ALL"), "its class is woven: " + lines);
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.startsWith(
                            "[weir] ERROR cannot limit gen.Big#huge(): with the limit woven in")
                        && l.endsWith(
                            ", and a class loaded before the agent started cannot gain the method"
                                + " its body would move to (every call fails closed)")),
        lines::toString);
  }

  /**
   * A retransformation (another agent's, with Weir's transformer retransform-capable because of a
   * config pattern) must find the same methods moved, or the JVM refuses it as a change of shape.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void classesWithMovedMethodsCanBeRetransformed(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: adler",
            "    methods: \"java.util.zip.Adler32#update(int,int)\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }");
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                java.util.List.of(
                    "-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config,
                    "-javaagent:" + RetransformIT.secondAgentJar()),
                generated.toString(),
                "dev.weir.it.fixtures.RetransformingAgent",
                "moved")
            .assertExit(0);
    assertEquals("true", r.value("retransformed"), r::toString);
    assertEquals(1, r.longValue("hugeBefore"), r::toString);
    assertEquals(0, r.longValue("hugeAfter"), "capacity 1, spent before: the same limiter");
    assertEquals(1, r.longValue("natBefore"), r::toString);
    assertEquals(1, r.longValue("natAfter"), "capacity 2: one left after the retransformations");
  }

  /**
   * {@code gen.Big}: {@code huge()} of 65,507 bytes, {@code tiny()}, and {@code hugeInstance(int)}
   * returning its argument plus one, each {@code @TokenBucket(rate = 1, per = HOURS, capacity =
   * 1)}.
   */
  private static byte[] big() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/Big", null, "java/lang/Object", null);
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();

    MethodVisitor huge = limited(cw, Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "huge", "()V");
    nops(huge, 65_507 - 1);
    huge.visitInsn(Opcodes.RETURN);
    huge.visitMaxs(0, 0);
    huge.visitEnd();

    MethodVisitor tiny = limited(cw, Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "tiny", "()V");
    tiny.visitInsn(Opcodes.RETURN);
    tiny.visitMaxs(0, 0);
    tiny.visitEnd();

    MethodVisitor instance = limited(cw, Opcodes.ACC_PUBLIC, "hugeInstance", "(I)I");
    nops(instance, MAX_CODE - 10);
    instance.visitVarInsn(Opcodes.ILOAD, 1);
    instance.visitInsn(Opcodes.ICONST_1);
    instance.visitInsn(Opcodes.IADD);
    instance.visitInsn(Opcodes.IRETURN);
    instance.visitMaxs(0, 0);
    instance.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /**
   * {@code gen.Pool}: a constant pool a few entries short of the JVM's 65,535 (one field name each)
   * and a limited method: there is no room for the limit's constants.
   */
  private static byte[] fullPool() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/Pool", null, "java/lang/Object", null);
    for (int i = 0; i < 65_505; i++) {
      cw.visitField(Opcodes.ACC_STATIC, "f" + i, "I", null, null).visitEnd();
    }
    MethodVisitor tiny = limited(cw, Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "tiny", "()V");
    tiny.visitInsn(Opcodes.RETURN);
    tiny.visitMaxs(0, 0);
    tiny.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** {@code gen.BigCtor}: a limited constructor of 65,507 bytes. */
  private static byte[] bigConstructor() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/BigCtor", null, "java/lang/Object", null);
    MethodVisitor init = limited(cw, Opcodes.ACC_PUBLIC, "<init>", "()V");
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    nops(init, 65_507 - 5);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /**
   * {@code gen.Returns}: {@code static void many(int)} of 63,876 bytes with 4,001 returns and a
   * stack map frame after each of the first 4,000; unannotated (a config pattern limits it).
   */
  private static byte[] manyReturns() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/Returns", null, "java/lang/Object", null);
    MethodVisitor many =
        cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "many", "(I)V", null, null);
    many.visitCode();
    for (int i = 0; i < 4000; i++) { // if (x != 0) return; -- 5 bytes
      Label next = new Label();
      many.visitVarInsn(Opcodes.ILOAD, 0);
      many.visitJumpInsn(Opcodes.IFEQ, next);
      many.visitInsn(Opcodes.RETURN);
      many.visitLabel(next);
    }
    nops(many, 63_876 - 4000 * 5 - 1);
    many.visitInsn(Opcodes.RETURN);
    many.visitMaxs(0, 0);
    many.visitEnd();

    // static int deep(): pushes six values and returns the top one, with max_stack 6
    MethodVisitor deep =
        cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "deep", "()I", null, null);
    deep.visitCode();
    for (int i = 1; i <= 6; i++) {
      deep.visitIntInsn(Opcodes.BIPUSH, i);
    }
    deep.visitInsn(Opcodes.IRETURN);
    deep.visitMaxs(0, 0);
    deep.visitEnd();

    // static int wide(int x): keeps x + 1 in local 65533, so max_locals is 65534
    MethodVisitor wide =
        cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "wide", "(I)I", null, null);
    wide.visitCode();
    wide.visitVarInsn(Opcodes.ILOAD, 0);
    wide.visitInsn(Opcodes.ICONST_1);
    wide.visitInsn(Opcodes.IADD);
    wide.visitVarInsn(Opcodes.ISTORE, 65_533);
    wide.visitVarInsn(Opcodes.ILOAD, 65_533);
    wide.visitInsn(Opcodes.IRETURN);
    wide.visitMaxs(0, 0);
    wide.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  private static MethodVisitor limited(ClassWriter cw, int access, String name, String desc) {
    MethodVisitor mv = cw.visitMethod(access, name, desc, null, null);
    AnnotationVisitor a = mv.visitAnnotation("Ldev/weir/TokenBucket;", true);
    a.visit("rate", 1.0d);
    a.visitEnum("per", "Ljava/util/concurrent/TimeUnit;", "HOURS");
    a.visit("capacity", 1L);
    a.visitEnd();
    mv.visitCode();
    return mv;
  }

  private static void nops(MethodVisitor mv, int count) {
    for (int i = 0; i < count; i++) {
      mv.visitInsn(Opcodes.NOP);
    }
  }
}
