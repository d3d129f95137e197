package dev.weir.agent.cli;

import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;

/**
 * The command line, {@code java -jar weir-agent.jar COMMAND}: reads and steers the limiters of a
 * local JVM running Weir through its MBeans, over the JDK's local management connector (no agent is
 * loaded, except by {@code attach}). Runs on JDK 9 or later.
 *
 * <p>Exit status: 0; 1 when the command failed, with one line naming the problem (for {@code
 * reload} and {@code attach}, every error, one per line); 2 with the usage for a bad command line.
 */
public final class WeirCommand {
  static final String USAGE =
      String.join(
          "\n",
          "usage: java -jar weir-agent.jar COMMAND",
          "  list                      the local JVMs running Weir (LIMITERS is '?' where they",
          "                            were not read in time, 'no answer' for a JVM that did not",
          "                            answer: stopped, or busy)",
          "  status PID                PID's limiters",
          "  top PID                   the same each second, with rates per second (Ctrl-C stops)",
          "  set PID LIMITER [rate=PERMITS_PER_SECOND] [capacity=PERMITS] [dryRun=true|false]",
          "                            a live change",
          "  reload PID                re-read PID's config file; print what changed, or every error",
          "  methods PID [LIMITER]     what each limiter (or LIMITER) limits now, and what its",
          "                            patterns reached but could not limit, and why",
          "  attach PID [ARGS]         load the agent into PID with ARGS (config=...,log=...)");

  private static final String AGENT = "dev.weir:type=Agent";
  private static final String LIMITERS = "dev.weir:type=Limiter,*";

  /**
   * Milliseconds after this JVM's start by which {@code list} answers, however many JVMs are slow;
   * it asks for {@link #LIST_MIN_MILLIS} at least, however slowly this JVM started.
   */
  static final long LIST_MILLIS = 1_500;

  /** Milliseconds {@code list} waits for answers at least. */
  static final long LIST_MIN_MILLIS = 500;

  /** {@code list}'s LIMITERS for a JVM that did not answer in time, or is stopped. */
  static final String NO_ANSWER = "no answer";

  /** {@code list}'s LIMITERS for a JVM that runs Weir but whose MBeans did not answer in time. */
  static final String NOT_READ = "?";

  private final PrintStream out;
  private final PrintStream err;

  WeirCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** A bad command line: the usage is printed and the status is 2. */
  static final class Usage extends Exception {
    private static final long serialVersionUID = 1L;

    Usage(String message) {
      super(message);
    }
  }

  /**
   * Runs a command.
   *
   * @param args the command and its arguments
   */
  public static void main(String[] args) {
    System.exit(new WeirCommand(System.out, System.err).run(args));
  }

