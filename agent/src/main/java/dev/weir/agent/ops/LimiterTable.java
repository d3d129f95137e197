package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.management.ObjectName;
import javax.management.openmbean.ArrayType;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

/**
 * Every limiter MBean's scalar attributes in one open-type value, for a client that shows them all
 * at once (the command line's {@code status} and {@code top}): one exchange for 10,000 limiters,
 * where reading each MBean is one exchange each. Column by column rather than row by row, as the
 * columns of 10,000 rows are a few hundred kilobytes where 10,000 composites are megabytes.
 *
 * <p>Item {@code MBean} ({@code String[]}) holds each limiter's MBean name, sorted as strings; each
 * other item is named as the limiter MBean's attribute and holds its value for the limiter of the
 * same index: {@code Kind} and {@code Scope} ({@code String[]}), {@code Rate}, {@code
 * WaitP50Millis}, {@code WaitP99Millis}, {@code WaitMaxMillis} ({@code double[]}), {@code
 * Capacity}, {@code AvailablePermits}, {@code Granted}, {@code Rejected}, {@code Waited}, {@code
 * TotalWaitNanos}, {@code Keys}, {@code BackendFailures} ({@code long[]}), {@code Waiting} ({@code
 * int[]}), {@code DryRun} ({@code boolean[]}). Each value is read as {@link LimiterBean}'s getter
 * reads it (guarded by {@code LimiterTableTest.eachColumnReadsAsTheMBeans}); the limiters are read
 * one after another, not at one instant. Thread-safe: it reads only thread-safe state.
 */
final class LimiterTable {
  private static final CompositeType TYPE = type(columns(new TreeMap<String, BucketLimiter>()));

  private LimiterTable() {}

  /**
   * The table of these limiters.
   *
   * @param beans the limiters and their MBean names ({@link Management#limiterBeans})
   * @return the table, a row per {@link BucketLimiter}
   */
  static CompositeData of(Map<Limiter, ObjectName> beans) {
    TreeMap<String, BucketLimiter> sorted = new TreeMap<String, BucketLimiter>();
    for (Map.Entry<Limiter, ObjectName> e : beans.entrySet()) {
      if (e.getKey() instanceof BucketLimiter) {
        sorted.put(e.getValue().toString(), (BucketLimiter) e.getKey());
      }
    }
    try {
      return new CompositeDataSupport(TYPE, columns(sorted));
    } catch (OpenDataException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The columns, by item name, in the table's order. */
  private static Map<String, Object> columns(TreeMap<String, BucketLimiter> limiters) {
    int n = limiters.size();
    Map<String, Object> columns = new LinkedHashMap<String, Object>();
    String[] mbean = column(columns, "MBean", new String[n]);
    String[] kind = column(columns, "Kind", new String[n]);
    String[] scope = column(columns, "Scope", new String[n]);
    double[] rate = column(columns, "Rate", new double[n]);
    long[] capacity = column(columns, "Capacity", new long[n]);
    boolean[] dryRun = column(columns, "DryRun", new boolean[n]);
    long[] available = column(columns, "AvailablePermits", new long[n]);
    int[] waiting = column(columns, "Waiting", new int[n]);
    long[] granted = column(columns, "Granted", new long[n]);
    long[] rejected = column(columns, "Rejected", new long[n]);
    long[] waited = column(columns, "Waited", new long[n]);
    long[] totalWaitNanos = column(columns, "TotalWaitNanos", new long[n]);
    double[] p50 = column(columns, "WaitP50Millis", new double[n]);
    double[] p99 = column(columns, "WaitP99Millis", new double[n]);
    double[] max = column(columns, "WaitMaxMillis", new double[n]);
    long[] keys = column(columns, "Keys", new long[n]);
    long[] backendFailures = column(columns, "BackendFailures", new long[n]);
    int i = 0;
    for (Map.Entry<String, BucketLimiter> e : limiters.entrySet()) {
      BucketLimiter l = e.getValue();
      mbean[i] = e.getKey();
      kind[i] = l.kind();
      scope[i] = l.scope();
      rate[i] = l.bucket().permitsPerSecond();
      capacity[i] = l.bucket().capacity();
      dryRun[i] = l.dryRun();
      available[i] = l.availablePermits();
      waiting[i] = l.waiting();
      granted[i] = l.granted();
      rejected[i] = l.rejected();
      waited[i] = l.waited();
      totalWaitNanos[i] = l.totalWaitNanos();
      double[] waits = l.waitMillisLastMinute();
      p50[i] = waits[0];
      p99[i] = waits[1];
      max[i] = waits[2];
      keys[i] = l.keys();
      backendFailures[i] = l.backendFailures();
      i++;
    }
    return columns;
  }

  /** Adds a column, in order, and gives its array back to be filled. */
  private static <T> T column(Map<String, Object> columns, String name, T values) {
    columns.put(name, values);
    return values;
  }

  /** The open type of these columns: an array type per column, of its values' type. */
  private static CompositeType type(Map<String, Object> columns) {
    String[] names = columns.keySet().toArray(new String[0]);
    String[] descriptions = new String[names.length];
    OpenType<?>[] types = new OpenType<?>[names.length];
    try {
      for (int i = 0; i < names.length; i++) {
        Class<?> array = columns.get(names[i]).getClass();
        types[i] =
            array == String[].class
                ? new ArrayType<String[]>(1, SimpleType.STRING)
                : ArrayType.getPrimitiveArrayType(array);
        descriptions[i] =
            i == 0
                ? "each limiter's MBean name, sorted as strings"
                : "each limiter's " + names[i] + ", as its MBean's attribute";
      }
      return new CompositeType(
          "dev.weir.LimiterTable",
          "every limiter MBean's scalar attributes, a column per attribute",
          names,
          descriptions,
          types);
    } catch (OpenDataException e) {
      throw new IllegalStateException(e);
    }
  }
}
