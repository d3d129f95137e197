package dev.weir.agent.weave;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * What the weaver needs to know of a class file, read in one pass that skips code: its name, access
 * and version, and for each method its access, name, descriptor, the values written in its
 * {@code @TokenBucket} or {@code @LeakyBucket}, and which parameters carry {@code @LimitKey}.
 *
 * <p>Nothing is resolved: no other class file is read and no type is loaded, so a signature naming
 * a class that cannot be found (an optional dependency) changes nothing. An annotation's values are
 * those in the class file only; the annotation type's defaults are the weaver's business.
 *
 * <p>Immutable once read.
 */
final class ClassModel {
  static final String TOKEN_BUCKET = "Ldev/weir/TokenBucket;";
  static final String LEAKY_BUCKET = "Ldev/weir/LeakyBucket;";
  static final String LIMIT_KEY = "Ldev/weir/LimitKey;";
  static final String TOKEN_BUCKETS = "Ldev/weir/TokenBuckets;";
  static final String LEAKY_BUCKETS = "Ldev/weir/LeakyBuckets;";

  /** The types of package {@code dev.weir} this agent knows, as descriptors. */
  private static final List<String> KNOWN_API =
      Arrays.asList(
          "Ldev/weir/TokenBucket;",
          "Ldev/weir/LeakyBucket;",
          TOKEN_BUCKETS,
          LEAKY_BUCKETS,
          LIMIT_KEY,
          "Ldev/weir/OnLimit;",
          "Ldev/weir/RateLimitedException;",
          "Ldev/weir/LeakyBucket$Mode;");

  static final String INTRINSIC = "Ljdk/internal/vm/annotation/IntrinsicCandidate;";
  static final String HOTSPOT_INTRINSIC = "Ljdk/internal/HotSpotIntrinsicCandidate;";

  /** The class's internal name, {@code a/b/C$D}. */
  final String internalName;

  /** The class's binary name, {@code a.b.C$D}. */
  final String name;

  /** The class's access flags; {@link Opcodes#ACC_INTERFACE} for an interface. */
  final int access;

  /** The class file's major version (49 for Java 5, 52 for Java 8). */
  final int majorVersion;

  /** The methods in class file order. */
  final List<MethodModel> methods;

  /** The superclass's internal name; null for {@code java/lang/Object} (and module-info). */
  final String superName;

  /** The direct interfaces' internal names. */
  final String[] interfaces;

  private ClassModel(
      String internalName,
      int access,
      int majorVersion,
      List<MethodModel> methods,
      String superName,
      String[] interfaces) {
    this.internalName = internalName;
    this.name = internalName.replace('/', '.');
    this.access = access;
    this.majorVersion = majorVersion;
    this.methods = Collections.unmodifiableList(methods);
    this.superName = superName;
    this.interfaces = interfaces == null ? new String[0] : interfaces;
  }