  int run(String[] args) {
    try {
      if (args.length == 0) {
        throw new Usage("no command");
      }
      String command = args[0];
      List<String> rest = Arrays.asList(args).subList(1, args.length);
      if (command.equals("list")) {
        expect(rest, 0, 0);
        return list();
      }
      if (command.equals("status")) {
        expect(rest, 1, 1);
        return status(pid(rest.get(0)));
      }
      if (command.equals("top")) {
        expect(rest, 1, 1);
        return top(pid(rest.get(0)));
      }
      if (command.equals("set")) {
        expect(rest, 3, 5);
        return set(pid(rest.get(0)), rest.get(1), changes(rest.subList(2, rest.size())));
      }
      if (command.equals("reload")) {
        expect(rest, 1, 1);
        return reload(pid(rest.get(0)));
      }
      if (command.equals("methods")) {
        expect(rest, 1, 2);
        return methods(pid(rest.get(0)), rest.size() > 1 ? rest.get(1) : null);
      }
      if (command.equals("attach")) {
        expect(rest, 1, 2);
        return attach(pid(rest.get(0)), rest.size() > 1 ? rest.get(1) : null);
      }
      if (command.equals("help") || command.equals("--help") || command.equals("-h")) {
        out.println(USAGE);
        return 0;
      }
      throw new Usage("unknown command '" + command + "'");
    } catch (Usage e) {
      err.println("weir: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (Jvm.Failure e) {
      err.println("weir: " + e.getMessage());
      return 1;
    }
  }

  private static void expect(List<String> rest, int min, int max) throws Usage {
    if (rest.size() < min) {
      throw new Usage("missing arguments");
    }
    if (rest.size() > max) {
      throw new Usage("too many arguments: " + rest.subList(max, rest.size()));
    }
  }

  private static String pid(String text) throws Usage {
    if (!text.matches("[0-9]+")) {
      throw new Usage("PID must be a process id (a whole number), was '" + text + "'");
    }
    return text;
  }

  /**
   * {@code list}: asks every JVM the JDK lists at once, and waits for their answers until {@link
   * #LIST_MILLIS} after this JVM started; one that has not answered by then (or is stopped) is
   * listed as not answering, whether or not it runs Weir; one that runs Weir and has not told its
   * number of limiters by then shows {@link #NOT_READ}.
   */
  private int list() throws Jvm.Failure {
    String self = selfPid();
    Map<Jvm.Listed, Future<String>> asked = new LinkedHashMap<Jvm.Listed, Future<String>>();
    final Map<Jvm.Listed, AtomicReference<String>> known =
        new HashMap<Jvm.Listed, AtomicReference<String>>();
    for (final Jvm.Listed jvm : Jvm.list()) {
      if (!jvm.pid.equals(self)) {
        final AtomicReference<String> soFar = new AtomicReference<String>(NO_ANSWER);
        known.put(jvm, soFar);
        asked.put(
            jvm,
            Jvm.async(
                new Callable<String>() {
                  @Override
                  public String call() {
                    return limiters(jvm, soFar);
                  }
                }));
      }
    }
    long uptimeMillis = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    long deadline =
        System.nanoTime()
            + TimeUnit.MILLISECONDS.toNanos(
                Math.max(LIST_MIN_MILLIS, LIST_MILLIS - Math.max(0, uptimeMillis)));
    List<String[]> rows = new ArrayList<String[]>();
    for (Map.Entry<Jvm.Listed, Future<String>> e : asked.entrySet()) {
      String count;
      try {
        count = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException late) {
        count = known.get(e.getKey()).get();
      } catch (ExecutionException | InterruptedException | RuntimeException failed) {
        count = null;
      }
      if (count != null) {
        String name = e.getKey().name;
        rows.add(new String[] {e.getKey().pid, name.isEmpty() ? "?" : name.split(" ")[0], count});
      }
    }
    out.println(String.format(Locale.ROOT, "%-8s %-60s %9s", "PID", "MAIN CLASS", "LIMITERS"));
    for (String[] row : rows) {
      out.println(String.format(Locale.ROOT, "%-8s %-60s %9s", row[0], row[1], row[2]));
    }
    return 0;
  }

  /**
   * A listed JVM's number of limiters, read from its system properties with Weir's version (so
   * listing a JVM starts nothing in it: no management agent, no logging); {@link #NO_ANSWER}; or
   * null if it runs no Weir, or has ended, or cannot be attached to.
   *
   * @param soFar set to {@link #NOT_READ} once the JVM is known to run Weir, then to the answer
   */
  private static String limiters(Jvm.Listed listed, AtomicReference<String> soFar) {
    try (Jvm target = Jvm.open(listed)) {
      java.util.Properties properties = target.systemProperties();
      if (properties.getProperty(Jvm.MARKER) == null) {
        return null;
      }
      String told = properties.getProperty(Jvm.LIMITERS);
      if (told != null) {
        return told; // read with the version: no management agent is started in the JVM
      }
      soFar.set(NOT_READ); // an agent that tells no count (an older one): asked through its MBeans
      try {
        String[] names = (String[]) target.mbeans().getAttribute(agent(), "Limiters");
        soFar.set(String.valueOf(names.length)); // told, whether or not the close ends in time
      } catch (Jvm.NoAnswer e) {
        soFar.set(NO_ANSWER);
      } catch (Exception e) {
        soFar.set("0"); // no MBeans yet: they come with the first limiter or config file
      }
      return soFar.get();
    } catch (Jvm.Failure e) {
      return e.noAnswer ? NO_ANSWER : null;
    }
  }

  private static String selfPid() {
    String name = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
    int at = name.indexOf('@');
    return at > 0 ? name.substring(0, at) : name;
  }

  private static ObjectName agent() {
    try {
      return new ObjectName(AGENT);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Attaches and checks that Weir runs there; the caller closes it. */
  private static Jvm weir(String pid) throws Jvm.Failure {
    Jvm jvm = Jvm.attach(pid);
    try {
      if (jvm.weirVersion() == null) {
        throw new Jvm.Failure(
            "JVM "
                + pid
                + " runs no Weir agent (load one: java -jar weir-agent.jar attach "
                + pid
                + ")");
      }
      MBeanServerConnection mbeans = jvm.mbeans();
      for (int i = 0; i < 40 && !mbeans.isRegistered(agent()); i++) {
        Thread.sleep(50); // started a moment ago: its MBeans come within a second
      }
      if (!mbeans.isRegistered(agent())) {
        throw new Jvm.Failure(
            "JVM "
                + pid
                + " runs Weir with no limiter yet and no config file, so it shows no MBeans"
                + " (or an application log manager that has not loaded yet holds them back)");
      }
      return jvm;
    } catch (Exception e) {
      jvm.close();
      throw Jvm.failure(pid, e);
    }
  }

  /** One limiter's row: the attributes the table shows. */
  static final class Row {
    final String name;
    final String kind;
    final boolean dryRun;
    final double rate;
    final long capacity;
    final long available;
    final long granted;
    final long rejected;
    final long waited;
    final double p99WaitMillis;

    /** The row of limiter {@code i} of a {@code limiterTable()}, whose columns are given. */
    Row(
        String name,
        int i,
        String[] kind,
        boolean[] dryRun,
        double[] rate,
        long[][] counts,
        double[] p99WaitMillis) {
      this.name = name;
      this.kind = kind[i];
      this.dryRun = dryRun[i];
      this.rate = rate[i];
      this.capacity = counts[0][i];
      this.available = counts[1][i];
      this.granted = counts[2][i];
      this.rejected = counts[3][i];
      this.waited = counts[4][i];
      this.p99WaitMillis = p99WaitMillis[i];
    }
  }

  /** The long columns a row takes, in {@link Row}'s order. */
  private static final String[] COUNTS = {
    "Capacity", "AvailablePermits", "Granted", "Rejected", "Waited"
  };

  /**
   * Every limiter's row, in one exchange: the agent's {@code limiterTable()}, a column per
   * attribute (so 10,000 limiters are one call, not one per MBean).
   */
  static List<Row> rows(MBeanServerConnection mbeans) throws Exception {
    CompositeData table;
    try {
      table = (CompositeData) mbeans.invoke(agent(), "limiterTable", new Object[0], new String[0]);
    } catch (ReflectionException older) {
      throw new Jvm.Failure(
          "this JVM's Weir is older than this command line and cannot give its limiter table:"
              + " use the weir-agent.jar the JVM runs");
    }
    String[] names = (String[]) table.get("MBean");
    String[] kind = (String[]) table.get("Kind");
    boolean[] dryRun = (boolean[]) table.get("DryRun");
    double[] rate = (double[]) table.get("Rate");
    double[] p99 = (double[]) table.get("WaitP99Millis");
    long[][] counts = new long[COUNTS.length][];
    for (int c = 0; c < COUNTS.length; c++) {
      counts[c] = (long[]) table.get(COUNTS[c]);
    }
    List<Row> rows = new ArrayList<Row>(names.length);
    for (int i = 0; i < names.length; i++) {
      rows.add(new Row(label(names[i]), i, kind, dryRun, rate, counts, p99));
    }
    Collections.sort(
        rows,
        new Comparator<Row>() {
          @Override
          public int compare(Row a, Row b) {
            return a.name.compareTo(b.name);
          }
        });
    return rows;
  }

  /**
   * {@link #label(ObjectName)} of a name in its string form, without parsing one where no value is
   * quoted: an unquoted value holds no comma, so the key list splits at commas (parsing 10,000
   * names took a fifth of a second).
   */
  static String label(String mbean) throws MalformedObjectNameException {
    if (mbean.indexOf('"') >= 0) {
      return label(new ObjectName(mbean));
    }
    String name = null;
    String loader = null;
    for (String pair : mbean.substring(mbean.indexOf(':') + 1).split(",")) {
      if (pair.startsWith("name=")) {
        name = pair.substring("name=".length());
      } else if (pair.startsWith("loader=")) {
        loader = pair.substring("loader=".length());
      }
    }
    if (name == null) {
      return label(new ObjectName(mbean));
    }
    return loader == null ? name : name + " @" + loader;
  }

  /** A limiter's name as the table shows it: {@code NAME}, or {@code NAME @LOADER}. */
  private static String label(ObjectName name) {
    String label = ObjectName.unquote(quoted(name.getKeyProperty("name")));
    String loader = name.getKeyProperty("loader");
    return loader == null ? label : label + " @" + loader;
  }

  private static String quoted(String value) {
    return value.startsWith("\"") ? value : ObjectName.quote(value);
  }

  /**
   * The table's column widths, negative for a left-aligned one; a space follows the first. 77
   * columns: the table fits an 80-column terminal.
   */
  private static final int[] WIDTHS = {-16, -8, 7, 6, 6, 9, 9, 8, 7};

  /**
   * A line of the table, padded by hand: {@link String#format} made formatting 10,000 lines take
   * most of a second.
   */
  private static String cells(String... cells) {
    StringBuilder line = new StringBuilder(80);
    for (int i = 0; i < cells.length; i++) {
      int pad = Math.abs(WIDTHS[i]) - cells[i].length();
      for (int p = 0; WIDTHS[i] > 0 && p < pad; p++) {
        line.append(' ');
      }
      line.append(cells[i]);
      for (int p = 0; WIDTHS[i] < 0 && p < pad; p++) {
        line.append(' ');
      }
      if (i == 0) {
        line.append(' ');
      }
    }
    return line.toString();
  }

  private static String header(String granted, String rejected, String waited) {
    return cells("LIMITER", "KIND", "RATE/S", "CAP", "AVAIL", granted, rejected, waited, "P99 MS");
  }

  /** A name in 16 columns: a longer one keeps its end, the part that tells methods apart. */
  static String fit(String name) {
    return name.length() <= 16 ? name : "~" + name.substring(name.length() - 15);
  }

  private static String line(Row row, double granted, double rejected, double waited) {
    String kind = row.kind;
    kind = kind.endsWith("SHAPING") ? "shaping" : kind.endsWith("POLICING") ? "policing" : "token";
    if (row.dryRun) {
      kind = kind.substring(0, Math.min(kind.length(), 4)) + " dry";
    }
    return cells(
        fit(row.name),
        kind,
        compact(row.rate, 6),
        compact(row.capacity, 5),
        compact(row.available, 5),
        compact(granted, 8),
        compact(rejected, 8),
        compact(waited, 7),
        compact(row.p99WaitMillis, 6));
  }

  /**
   * A number in at most {@code width} characters: whole where whole, else with decimals as room
   * allows, then scaled with k, M, G, T.
   */
  static String compact(double v, int width) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      String whole = String.valueOf((long) v);
      if (whole.length() <= width) {
        return whole;
      }
    } else if (Math.abs(v) < 0.01) {
      String s = String.format(Locale.ROOT, "%.2g", v);
      return s.length() <= width ? s : String.format(Locale.ROOT, "%.0e", v);
    } else {
      for (int decimals = Math.abs(v) < 1 ? 2 : 1; decimals >= 0; decimals--) {
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        if (s.length() <= width) {
          return s;
        }
      }
    }
    String[] units = {"k", "M", "G", "T", "P", "E"};
    double x = v;
    for (String unit : units) {
      x /= 1e3;
      if (Math.abs(x) >= 1e3) {
        continue;
      }
      for (int decimals = 1; decimals >= 0; decimals--) {
        String s = String.format(Locale.ROOT, "%." + decimals + "f%s", x, unit);
        if (s.length() <= width) {
          return s;
        }
      }
    }
    return String.format(Locale.ROOT, "%.0e", v);
  }

  private int status(String pid) throws Jvm.Failure {
    try (Jvm jvm = weir(pid)) {
      List<Row> rows = rows(jvm.mbeans());
      StringBuilder table = new StringBuilder(80 * (rows.size() + 1)); // one write, not a line's
      table.append(header("GRANTED", "REJECTED", "WAITED")).append(System.lineSeparator());
      for (Row row : rows) {
        table.append(line(row, row.granted, row.rejected, row.waited));
        table.append(System.lineSeparator());
      }
      if (rows.isEmpty()) {
        table.append("(no limiters yet: they appear as their classes load)");
        table.append(System.lineSeparator());
      }
      out.print(table);
      out.flush();
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  private int top(String pid) throws Jvm.Failure {
    try (Jvm jvm = weir(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      Map<String, double[]> before = counts(rows(mbeans));
      long last = System.nanoTime();
      long next = last;
      for (; ; ) {
        // a frame each second, however long reading and drawing one takes (a late one is drawn at
        // once, and the next comes a second later)
        next += 1_000_000_000L;
        long early = next - System.nanoTime();
        if (early > 0) {
          TimeUnit.NANOSECONDS.sleep(early);
        } else {
          next = System.nanoTime();
        }
        List<Row> rows = rows(mbeans);
        long now = System.nanoTime();
        double seconds = (now - last) / 1e9;
        last = now;
        Map<String, double[]> counts = counts(rows);
        final Map<String, double[]> rates = new LinkedHashMap<String, double[]>();
        for (Row row : rows) {
          double[] c = counts.get(row.name);
          double[] b = before.containsKey(row.name) ? before.get(row.name) : c;
          rates.put(
              row.name,
              new double[] {
                (c[0] - b[0]) / seconds, (c[1] - b[1]) / seconds, (c[2] - b[2]) / seconds
              });
        }
        before = counts;
        Collections.sort(
            rows,
            new Comparator<Row>() {
              @Override
              public int compare(Row a, Row b) {
                double x = rates.get(a.name)[0] + rates.get(a.name)[1];
                double y = rates.get(b.name)[0] + rates.get(b.name)[1];
                return x != y ? Double.compare(y, x) : a.name.compareTo(b.name);
              }
            });
        StringBuilder screen = new StringBuilder("\033[H\033[2J");
        screen
            .append(
                String.format(
                    Locale.ROOT,
                    "weir top: JVM %s, %d limiter%s, per second (Ctrl-C stops)",
                    pid,
                    rows.size(),
                    rows.size() == 1 ? "" : "s"))
            .append('\n');
        screen.append(header("GRANT/S", "REJECT/S", "WAIT/S")).append('\n');
        for (Row row : rows) {
          double[] r = rates.get(row.name);
          screen.append(line(row, r[0], r[1], r[2])).append('\n');
        }
        out.print(screen);
        out.flush();
      }
    } catch (InterruptedException e) {
      return 0;
    } catch (Jvm.NoAnswer e) {
      throw Jvm.failure(pid, e);
    } catch (java.io.IOException e) {
      throw new Jvm.Failure("JVM " + pid + " has stopped, or closed its management connector");
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  private static Map<String, double[]> counts(List<Row> rows) {
    Map<String, double[]> counts = new HashMap<String, double[]>();
    for (Row row : rows) {
      counts.put(row.name, new double[] {row.granted, row.rejected, row.waited});
    }
    return counts;
  }

  /** The changes of {@code set}, in the order applied: capacity, rate, dry run. */
  private static AttributeList changes(List<String> assignments) throws Usage {
    Map<String, Attribute> byName = new LinkedHashMap<String, Attribute>();
    byName.put("capacity", null);
    byName.put("rate", null);
    byName.put("dryRun", null);
    for (String assignment : assignments) {
      int eq = assignment.indexOf('=');
      String key = eq < 0 ? assignment : assignment.substring(0, eq);
      String value = eq < 0 ? "" : assignment.substring(eq + 1);
      if (!byName.containsKey(key)) {
        throw new Usage("set takes rate=, capacity= and dryRun=, was '" + assignment + "'");
      }
      try {
        if (key.equals("rate")) {
          byName.put(key, new Attribute("Rate", Double.parseDouble(value)));
        } else if (key.equals("capacity")) {
          byName.put(key, new Attribute("Capacity", Long.parseLong(value.replace("_", ""))));
        } else if (value.equals("true") || value.equals("false")) {
          byName.put(key, new Attribute("DryRun", Boolean.parseBoolean(value)));
        } else {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new Usage(
            key
                + (key.equals("dryRun")
                    ? " must be true or false"
                    : key.equals("rate")
                        ? " must be a number of permits per second"
                        : " must be a whole number of permits")
                + ", was '"
                + value
                + "'");
      }
    }
    // a value the limiter will refuse goes first, so that it is refused before anything is
    // written (the same message as the MBean's, and nothing changes); the capacity goes before
    // the rate, as it may be refused for being below a method's permits
    AttributeList list = new AttributeList();
    for (int pass = 0; pass < 2; pass++) {
      for (Attribute a : byName.values()) {
        if (a != null && refused(a) == (pass == 0)) {
          list.add(a);
        }
      }
    }
    return list;
  }

  /** Whether the limiter refuses this value whatever its permits. */
  private static boolean refused(Attribute a) {
    if (a.getName().equals("Rate")) {
      double rate = (Double) a.getValue();
      return !(rate > 0) || Double.isInfinite(rate);
    }
    return a.getName().equals("Capacity") && (Long) a.getValue() < 1;
  }

  private int set(String pid, String limiter, AttributeList changes) throws Jvm.Failure {
    try (Jvm jvm = weir(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      Set<ObjectName> named =
          mbeans.queryNames(
              new ObjectName("dev.weir:type=Limiter,name=" + quoteIfNeeded(limiter) + ",*"), null);
      if (named.isEmpty()) {
        throw new Jvm.Failure("JVM " + pid + " has no limiter named '" + limiter + "'");
      }
      if (named.size() > 1) {
        throw new Jvm.Failure(
            "JVM "
                + pid
                + " has "
                + named.size()
                + " limiters named '"
                + limiter
                + "' (one per class loader): "
                + named);
      }
      ObjectName name = named.iterator().next();
      for (Object a : changes) {
        try {
          mbeans.setAttribute(name, (Attribute) a);
        } catch (RuntimeMBeanException | MBeanException e) {
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          throw new Jvm.Failure(cause.getMessage());
        }
      }
      Map<String, Object> now = new HashMap<String, Object>();
      for (Object a : mbeans.getAttributes(name, new String[] {"Rate", "Capacity", "DryRun"})) {
        now.put(((Attribute) a).getName(), ((Attribute) a).getValue());
      }
      out.println(
          String.format(
              Locale.ROOT,
              "'%s': rate %s/s, capacity %s, dry run %s",
              limiter,
              compact(((Number) now.get("Rate")).doubleValue(), 12),
              compact(((Number) now.get("Capacity")).doubleValue(), 20),
              now.get("DryRun")));
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  /**
   * {@code methods PID [LIMITER]}: for each limiter (or the one named), the methods it limits now,
   * then, per pattern of a config limit, what it reached but could not limit and why.
   */
  private int methods(String pid, String limiter) throws Jvm.Failure {
    try (Jvm jvm = weir(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      ObjectName query =
          new ObjectName(
              limiter == null
                  ? LIMITERS
                  : "dev.weir:type=Limiter,name=" + quoteIfNeeded(limiter) + ",*");
      List<ObjectName> names = new ArrayList<ObjectName>(mbeans.queryNames(query, null));
      if (names.isEmpty()) {
        throw new Jvm.Failure(
            limiter == null
                ? "JVM " + pid + " has no limiter yet"
                : "JVM " + pid + " has no limiter named '" + limiter + "'");
      }
      Collections.sort(names);
      boolean first = true;
      for (ObjectName name : names) {
        String[] methods;
        String[] unlimited;
        String kind;
        try {
          methods = (String[]) mbeans.getAttribute(name, "Methods");
          unlimited = (String[]) mbeans.getAttribute(name, "Unlimited");
          kind = String.valueOf(mbeans.getAttribute(name, "Kind"));
        } catch (javax.management.InstanceNotFoundException gone) {
          continue; // its class loader went meanwhile
        }
        if (!first) {
          out.println();
        }
        first = false;
        out.println(label(name) + " (" + kind + ")");
        out.println(
            "  limits "
                + methods.length
                + (methods.length == 1 ? " method" : " methods")
                + (methods.length == 0 ? " now" : ":"));
        for (String method : methods) {
          out.println("    " + method);
        }
        printUnlimited(unlimited);
      }
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  /** The {@code Unlimited} lines ({@code PATTERN: METHOD: WHY}), grouped by pattern. */
  private void printUnlimited(String[] unlimited) {
    Map<String, List<String>> byPattern = new LinkedHashMap<String, List<String>>();
    for (String line : unlimited) {
      int colon = line.indexOf(": ");
      String pattern = colon < 0 ? "" : line.substring(0, colon);
      String rest = colon < 0 ? line : line.substring(colon + 2);
      List<String> lines = byPattern.get(pattern);
      if (lines == null) {
        lines = new ArrayList<String>();
        byPattern.put(pattern, lines);
      }
      lines.add(rest);
    }
    for (Map.Entry<String, List<String>> e : byPattern.entrySet()) {
      List<String> notLimited = new ArrayList<String>();
      for (String line : e.getValue()) {
        if (line.startsWith("matched no method yet")) {
          out.println("  pattern " + e.getKey() + ": " + line);
        } else {
          notLimited.add(line);
        }
      }
      if (!notLimited.isEmpty()) {
        out.println(
            "  pattern "
                + e.getKey()
                + " reached "
                + notLimited.size()
                + (notLimited.size() == 1 ? " method" : " methods")
                + " it could not limit:");
        for (String line : notLimited) {
          out.println("    " + line);
        }
      }
    }
  }

  private static String quoteIfNeeded(String value) {
    for (char c : ",=:\"*?\n".toCharArray()) {
      if (value.indexOf(c) >= 0) {
        return ObjectName.quote(value);
      }
    }
    return value;
  }

  private int reload(String pid) throws Jvm.Failure {
    try (Jvm jvm = weir(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans(Jvm.WORK_MILLIS); // a reload may weave
      Object result;
      try {
        result = mbeans.invoke(agent(), "reloadConfig", new Object[0], new String[0]);
      } catch (RuntimeMBeanException | MBeanException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        for (String line : String.valueOf(cause.getMessage()).split("\n")) {
          err.println(line);
        }
        return 1;
      }
      out.println(result);
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  private int attach(String pid, String options) throws Jvm.Failure {
    String jar = ownJar();
    options = absoluteConfig(options);
    try (Jvm jvm = Jvm.attach(pid)) {
      String failure = jvm.loadAgent(jar, options);
      String report = jvm.systemProperties().getProperty(Jvm.ATTACH_REPORT, "");
      boolean errors = failure != null;
      for (String line : report.isEmpty() ? new String[0] : report.split("\n")) {
        (line.contains(" ERROR ") ? err : out).println(line);
        errors |= line.contains(" ERROR ");
      }
      if (failure != null && report.isEmpty()) {
        err.println("weir: JVM " + pid + " did not load the agent: " + failure);
      }
      return errors ? 1 : 0;
    }
  }

  /**
   * The options with a relative {@code config=} path made absolute: the target JVM would read it
   * from its own working directory, not the operator's.
   */
  static String absoluteConfig(String options) {
    if (options == null) {
      return null;
    }
    List<String> pairs = new ArrayList<String>();
    for (String pair : options.split(",", -1)) {
      String trimmed = pair.trim();
      if (trimmed.startsWith("config=")) {
        String path = trimmed.substring("config=".length()).trim();
        if (!path.isEmpty() && !new File(path).isAbsolute()) {
          pair = "config=" + new File(path).getAbsolutePath();
        }
      }
      pairs.add(pair);
    }
    return String.join(",", pairs);
  }

  private static String ownJar() throws Jvm.Failure {
    try {
      return new File(WeirCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .getAbsolutePath();
    } catch (URISyntaxException | RuntimeException e) {
      throw new Jvm.Failure("cannot find the agent jar this command runs from: " + e);
    }
  }
}
