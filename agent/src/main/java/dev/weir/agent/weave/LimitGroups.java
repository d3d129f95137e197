package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimitGroup;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import java.util.List;

/**
 * Binds a method that several limits apply to (repeated annotations, config patterns that meet on
 * it, a pattern that reaches an annotated method) to one {@link LimitGroup}, registered for the
 * method's class loader: its prologue calls the group, which decides every limit together (SPEC,
 * "Several limits on one method").
 *
 * <p>The members must agree on what the prologue passes: one key parameter for the keyed ones
 * (keyless members beside them are fine), and one fallback. A member that is refused refuses the
 * method (it fails closed).
 *
 * <p>Stateless and thread-safe.
 */
final class LimitGroups {
  private LimitGroups() {}

  /**
   * The binding of a method with several limits.
   *
   * @param members the members' bindings, at least two, annotated ones first
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @param loader the method's class loader (null for the bootstrap loader)
   * @return the group's binding, or the refusal of the method
   */
  static Binding bind(List<Binding> members, String origin, ClassLoader loader) {
    int n = members.size();
    int[] ids = new int[n];
    boolean[] keyed = new boolean[n];
    boolean[] config = new boolean[n];
    StringBuilder name = new StringBuilder();
    Binding keyedBy = null;
    Binding fallbackOf = null;
    for (int i = 0; i < n; i++) {
      Binding b = members.get(i);
      if (b.refused) {
        return b;
      }
      String problem = problem(b, keyedBy, origin);
      if (problem != null) {
        return Binding.refuse(b.name, origin, problem, loader);
      }
      if (b.keyIndex >= 0) {
        keyedBy = b;
      }
      if (b.fallback != null) {
        fallbackOf = b;
      }
      ids[i] = b.id;
      keyed[i] = b.keyIndex >= 0;
      config[i] = b.outermostOnly;
      name.append(i == 0 ? "" : " + ").append(b.name);
    }
    LimitGroup group = new LimitGroup(name.toString(), origin, ids, keyed, config);
    Binding binding = new Binding(LimiterRegistry.add(group, loader), name.toString());
    binding.group = true;
    binding.members = members;
    for (boolean c : config) {
      binding.outermostOnly |= c;
    }
    binding.keyIndex = keyedBy == null ? -1 : keyedBy.keyIndex;
    if (fallbackOf != null) {
      binding.fallback = fallbackOf.fallback;
      binding.fallbackTakesException = fallbackOf.fallbackTakesException;
    }
    return binding;
  }

  /** Why a member cannot join the method's group, or null: a warm-up, or another key parameter. */
  private static String problem(Binding b, Binding keyedBy, String origin) {
    Limiter limiter = LimiterRegistry.limiter(b.id);
    if (limiter instanceof BucketLimiter && ((BucketLimiter) limiter).bucket().warmUpNanos() > 0) {
      return "cannot limit "
          + origin
          + ": '"
          + b.name
          + "' has warmUpMillis, which a method with several limits does not support yet";
    }
    if (b.keyIndex >= 0 && keyedBy != null && keyedBy.keyIndex != b.keyIndex) {
      return "cannot limit "
          + origin
          + ": its limits '"
          + keyedBy.name
          + "' and '"
          + b.name
          + "' key by different parameters ("
          + keyedBy.keyIndex
          + " and "
          + b.keyIndex
          + "); the limits of one method key by one parameter";
    }
    return null;
  }
}