  /**
   * Reads a class file.
   *
   * @param classFile a reader of the class file
   * @return its model
   * @throws RuntimeException (from ASM) if the class file is malformed
   */
  static ClassModel read(ClassReader classFile) {
    Reader reader = new Reader();
    classFile.accept(
        reader, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ClassModel(
        reader.internalName,
        reader.access,
        reader.major,
        reader.methods,
        reader.superName,
        reader.interfaces);
  }

  /**
   * The method of this name and descriptor the class declares.
   *
   * @param key name and descriptor, {@code run(I)I}
   * @return the method, or null if the class declares none
   */
  MethodModel declared(String key) {
    for (MethodModel method : methods) {
      if (method.key().equals(key)) {
        return method;
      }
    }
    return null;
  }

  boolean isInterface() {
    return (access & Opcodes.ACC_INTERFACE) != 0;
  }

  /**
   * A method of this class for messages.
   *
   * @param method one of {@link #methods}
   * @return {@code com.acme.Outer$Inner#send(int)}
   */
  String origin(MethodModel method) {
    return name + "#" + method.name + method.parameterList();
  }

  /** Whether the class file may carry stack map frames (Java 6, major version 50, and later). */
  boolean hasFrames() {
    return majorVersion >= Opcodes.V1_6;
  }

  /** One method of the class file. */
  static final class MethodModel {
    final int access;
    final String name;
    final String descriptor;
    final Type[] parameterTypes;
    final Type returnType;

    /** The generic signature, or null. */
    String signature;

    /** The internal names of the exceptions it declares, or null. */
    String[] exceptions;

    /**
     * The method's limit annotations in the order written, repeated ones (their containers)
     * included: each {@code {descriptor, values}}, the descriptor {@link #TOKEN_BUCKET} or {@link
     * #LEAKY_BUCKET}.
     */
    final List<LimitAnnotation> limits = new ArrayList<LimitAnnotation>(1);

    /**
     * An annotation of package {@code dev.weir} that this agent does not know (an API jar newer
     * than the agent), as its descriptor; null if none.
     */
    String unknownApi;

    /**
     * Whether the JDK marks the method as a JIT intrinsic ({@code @IntrinsicCandidate}, or
     * {@code @HotSpotIntrinsicCandidate} on JDK 9 to 15): compiled code may run the JVM's own
     * version of it instead of its bytecode, a woven limit included.
     */
    boolean intrinsic;

    /** The indexes of the parameters that carry {@code @LimitKey}, in order. */
    final List<Integer> limitKeys = new ArrayList<Integer>(1);

    /**
     * Why the parameter annotations cannot be mapped onto the descriptor's parameters, or null when
     * they can: a constructor of a local or anonymous class may have compiler-added parameters at
     * either end (the outer instance first, captured variables last), and its class file does not
     * say which.
     */
    String unmappedParameters;

    MethodModel(int access, String name, String descriptor) {
      this.access = access;
      this.name = name;
      this.descriptor = descriptor;
      this.parameterTypes = Type.getArgumentTypes(descriptor);
      this.returnType = Type.getReturnType(descriptor);
    }

    /** The method's key in a plan: name and descriptor, {@code run(I)I}. */
    String key() {
      return name + descriptor;
    }

    boolean is(int flag) {
      return (access & flag) != 0;
    }

    boolean isStatic() {
      return is(Opcodes.ACC_STATIC);
    }

    boolean isConstructor() {
      return name.equals("<init>");
    }

    boolean carriesLimit() {
      return !limits.isEmpty() || unknownApi != null;
    }

    /** The parameter types as Java source names: {@code int}, {@code java.lang.String[]}. */
    List<String> parameterNames() {
      List<String> names = new ArrayList<String>(parameterTypes.length);
      for (Type t : parameterTypes) {
        names.add(t.getClassName());
      }
      return names;
    }

    /** {@code (int,java.lang.String)}. */
    String parameterList() {
      return "(" + String.join(",", parameterNames()) + ")";
    }

    /** The local variable slot of parameter {@code index} ({@code this} is slot 0 if any). */
    int slotOf(int index) {
      int slot = isStatic() ? 0 : 1;
      for (int i = 0; i < index; i++) {
        slot += parameterTypes[i].getSize();
      }
      return slot;
    }

    /** The slots the arguments take, {@code this} included. */
    int argumentsSize() {
      return slotOf(parameterTypes.length);
    }
  }

  private static final class Reader extends ClassVisitor {
    String internalName;
    int access;
    int major;
    String superName;
    String[] interfaces;
    final List<MethodModel> methods = new ArrayList<MethodModel>();

    /** Whether the class is local or anonymous (it has an EnclosingMethod attribute). */
    boolean localOrAnonymous;

    /** Whether the class is an inner class: a member class that is not static. */
    boolean innerMember;

    Reader() {
      super(OpenedClassReader.ASM_API);
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.internalName = name;
      this.access = access;
      this.major = version & 0xFFFF;
      this.superName = superName;
      this.interfaces = interfaces;
    }

    @Override
    public void visitOuterClass(String owner, String name, String descriptor) {
      localOrAnonymous = true;
    }

    @Override
    public void visitInnerClass(String name, String outerName, String innerName, int access) {
      if (name.equals(internalName) && outerName != null) {
        innerMember = (access & Opcodes.ACC_STATIC) == 0;
      }
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      final MethodModel method = new MethodModel(access, name, descriptor);
      method.signature = signature;
      method.exceptions = exceptions;
      methods.add(method);
      return new MethodVisitor(OpenedClassReader.ASM_API) {
        // JVMS 4.7.18: the parameter annotation attributes may count fewer parameters than the
        // descriptor, and do not say which are left out. Known: an inner class constructor's outer
        // instance and an enum constructor's name and ordinal lead (as Constructor#
        // getParameterAnnotations also assumes); anything else is not mapped
        private int visibleShift;
        private int invisibleShift;

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
          if (descriptor.equals(TOKEN_BUCKETS) || descriptor.equals(LEAKY_BUCKETS)) {
            return container(method);
          }
          if (mentionsLimit(descriptor)) {
            return limit(method, descriptor); // a limit, or an API type newer than the agent
          }
          if (descriptor.equals(INTRINSIC) || descriptor.equals(HOTSPOT_INTRINSIC)) {
            method.intrinsic = true;
          }
          return null;
        }

        @Override
        public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
          int shift = Math.max(0, method.parameterTypes.length - parameterCount);
          boolean known =
              shift == 0
                  || (method.isConstructor()
                      && !localOrAnonymous
                      && ((shift == 1 && innerMember)
                          || (shift == 2 && (Reader.this.access & Opcodes.ACC_ENUM) != 0)));
          if (!known) {
            method.unmappedParameters =
                "its class file annotates "
                    + parameterCount
                    + " of its "
                    + method.parameterTypes.length
                    + " parameters without saying which"
                    + (localOrAnonymous
                        ? " (the compiler adds the outer instance and captured variables to a local"
                            + " or anonymous class's constructor)"
                        : "");
          }
          if (visible) {
            visibleShift = shift;
          } else {
            invisibleShift = shift;
          }
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(
            int parameter, String descriptor, boolean visible) {
          if (descriptor.equals(LIMIT_KEY)) {
            method.limitKeys.add(parameter + (visible ? visibleShift : invisibleShift));
          }
          return null;
        }
      };
    }
  }

