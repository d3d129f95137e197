package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.limit.WeirBridge;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes woven classes of named modules (the JDK's, say {@code java.sql}) read the module of the
 * bridge, the bootstrap class loader's unnamed module: a named module reads no unnamed module by
 * default, and the woven code must reach {@link WeirBridge} and {@code RateLimitedException}.
 *
 * <p>Java 9 module APIs are reached by reflection (the agent is Java 8 bytecode); on Java 8 this
 * does nothing. Thread-safe.
 */
final class ModuleEdges {
  private final Instrumentation instrumentation;
  private final Object bridgeModule;
  private final Method getModule;
  private final Method isNamed;
  private final Method canRead;
  private final Method getPackages;
  private final Method redefineModule;
  private final Map<String, Object> namedModuleByPackage = new ConcurrentHashMap<String, Object>();
  private volatile Iterable<?> bootModules;

  private ModuleEdges(Instrumentation instrumentation) throws ReflectiveOperationException {
    this.instrumentation = instrumentation;
    Class<?> module = Class.forName("java.lang.Module");
    this.getModule = Class.class.getMethod("getModule");
    this.isNamed = module.getMethod("isNamed");
    this.canRead = module.getMethod("canRead", module);
    this.getPackages = module.getMethod("getPackages");
    this.redefineModule =
        Instrumentation.class.getMethod(
            "redefineModule", module, Set.class, Map.class, Map.class, Set.class, Map.class);
    this.bridgeModule = getModule.invoke(WeirBridge.class);
  }

  /**
   * Creates the helper for this JVM.
   *
   * @param instrumentation the JVM's instrumentation
   * @return the helper, or null on Java 8
   */
  static ModuleEdges create(Instrumentation instrumentation) {
    try {
      return new ModuleEdges(instrumentation);
    } catch (ReflectiveOperationException java8) {
      return null;
    }
  }

  /**
   * Lets a woven class's module read the bridge's module, if it is a named module that does not.
   *
   * @param loaded the class when it is being retransformed, else null
   * @param loader its class loader (null for the bootstrap loader)
   * @param internalName its internal name
   */
  void assureReadsBridge(Class<?> loaded, ClassLoader loader, String internalName) {
    try {
      Object module = loaded != null ? getModule.invoke(loaded) : jdkModule(loader, internalName);
      if (module == null
          || !(Boolean) isNamed.invoke(module)
          || (Boolean) canRead.invoke(module, bridgeModule)) {
        return;
      }
      redefineModule.invoke(
          instrumentation,
          module,
          Collections.singleton(bridgeModule),
          Collections.emptyMap(),
          Collections.emptyMap(),
          Collections.emptySet(),
          Collections.emptyMap());
    } catch (Exception e) {
      AgentLog.error(
          "could not let the module of "
              + internalName.replace('/', '.')
              + " read the agent's bridge; its limited methods will fail: "
              + e);
    }
  }

  /** The boot layer module holding the class's package, for classes of the JDK's loaders. */
  private Object jdkModule(ClassLoader loader, String internalName) throws Exception {
    if (loader != null && loader != ClassLoader.getSystemClassLoader().getParent()) {
      return null; // application loaders: classes of the class path, unnamed modules
    }
    int slash = internalName.lastIndexOf('/');
    String packageName = slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
    Object cached = namedModuleByPackage.get(packageName);
    if (cached != null) {
      return cached;
    }
    for (Object module : bootModules()) {
      if (((Set<?>) getPackages.invoke(module)).contains(packageName)) {
        namedModuleByPackage.put(packageName, module);
        return module;
      }
    }
    return null;
  }

  private Iterable<?> bootModules() throws Exception {
    Iterable<?> modules = bootModules;
    if (modules == null) {
      Class<?> layer = Class.forName("java.lang.ModuleLayer");
      Object boot = layer.getMethod("boot").invoke(null);
      modules = (Iterable<?>) layer.getMethod("modules").invoke(boot);
      bootModules = modules;
    }
    return modules;
  }
}
