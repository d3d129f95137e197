package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.weave.Weaving;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.StandardMBean;

/**
 * The {@link LimiterMBean} of one {@link BucketLimiter}, with a description of each attribute (its
 * unit) for JConsole. Reads are live; writes are live changes through the limiter's one validation.
 * Thread-safe.
 */
final class LimiterBean extends StandardMBean implements LimiterMBean {
  private static final Map<String, String> DESCRIPTIONS = new HashMap<String, String>();

  static {
    DESCRIPTIONS.put("Rate", "permits per second; writable (a live change)");
    DESCRIPTIONS.put("Capacity", "permits: burst (token bucket), queue or level (leaky); writable");
    DESCRIPTIONS.put("DryRun", "true: count what would be limited, limit nothing; writable");
    DESCRIPTIONS.put("Kind", "token bucket, leaky bucket SHAPING or leaky bucket POLICING");
    DESCRIPTIONS.put("Scope", "local, or cluster and its backend's state");
    DESCRIPTIONS.put("AvailablePermits", "permits one call could take at once now");
    DESCRIPTIONS.put("Waiting", "calls waiting in Weir now");
    DESCRIPTIONS.put("Granted", "calls admitted since creation");
    DESCRIPTIONS.put("Rejected", "calls limited since creation");
    DESCRIPTIONS.put("Waited", "calls admitted after waiting since creation");
    DESCRIPTIONS.put("TotalWaitNanos", "nanoseconds admitted calls spent waiting");
    DESCRIPTIONS.put("WaitP50Millis", "median wait of the last 60 s, ms (calls that waited)");
    DESCRIPTIONS.put("WaitP99Millis", "99th percentile wait of the last 60 s, ms");
    DESCRIPTIONS.put("WaitMaxMillis", "longest wait of the last 60 s, ms");
    DESCRIPTIONS.put("Keys", "keys held now (per-key limiters)");
    DESCRIPTIONS.put(
        "Methods",
        "the methods whose calls it limits now: Class#method(params), @loader where not the"
            + " system loader");
    DESCRIPTIONS.put(
        "Unlimited",
        "config limits: what each pattern reached and could not limit, as PATTERN: METHOD: WHY");
    DESCRIPTIONS.put(
        "BackendFailures",
        "calls the cluster backend did not serve: failed, timed out, or made while it was down");
  }

  /**
   * What every limiter's MBean shows alike (attributes, their descriptions, operations), made by
   * the first: the JMX's own making of it is most of what registering an MBean costs, and ten
   * thousand limiters register at once. Racy but benign: two threads make equal templates.
   */
  private static volatile MBeanInfo template;

  private final BucketLimiter limiter;

  /** What each limiter covers; null in tests without weaving. */
  private final Weaving weaving;

  LimiterBean(BucketLimiter limiter, Weaving weaving) {
    super(LimiterMBean.class, false);
    this.limiter = limiter;
    this.weaving = weaving;
  }

  BucketLimiter limiter() {
    return limiter;
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    MBeanInfo shared = template;
    if (shared == null) {
      MBeanInfo own = super.getMBeanInfo(); // introspected, described, and cached for this bean
      template = own;
      return own;
    }
    MBeanInfo own = getCachedMBeanInfo();
    if (own == null) {
      own =
          new MBeanInfo(
              shared.getClassName(),
              getDescription(shared),
              shared.getAttributes(),
              shared.getConstructors(),
              shared.getOperations(),
              shared.getNotifications(),
              shared.getDescriptor());
      cacheMBeanInfo(own);
    }
    return own;
  }

  @Override
  protected String getDescription(MBeanInfo info) {
    return "Weir limiter '" + limiter.name() + "' of " + limiter.origin();
  }

  @Override
  protected String getDescription(MBeanAttributeInfo info) {
    String d = DESCRIPTIONS.get(info.getName());
    return d != null ? d : info.getDescription();
  }

  @Override
  public double getRate() {
    return limiter.bucket().permitsPerSecond();
  }

  @Override
  public void setRate(double permitsPerSecond) {
    limiter.setRate(permitsPerSecond);
  }

  @Override
  public long getCapacity() {
    return limiter.bucket().capacity();
  }

  @Override
  public void setCapacity(long capacity) {
    limiter.setCapacity(capacity);
  }

  @Override
  public boolean isDryRun() {
    return limiter.dryRun();
  }

  @Override
  public void setDryRun(boolean dryRun) {
    limiter.setDryRun(dryRun);
  }

  @Override
  public String getKind() {
    return limiter.kind();
  }

  @Override
  public String getScope() {
    return limiter.scope();
  }

  @Override
  public long getAvailablePermits() {
    return limiter.availablePermits();
  }

  @Override
  public int getWaiting() {
    return limiter.waiting();
  }

  @Override
  public long getGranted() {
    return limiter.granted();
  }

  @Override
  public long getRejected() {
    return limiter.rejected();
  }

  @Override
  public long getWaited() {
    return limiter.waited();
  }

  @Override
  public long getTotalWaitNanos() {
    return limiter.totalWaitNanos();
  }

  @Override
  public double getWaitP50Millis() {
    return limiter.waitMillisLastMinute()[0];
  }

  @Override
  public double getWaitP99Millis() {
    return limiter.waitMillisLastMinute()[1];
  }

  @Override
  public double getWaitMaxMillis() {
    return limiter.waitMillisLastMinute()[2];
  }

  @Override
  public long getKeys() {
    return limiter.keys();
  }

  @Override
  public long getBackendFailures() {
    return limiter.backendFailures();
  }

  @Override
  public String[] getMethods() {
    return weaving == null ? new String[0] : weaving.methodsOf(limiter).toArray(new String[0]);
  }

  @Override
  public String[] getUnlimited() {
    return weaving == null ? new String[0] : weaving.unlimitedOf(limiter).toArray(new String[0]);
  }
}