  /** Collects an annotation's element values; an enum constant is kept as its name. */
  /** A limit annotation of a method: its type's descriptor and the values written. */
  static final class LimitAnnotation {
    final String descriptor;
    final Map<String, Object> values = new HashMap<String, Object>();

    LimitAnnotation(String descriptor) {
      this.descriptor = descriptor;
    }

    /** As messages name it: {@code @TokenBucket} or {@code @LeakyBucket}. */
    String kind() {
      return descriptor.equals(TOKEN_BUCKET) ? "@TokenBucket" : "@LeakyBucket";
    }
  }

  /** Reads a container of repeated limits, {@code value = {@X(...), ...}}, into the method's. */
  private static AnnotationVisitor container(final MethodModel method) {
    return new AnnotationVisitor(OpenedClassReader.ASM_API) {
      @Override
      public AnnotationVisitor visitArray(String name) {
        return new AnnotationVisitor(OpenedClassReader.ASM_API) {
          @Override
          public AnnotationVisitor visitAnnotation(String unnamed, String element) {
            return limit(method, element);
          }
        };
      }
    };
  }

  /** Records a limit annotation of the method (or an unknown one inside a container). */
  private static AnnotationVisitor limit(MethodModel method, String descriptor) {
    if (!descriptor.equals(TOKEN_BUCKET) && !descriptor.equals(LEAKY_BUCKET)) {
      if (method.unknownApi == null && isUnknownApi(descriptor)) {
        method.unknownApi = descriptor;
      }
      return null;
    }
    LimitAnnotation a = new LimitAnnotation(descriptor);
    method.limits.add(a);
    return new Values(a.values);
  }

  /**
   * Whether a descriptor found in a class file means the class may carry a limit: a limit
   * annotation, a container of repeated ones, or an API type newer than this agent.
   *
   * @param descriptor a type descriptor, {@code Ldev/weir/X;}
   * @return true if the class must be read
   */
  static boolean mentionsLimit(String descriptor) {
    return descriptor.equals(TOKEN_BUCKET)
        || descriptor.equals(LEAKY_BUCKET)
        || descriptor.equals(TOKEN_BUCKETS)
        || descriptor.equals(LEAKY_BUCKETS)
        || isUnknownApi(descriptor);
  }

  /**
   * Whether a descriptor names a type of package {@code dev.weir} itself (not a sub-package) that
   * this agent does not know.
   *
   * @param descriptor an annotation's type descriptor
   * @return true for an API type newer than the agent
   */
  static boolean isUnknownApi(String descriptor) {
    return descriptor.startsWith("Ldev/weir/")
        && descriptor.indexOf('/', "Ldev/weir/".length()) < 0
        && !KNOWN_API.contains(descriptor);
  }

  private static final class Values extends AnnotationVisitor {
    private final Map<String, Object> values;

    Values(Map<String, Object> values) {
      super(OpenedClassReader.ASM_API);
      this.values = values;
    }

    @Override
    public void visit(String name, Object value) {
      values.put(name, value);
    }

    @Override
    public void visitEnum(String name, String descriptor, String value) {
      values.put(name, new EnumValue(descriptor, value));
    }

    @Override
    public AnnotationVisitor visitArray(String name) {
      values.put(name, new Object[0]); // no limit attribute is an array: read as a wrong type
      return null;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String name, String descriptor) {
      values.put(name, Type.getType(descriptor)); // nor an annotation
      return null;
    }
  }

  /** An enum constant written in an annotation. */
  static final class EnumValue {
    final String typeDescriptor;
    final String constant;

    EnumValue(String typeDescriptor, String constant) {
      this.typeDescriptor = typeDescriptor;
      this.constant = constant;
    }

    @Override
    public String toString() {
      return Type.getType(typeDescriptor).getClassName() + "." + constant;
    }
  }
}
