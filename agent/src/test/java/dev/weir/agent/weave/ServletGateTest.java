package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The gate's prologue on servlet classes the tests write byte by byte: old class versions, a
 * service method in an interface's default method, and one too large to take the prologue, which
 * fails closed. (Real containers are {@code WebLimitsIT}'s.)
 */
class ServletGateTest {
  private static final String SERVICE =
      "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V";

  /** A class or interface whose service method stores 1 into the static field {@code ran}. */
  private static byte[] servlet(String name, int version, boolean isInterface, int nops) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        version,
        Opcodes.ACC_PUBLIC | (isInterface ? Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT : 0),
        name,
        null,
        "java/lang/Object",
        null);
    if (!isInterface) {
      cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "ran", "I", null, null).visitEnd();
    }
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "service", SERVICE, null, null);
    mv.visitCode();
    for (int i = 0; i < nops; i++) {
      mv.visitInsn(Opcodes.NOP);
    }
    if (isInterface) { // the body says it ran by throwing
      mv.visitTypeInsn(Opcodes.NEW, "java/lang/UnsupportedOperationException");
      mv.visitInsn(Opcodes.DUP);
      mv.visitLdcInsn("the default body ran");
      mv.visitMethodInsn(
          Opcodes.INVOKESPECIAL,
          "java/lang/UnsupportedOperationException",
          "<init>",
          "(Ljava/lang/String;)V",
          false);
      mv.visitInsn(Opcodes.ATHROW);
    } else {
      mv.visitInsn(Opcodes.ICONST_1);
      mv.visitFieldInsn(Opcodes.PUTSTATIC, name, "ran", "I");
      mv.visitInsn(Opcodes.RETURN);
    }
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    if (!isInterface) {
      constructor(cw);
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** A public no-argument constructor calling Object's. */
  private static void constructor(ClassWriter cw) {
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(1, 1);
    init.visitEnd();
  }

  private static Class<?> load(String name, byte[] woven) throws Exception {
    return load(Map.of(name, woven)).loadClass(name.replace('/', '.'));
  }

  private static ClassLoader load(Map<String, byte[]> classes) {
    Map<String, byte[]> types = new HashMap<>();
    classes.forEach((name, bytes) -> types.put(name.replace('/', '.'), bytes));
    return new ByteArrayClassLoader(ServletGateTest.class.getClassLoader(), types);
  }

  private static Method service(Class<?> type) throws Exception {
    return type.getMethod(
        "service", jakarta.servlet.ServletRequest.class, jakarta.servlet.ServletResponse.class);
  }

  @Test
  void oldAndNewClassVersionsTakeThePrologueAndStillRunTheirBody() throws Exception {
    int[] versions = {Opcodes.V1_1, Opcodes.V1_5, Opcodes.V1_6, Opcodes.V1_8, Opcodes.V17};
    for (int version : versions) {
      String name = "gate/Old" + version;
      byte[] woven = ServletGate.weave(servlet(name, version, false, 0), name);
      assertTrue(
          new String(woven, java.nio.charset.StandardCharsets.ISO_8859_1)
              .contains("dev/weir/agent/bootstrap/http/HttpGate"));
      Class<?> type = load(name, woven);
      service(type).invoke(type.getConstructor().newInstance(), null, null); // no entries: runs
      assertEquals(1, type.getField("ran").getInt(null), "version " + version);
    }
  }

  @Test
  void aDefaultServiceMethodOfAnInterfaceIsWovenToo() throws Exception {
    byte[] mixin = ServletGate.weave(servlet("gate/Mixin", Opcodes.V1_8, true, 0), "gate/Mixin");
    assertTrue(
        mixin != null
            && new String(mixin, java.nio.charset.StandardCharsets.ISO_8859_1)
                .contains("dev/weir/agent/bootstrap/http/HttpGate"),
        "woven");
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V1_8,
        Opcodes.ACC_PUBLIC,
        "gate/ViaDefault",
        null,
        "java/lang/Object",
        new String[] {"gate/Mixin"});
    constructor(cw);
    cw.visitEnd();
    Class<?> type =
        load(Map.of("gate/Mixin", mixin, "gate/ViaDefault", cw.toByteArray()))
            .loadClass("gate.ViaDefault");
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () -> service(type).invoke(type.getConstructor().newInstance(), null, null));
    assertEquals("the default body ran", e.getCause().getMessage(), "no entries: the body runs");
  }

  @Test
  void aServiceMethodTooLargeForThePrologueFailsClosed() throws Exception {
    String name = "gate/Huge";
    byte[] huge = servlet(name, Opcodes.V17, false, 65_525);
    Class<?> type = load(name, ServletGate.weave(huge, name));
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () -> service(type).invoke(type.getConstructor().newInstance(), null, null));
    assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    assertTrue(
        e.getCause().getMessage().startsWith("Weir cannot limit the requests of gate.Huge#service"),
        e.getCause().getMessage());
    assertEquals(0, type.getField("ran").getInt(null), "its body never runs");
  }

  @Test
  void aContainersCallOfServletServiceGoesThroughTheGateAndOnToTheServlet() throws Exception {
    String name = "gate/Container";
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    MethodVisitor mv =
        cw.visitMethod(
            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
            "dispatch",
            "(Ljakarta/servlet/Servlet;Ljakarta/servlet/ServletRequest;"
                + "Ljakarta/servlet/ServletResponse;)V",
            null,
            null);
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ALOAD, 2);
    mv.visitMethodInsn(
        Opcodes.INVOKEINTERFACE, "jakarta/servlet/Servlet", "service", SERVICE, true);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    byte[] woven = ServletGate.weave(cw.toByteArray(), name);
    assertTrue(
        new String(woven, java.nio.charset.StandardCharsets.ISO_8859_1)
            .contains("dev/weir/agent/bootstrap/http/HttpGate"),
        "the call site goes through the gate");
    Method dispatch = load(name, woven).getMethods()[0];
    java.util.List<String> calls = new java.util.ArrayList<>();
    jakarta.servlet.Servlet servlet = // a lambda's class is hidden: only the call can be woven
        (jakarta.servlet.Servlet)
            java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {jakarta.servlet.Servlet.class},
                (proxy, method, args) -> {
                  calls.add(method.getName());
                  if (args[0] == null) {
                    throw new java.io.IOException("the servlet's own");
                  }
                  return null;
                });
    Object request = org.mockito.Mockito.mock(jakarta.servlet.ServletRequest.class);
    dispatch.invoke(null, servlet, request, null); // no entries: straight on
    assertEquals(java.util.List.of("service"), calls);
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class, () -> dispatch.invoke(null, servlet, null, null));
    assertTrue(e.getCause() instanceof java.io.IOException, "thrown on as it was: " + e.getCause());
  }

  @Test
  void classesWithoutAServiceMethodAreLeftAlone() throws Exception {
    ClassWriter cw = new ClassWriter(0);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "gate/Plain", null, "java/lang/Object", null);
    cw.visitEnd();
    assertNull(ServletGate.weave(cw.toByteArray(), "gate/Plain"));
  }

  private static final String DO_FILTER =
      "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;"
          + "Ljakarta/servlet/FilterChain;)V";

  @Test
  void aFiltersDoFilterTakesTheEntrancesPrologueAndStillRunsItsBody() throws Exception {
    for (int version : new int[] {Opcodes.V1_5, Opcodes.V1_8, Opcodes.V17}) {
      String name = "gate/Filter" + version;
      ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
      cw.visit(version, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
      cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "ran", "I", null, null).visitEnd();
      MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "doFilter", DO_FILTER, null, null);
      mv.visitCode();
      mv.visitInsn(Opcodes.ICONST_1);
      mv.visitFieldInsn(Opcodes.PUTSTATIC, name, "ran", "I");
      mv.visitInsn(Opcodes.RETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
      constructor(cw);
      cw.visitEnd();
      byte[] woven = ServletGate.weave(cw.toByteArray(), name);
      String text = new String(woven, java.nio.charset.StandardCharsets.ISO_8859_1);
      assertTrue(text.contains("dev/weir/agent/bootstrap/http/HttpGate") && text.contains("enter"));
      Class<?> type = load(name, woven);
      type.getMethod(
              "doFilter",
              jakarta.servlet.ServletRequest.class,
              jakarta.servlet.ServletResponse.class,
              jakarta.servlet.FilterChain.class)
          .invoke(type.getConstructor().newInstance(), null, null, null); // no entries: runs
      assertEquals(1, type.getField("ran").getInt(null), "version " + version);
    }
  }

  @Test
  void aContainersCallOfFilterDoFilterGoesThroughTheGateAndOnToTheFilter() throws Exception {
    String name = "gate/Chain";
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    MethodVisitor mv =
        cw.visitMethod(
            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
            "next",
            "(Ljakarta/servlet/Filter;Ljakarta/servlet/ServletRequest;"
                + "Ljakarta/servlet/ServletResponse;Ljakarta/servlet/FilterChain;)V",
            null,
            null);
    mv.visitCode();
    for (int i = 0; i < 4; i++) {
      mv.visitVarInsn(Opcodes.ALOAD, i);
    }
    mv.visitMethodInsn(
        Opcodes.INVOKEINTERFACE, "jakarta/servlet/Filter", "doFilter", DO_FILTER, true);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    byte[] woven = ServletGate.weave(cw.toByteArray(), name);
    assertTrue(
        new String(woven, java.nio.charset.StandardCharsets.ISO_8859_1).contains("filter"),
        "the call site goes through the gate");
    Method next = load(name, woven).getMethods()[0];
    java.util.List<Object> calls = new java.util.ArrayList<>();
    jakarta.servlet.Filter filter = // a lambda's class is hidden: only the call can be woven
        (req, res, chain) -> {
          calls.add(chain);
          if (req == null) {
            throw new jakarta.servlet.ServletException("the filter's own");
          }
        };
    jakarta.servlet.FilterChain chain = (req, res) -> {};
    Object request = org.mockito.Mockito.mock(jakarta.servlet.ServletRequest.class);
    next.invoke(null, filter, request, null, chain); // no entries: straight on
    assertEquals(java.util.List.of(chain), calls);
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class, () -> next.invoke(null, filter, null, null, chain));
    assertTrue(
        e.getCause() instanceof jakarta.servlet.ServletException,
        "thrown on as it was: " + e.getCause());
  }
}
