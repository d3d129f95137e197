package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.control.KeyTypes;
import dev.weir.agent.weave.ClassModel.MethodModel;
import net.bytebuddy.jar.asm.Type;

/**
 * The binding of a method that a config entry's pattern reaches: charged only by the outermost call
 * of the limit on a thread, keyed by the entry's parameter where the method has it, refused where
 * the key would be an identity string.
 *
 * <p>Stateless and thread-safe.
 */
final class ConfigBinding {
  private ConfigBinding() {}

  /**
   * The binding of a method a config entry limits: only the outermost call of the limit on a thread
   * is charged; keyed by the entry's parameter if the method has it.
   */
  static Binding of(
      ConfigLimits.Entry entry, MethodModel method, String origin, ClassLoader loader) {
    Binding binding = new Binding(entry.id, entry.name);
    binding.outermostOnly = true;
    if (entry.keyIndex >= method.parameterTypes.length) {
      AgentLog.warn(
          origin
              + " matches "
              + source(entry)
              + " but has no parameter "
              + entry.keyIndex
              + " to key by: its calls share one bucket of '"
              + entry.name
              + "'");
    } else if (entry.keyIndex >= 0) {
      binding.keyIndex = entry.keyIndex;
      Type keyType = method.parameterTypes[entry.keyIndex];
      KeyTypes.Verdict verdict = KeyTypes.judge(keyType, loader);
      if (verdict == KeyTypes.Verdict.IDENTITY) {
        binding =
            Binding.refuse(
                entry.name,
                origin,
                entry.origin
                    + ": cannot limit "
                    + origin
                    + " as "
                    + source(entry)
                    + ": its key, parameter "
                    + entry.keyIndex
                    + ", is "
                    + KeyTypes.identityProblem(keyType),
                loader);
      } else if (verdict == KeyTypes.Verdict.AT_RUN_TIME) {
        binding.keyedAtRunTime(entry.keyIndex, keyType, origin);
      }
    }
    return binding;
  }

  /** The entry as messages name it: {@code 'name' (pattern)}. */
  static String source(ConfigLimits.Entry entry) {
    return "'" + entry.name + "' (config: " + entry.pattern + ")";
  }
}
