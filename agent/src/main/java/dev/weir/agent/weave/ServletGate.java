package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.control.ClassFiles;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodTooLargeException;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Weaves the gate of {@code http} entries ({@link dev.weir.agent.bootstrap.http.HttpGate}) into
 * every filter and servlet: the first instructions of each concrete {@code doFilter(ServletRequest,
 * ServletResponse, FilterChain)} and {@code service(ServletRequest, ServletResponse)} of {@code
 * javax.servlet} or {@code jakarta.servlet} become
 *
 * <pre>{@code
 * if (!HttpGate.enter(request, response)) return;   // doFilter
 * if (!HttpGate.pass(request, response)) return;    // service
 * }</pre>
 *
 * <p>Those methods are the servlet API's own entry points: the first a request meets, on any
 * container, is where it enters the application, before its filters; {@code HttpServlet} declares
 * {@code service} (so every {@code HttpServlet}, JSPs and frameworks' dispatcher servlets included,
 * is covered by weaving the API's one class), {@code GenericFilter} and {@code HttpFilter} declare
 * {@code doFilter}, and a class that implements either itself (in a class, or in an interface's
 * default method) is woven too, the container's holder of a filter with the same method included;
 * the gate counts each request once however many of these it passes. The prologue passes its
 * arguments as {@code Object}s: the woven class never names a type Weir carries. The same weaving
 * turns a container's call of {@code Filter.doFilter} or {@code Servlet.service} through the
 * interface into a call of {@code HttpGate.filter} or {@code HttpGate.service}, which reach filters
 * and servlets whose class cannot be woven (a lambda's), and answer a limited method's {@code
 * RateLimitedException} that escapes them. Installed once the config file has an {@code http}
 * entry, or a limited method may throw while a servlet serves (see {@link
 * Weaving#ensureServletGate}), and kept (with no entry, the gate returns at once). Thread-safe.
 */
final class ServletGate implements ClassFileTransformer {
  private static final String GATE = "dev/weir/agent/bootstrap/http/HttpGate";
  private static final String[] SERVICE_DESCRIPTORS = {
    "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;)V",
    "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V"
  };
  private static final String[] FILTER_DESCRIPTORS = {
    "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;Ljavax/servlet/FilterChain;)V",
    "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;"
        + "Ljakarta/servlet/FilterChain;)V"
  };

  /** The servlet and filter interfaces: their implementations, and their callers, are woven. */
  private static final String[] SERVLET_TYPES = {
    "javax.servlet.Servlet",
    "jakarta.servlet.Servlet",
    "javax.servlet.Filter",
    "jakarta.servlet.Filter"
  };

  private static final long WAIT_SECONDS = 60;

  /** Guarded by the class lock. */
  private static ServletGate installed;

  /** Counted down once the loaded classes are woven, if a thread of Weir's weaves them. */
  private static CountDownLatch loadedWoven;

  private final ModuleEdges modules;

  /** Set once a container's call of a servlet or filter was woven: http entries can apply. */
  private static volatile boolean containerSeen;

  /**
   * Whether any servlet container's code has been woven for the http entries in this JVM.
   *
   * @return true once a class that calls a servlet's {@code service} or a filter's {@code doFilter}
   *     was woven
   */
  static boolean containerSeen() {
    return containerSeen;
  }

  private ServletGate(ModuleEdges modules) {
    this.modules = modules;
  }

  /**
   * Installs the gate's weaving if it is not installed yet (once the config has an {@code http}
   * entry, or a limited method's exception may escape a servlet), and weaves the classes loaded
   * already that it changes (servlets, the classes and interfaces they inherit a service method
   * from, and the container classes that call one).
   *
   * @param instrumentation the JVM's instrumentation
   * @param later true to weave the loaded classes on a thread of Weir's (the caller may be inside a
   *     class file transformer, or an application's thread); false to weave them now, or, if a
   *     thread of Weir's is weaving them, to wait for it (at most {@value #WAIT_SECONDS} s): a
   *     reload's limits apply once it returns
   * @return the number of loaded classes woven on this thread
   */
  static int ensure(final Instrumentation instrumentation, boolean later) {
    CountDownLatch pending;
    synchronized (ServletGate.class) {
      if (installed == null) {
        installed = new ServletGate(ModuleEdges.create(instrumentation));
        // the classes loading from now on are woven as they load; those loaded before, below
        instrumentation.addTransformer(installed, true);
        if (!later) {
          return weaveLoaded(instrumentation, Collections.<String>emptySet());
        }
        // (the loading thread's stack is not read to weave its container's caller first: reading
        // it, even from Weir's thread, changed how the JIT compiled the application's exception
        // paths, a woven method's refusal included: 30 ns became 90 in some JVMs)
        final CountDownLatch done = new CountDownLatch(1);
        loadedWoven = done;
        AgentThreads.start(
            new Runnable() {
              @Override
              public void run() {
                try {
                  long start = System.nanoTime();
                  int woven = weaveLoaded(instrumentation, Collections.<String>emptySet());
                  AgentLog.debug(
                      "the servlet gate is in place: "
                          + woven
                          + " loaded classes woven for it in "
                          + (System.nanoTime() - start) / 1_000_000
                          + " ms");
                } finally {
                  done.countDown();
                }
              }
            },
            "weir-servlet-gate");
        return 0;
      }
      pending = loadedWoven;
    }
    if (!later && pending != null) {
      try {
        pending.await(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return 0;
  }

  /**
   * Weaves the loaded servlets and the loaded container classes that call one: first those of the
   * classes named in {@code first} that call one, then the others.
   */
  private static int weaveLoaded(Instrumentation instrumentation, Set<String> first) {
    List<Class<?>> servletTypes = new ArrayList<Class<?>>();
    Class<?>[] loaded = instrumentation.getAllLoadedClasses();
    for (Class<?> type : loaded) {
      if (type.isInterface()) { // the name of every loaded class would be a string made for each
        for (String name : SERVLET_TYPES) {
          if (type.getName().equals(name)) {
            servletTypes.add(type);
          }
        }
      }
    }
    if (servletTypes.isEmpty()) {
      return 0; // no servlet API loaded: no servlet, and no class that calls one, has loaded
    }
    Set<Class<?>> woven = new HashSet<Class<?>>();
    if (!first.isEmpty()) {
      List<Class<?>> callers = new ArrayList<Class<?>>();
      for (Class<?> type : loaded) {
        if (first.contains(type.getName()) && callsService(instrumentation, type)) {
          callers.add(type);
        }
      }
      retransform(instrumentation, callers);
      woven.addAll(callers);
      AgentLog.debug(
          "the servlet gate: the callers on the serving thread's stack woven " + callers);
    }
    // every class and interface that is a servlet, and the classes they inherit from (a service
    // method may be declared by a base class that is no servlet itself, or be an interface's
    // default method)
    Set<Class<?>> servlets = new LinkedHashSet<Class<?>>();
    for (Class<?> type : loaded) {
      for (Class<?> servlet : servletTypes) {
        if (type != servlet && servlet.isAssignableFrom(type)) {
          for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (instrumentation.isModifiableClass(c) && !c.getName().startsWith("java.")) {
              servlets.add(c);
            }
          }
          break;
        }
      }
    }
    for (Class<?> type : loaded) {
      // a container's classes that call Servlet.service
      if (!servlets.contains(type)
          && !woven.contains(type)
          && callsService(instrumentation, type)) {
        servlets.add(type);
      }
    }
    servlets.removeAll(woven);
    retransform(instrumentation, servlets);
    return woven.size() + servlets.size();
  }

  private static void retransform(Instrumentation instrumentation, Collection<Class<?>> classes) {
    for (Class<?> servlet : classes) {
      try {
        instrumentation.retransformClasses(servlet);
      } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
        AgentLog.error(
            "could not put the http limits in front of the loaded servlet "
                + servlet.getName()
                + ": "
                + e);
      }
    }
  }

  /** Whether a loaded class's file names {@code Servlet.service} (read through its loader). */
  private static boolean callsService(Instrumentation instrumentation, Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    if (loader == null
        || type.isArray()
        || type.isInterface()
        || type.getName().startsWith("java.")
        || type.getName().startsWith("dev.weir.agent.")
        || !instrumentation.isModifiableClass(type)) {
      return false;
    }
    byte[] classFile = ClassFiles.read(loader, type.getName().replace('.', '/')); // as it loaded
    // the interface's name as a whole constant-pool entry (tag 1, length), and the descriptor
    return classFile != null
        && (SERVICE_DESCRIPTOR.in(classFile)
                && (JAVAX_SERVLET.in(classFile) || JAKARTA_SERVLET.in(classFile))
            || FILTER_DESCRIPTOR.in(classFile)
                && (JAVAX_FILTER.in(classFile) || JAKARTA_FILTER.in(classFile)));
  }

  private static final BytePattern JAVAX_SERVLET =
      BytePattern.of("\u0001\u0000\u0015javax/servlet/Servlet");
  private static final BytePattern JAKARTA_SERVLET =
      BytePattern.of("\u0001\u0000\u0017jakarta/servlet/Servlet");
  private static final BytePattern JAVAX_FILTER =
      BytePattern.of("\u0001\u0000\u0014javax/servlet/Filter");
  private static final BytePattern JAKARTA_FILTER =
      BytePattern.of("\u0001\u0000\u0016jakarta/servlet/Filter");

  @Override
  public byte[] transform(
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile) {
    // the look at the bytes calls nothing a config limit may name (java.lang, Weir's own search)
    if (internalName == null
        || classFile == null
        || internalName.startsWith("java/")
        || internalName.startsWith("dev/weir/agent/")
        || !RESPONSE_PARAMETER.in(classFile)) {
      return null;
    }
    // a servlet's weaving is Weir's own work, never charged by a config limit
    int[] section = CallDepth.enterWeir();
    try {
      return transformOwn(loader, internalName, classBeingRedefined, classFile);
    } finally {
      section[0]--; // a plain store: no StackOverflowError can skip it
    }
  }

  private byte[] transformOwn(
      ClassLoader loader, String internalName, Class<?> classBeingRedefined, byte[] classFile) {
    if (!mentionsService(classFile)) {
      return null;
    }
    try {
      byte[] woven = weave(classFile, internalName);
      if (woven != null) {
        containerSeen = true;
        if (modules != null) {
          modules.assureReadsBridge(classBeingRedefined, loader, internalName);
        }
      }
      return woven;
    } catch (Throwable t) {
      // never a servlet that runs unlimited: a class loading fails to load; one loaded already
      // keeps its code (the JVM refuses the bytes), which this line reports
      return WeirTransformer.unloadable(
          internalName, "the http limits cannot be put in front of its service method: " + t);
    }
  }

  /**
   * What both descriptors hold, looked for in every class that loads (one search, as long as
   * either's: start-up pays no more for the filters' weaving than it did for the servlets').
   */
  private static final BytePattern RESPONSE_PARAMETER = BytePattern.of("servlet/ServletResponse;");

  /** What every descriptor of {@code service(ServletRequest, ServletResponse)} ends with. */
  private static final BytePattern SERVICE_DESCRIPTOR =
      BytePattern.of("servlet/ServletResponse;)V");

  /**
   * What every descriptor of {@code doFilter(ServletRequest, ServletResponse, FilterChain)} ends
   * with.
   */
  private static final BytePattern FILTER_DESCRIPTOR = BytePattern.of("servlet/FilterChain;)V");

  /** A cheap look at the constant pool: only a class that names the API's types can declare it. */
  private static boolean mentionsService(byte[] classFile) {
    return (SERVICE_DESCRIPTOR.in(classFile) || FILTER_DESCRIPTOR.in(classFile))
        && !WeirTransformer.contains(classFile, GATE);
  }

  /**
   * The class with the gate in front of its {@code service(ServletRequest, ServletResponse)}. A
   * method whose code would pass the JVM's 64 KB limit with the gate in front fails closed: its
   * code becomes a throw of {@link IllegalStateException} naming it and why (one error line).
   *
   * @param classFile the class's bytes
   * @param internalName the class's name, for messages
   * @return the woven bytes; null if the class declares no such method with code
   */
  static byte[] weave(byte[] classFile, String internalName) {
    try {
      return write(classFile, null);
    } catch (MethodTooLargeException e) {
      String refusal =
          "Weir cannot limit the requests of "
              + internalName.replace('/', '.')
              + "#service: its code is too large to take the http limits' check ("
              + e.getCodeSize()
              + " bytes); every request to it is refused";
      AgentLog.error(refusal);
      return write(classFile, refusal);
    }
  }

  /** {@link #weave}; with a refusal, every service method throws it instead. */
  private static byte[] write(byte[] classFile, final String refusal) {
    ClassReader reader = OpenedClassReader.of(classFile);
    ClassWriter writer = new ClassWriter(reader, 0);
    final boolean[] woven = {false};
    final int[] version = {0};
    reader.accept(
        new ClassVisitor(OpenedClassReader.ASM_API, writer) {
          @Override
          public void visit(
              int v,
              int access,
              String name,
              String signature,
              String superName,
              String[] interfaces) {
            version[0] = v & 0xFFFF;
            super.visit(v, access, name, signature, superName, interfaces);
          }

          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (mv != null && refusal == null) {
              mv = new CallSites(mv, woven);
            }
            boolean filter = name.equals("doFilter") && isFilterDescriptor(descriptor);
            if (!(filter || name.equals("service") && isServiceDescriptor(descriptor))
                || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_STATIC))
                    != 0) {
              return mv;
            }
            woven[0] = true;
            if (refusal != null) {
              // this, request, response (, chain)
              LimitPrologue.writeFailClosed(mv, filter ? 4 : 3, refusal);
              mv.visitEnd();
              return null; // the original code is not copied
            }
            return new Prologue(mv, version[0] >= Opcodes.V1_6, filter);
          }
        },
        0);
    return woven[0] ? writer.toByteArray() : null;
  }

  private static boolean isServiceDescriptor(String descriptor) {
    return Arrays.asList(SERVICE_DESCRIPTORS).contains(descriptor);
  }

  private static boolean isFilterDescriptor(String descriptor) {
    return Arrays.asList(FILTER_DESCRIPTORS).contains(descriptor);
  }

  /**
   * A container's call of {@code Servlet.service} through the interface becomes a call of {@code
   * HttpGate.service(servlet, request, response)}, which asks the gate and then makes the call: the
   * same operands and no result, so no frame or local changes. It reaches servlets whose own class
   * no agent can weave: a lambda or a method reference registered as a servlet is a hidden class.
   */
  private static final class CallSites extends MethodVisitor {
    private final boolean[] woven;

    CallSites(MethodVisitor mv, boolean[] woven) {
      super(OpenedClassReader.ASM_API, mv);
      this.woven = woven;
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (opcode == Opcodes.INVOKEINTERFACE
          && name.equals("service")
          && (owner.equals("javax/servlet/Servlet") || owner.equals("jakarta/servlet/Servlet"))
          && isServiceDescriptor(descriptor)) {
        woven[0] = true;
        super.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            GATE,
            "service",
            "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)V",
            false);
        return;
      }
      if (opcode == Opcodes.INVOKEINTERFACE
          && name.equals("doFilter")
          && (owner.equals("javax/servlet/Filter") || owner.equals("jakarta/servlet/Filter"))
          && isFilterDescriptor(descriptor)) {
        woven[0] = true;
        super.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            GATE,
            "filter",
            "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)V",
            false);
        return;
      }
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
  }

  /**
   * {@code if (!HttpGate.pass(request, response)) return;} before a servlet's body, {@code
   * HttpGate.enter} before a filter's.
   */
  private static final class Prologue extends MethodVisitor {
    private final boolean frames;
    private final boolean filter;

    Prologue(MethodVisitor mv, boolean frames, boolean filter) {
      super(OpenedClassReader.ASM_API, mv);
      this.frames = frames;
      this.filter = filter;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      Label body = new Label();
      super.visitVarInsn(Opcodes.ALOAD, 1);
      super.visitVarInsn(Opcodes.ALOAD, 2);
      super.visitMethodInsn(
          Opcodes.INVOKESTATIC,
          GATE,
          filter ? "enter" : "pass",
          "(Ljava/lang/Object;Ljava/lang/Object;)Z",
          false);
      super.visitJumpInsn(Opcodes.IFNE, body);
      super.visitInsn(Opcodes.RETURN);
      super.visitLabel(body);
      if (frames) {
        super.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
      }
      super.visitInsn(Opcodes.NOP); // the body's own first frame, if any, is at the next offset
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      super.visitMaxs(Math.max(maxStack, 2), Math.max(maxLocals, filter ? 4 : 3));
    }
  }
}
