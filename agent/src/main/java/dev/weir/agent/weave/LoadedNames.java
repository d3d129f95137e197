package dev.weir.agent.weave;

/**
 * Whether a class may be loaded already, as a loader sees it: for a {@code Type+} pattern's subtype
 * that inherits an implementation from an ancestor. An ancestor that has not loaded yet loads right
 * after the subtype (the JVM hands a class to the transformer before it loads its supertypes) and
 * is woven then; one loaded already can only be woven again by retransformation, which cannot
 * happen from inside a class load, so the subtype gains an override of its own instead.
 */
interface LoadedNames {
  /** Without the JVM's instrumentation (in-process tests): anything may be loaded. */
  LoadedNames UNKNOWN =
      new LoadedNames() {
        @Override
        public boolean mayBeLoaded(ClassLoader loader, String internalName) {
          return true;
        }
      };

  /**
   * Whether the class of this name, as {@code loader} resolves it, may be loaded already.
   *
   * @param loader the loader that resolves the name (the subtype's), null for the bootstrap loader
   * @param internalName the class
   * @return false only if it is certainly not loaded
   */
  boolean mayBeLoaded(ClassLoader loader, String internalName);
}
