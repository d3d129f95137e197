package dev.weir.benchmarks;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * What an {@code http} entry costs a servlet container, as whole processes: an embedded Tomcat 11
 * serving a small answer through {@value #FILTERS} filters (as a framework's app has: the gate
 * decides a request at the first, and every later one passes it after one look), and 2 keep-alive
 * clients in the same JVM, run without the agent and with it (its config file limits {@code
 * /api/**} per client; the clients call {@code /open}, which no entry matches but every request
 * passes the gate for), in alternating pairs. Then, with the agent, one client's sequential
 * requests: admitted ones on {@code /open} beside rejected ones on {@code /api/x} (answered 429 by
 * the gate, never reaching the servlet).
 *
 * <p>{@code java -cp benchmarks/target/weir-benchmarks.jar dev.weir.benchmarks.WebThroughput [PAIRS
 * [SECONDS [AGENT_JAR]]]} prints a table. A child run ({@code --child SECONDS}) prints {@code
 * key=value} lines.
 */
public final class WebThroughput {
  private static final int CLIENTS = 2;
  private static final int SEQUENTIAL = 20_000;
  private static final int ROUNDS = 20;
  private static final int SLICE_MILLIS = 500;
  private static final int FILTERS = 6;

  private WebThroughput() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(Integer.parseInt(args[1]));
      return;
    }
    if (args.length > 0 && args[0].equals("--interleaved")) {
      interleaved(Integer.parseInt(args[1]), Paths.get(args[2]));
      return;
    }
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String agent = args.length > 2 ? args[2] : "agent/target/weir-agent.jar";
    Path config = Files.createTempFile("weir-web", ".yaml");
    writeConfig(config, true);
    List<Double> ratios = new ArrayList<>();
    List<Double> without = new ArrayList<>();
    List<Double> with = new ArrayList<>();
    List<Double> admitted = new ArrayList<>();
    List<Double> rejected = new ArrayList<>();
    double[][] results = new double[pairs][];
    for (int i = 0; i < pairs; i++) {
      Map<String, String> plain = run(null, "--child", String.valueOf(seconds));
      Map<String, String> woven =
          run("-javaagent:" + agent + "=config=" + config, "--child", String.valueOf(seconds));
      double a = Double.parseDouble(plain.get("open.rps"));
      double b = Double.parseDouble(woven.get("open.rps"));
      without.add(a);
      with.add(b);
      results[i] = new double[] {b, a};
      ratios.add(b / a);
      admitted.add(Double.parseDouble(woven.get("admitted.us")));
      rejected.add(Double.parseDouble(woven.get("rejected.us")));
      System.out.printf(
          "pair %d: %.0f req/s without the agent, %.0f with it (%.3f); admitted %.1f us,"
              + " rejected %.1f us%n",
          i + 1, a, b, b / a, admitted.get(i), rejected.get(i));
    }
    double[][] rounds = interleavedRounds(agent, config);
    double[] processes = ContendedPairs.medianRatio(results, 0, 1);
    double[] inJvm = ContendedPairs.medianRatio(rounds, 0, 1);
    pairsTable(seconds, pairs, without, with, ratios);
    System.out.printf(
        "%nrequests/s with the agent / without: median %.3f, 95%% interval %.3f to %.3f (whole"
            + " processes, %d pairs)%n",
        processes[0], processes[1], processes[2], pairs);
    System.out.printf(
        "requests/s with an http entry / with none, in one JVM under the agent, %d rounds of %d ms"
            + " slices taking turns: median %.3f, 95%% interval %.3f to %.3f%n%n",
        ROUNDS, SLICE_MILLIS, inJvm[0], inJvm[1], inJvm[2]);
    row("one client: an admitted request, us", admitted, "%.1f");
    row("one client: a rejected request (429 from the gate), us", rejected, "%.1f");
  }

  /**
   * The interleaved run under the agent ({@code --interleaved}), which then deletes the config
   * file: each round's requests/s with the http entry and with none.
   */
  private static double[][] interleavedRounds(String agent, Path config) throws Exception {
    Map<String, String> slices =
        run(
            "-javaagent:" + agent + "=config=" + config,
            "--interleaved",
            String.valueOf(ROUNDS),
            config.toString());
    Files.delete(config);
    double[][] rounds = new double[ROUNDS][];
    for (int r = 0; r < ROUNDS; r++) {
      rounds[r] =
          new double[] {
            Double.parseDouble(slices.get("round" + r + ".on")),
            Double.parseDouble(slices.get("round" + r + ".off"))
          };
    }
    return rounds;
  }

  /** The table of the alternating pairs: requests/s without and with the agent, their ratio. */
  private static void pairsTable(
      int seconds, int pairs, List<Double> without, List<Double> with, List<Double> ratios) {
    System.out.println();
    System.out.printf(
        "Tomcat 11, %d keep-alive clients, %d s per run, %d alternating pairs (median, min to"
            + " max):%n%n",
        CLIENTS, seconds, pairs);
    System.out.println("| measure | median | min to max |");
    System.out.println("|---|---:|---:|");
    row("requests/s on an unlimited path, no agent", without, "%.0f");
    row("requests/s on an unlimited path, agent with an http entry", with, "%.0f");
    row("with / without, per pair", ratios, "%.3f");
  }

  private static void row(String name, List<Double> values, String format) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    System.out.printf(
        "| %s | " + format + " | " + format + " to " + format + " |%n",
        name,
        sorted[sorted.length / 2],
        sorted[0],
        sorted[sorted.length - 1]);
  }

  private static void writeConfig(Path config, boolean withEntry) throws IOException {
    Files.write(
        config,
        (withEntry
                ? String.join(
                    "\n",
                    "limits:",
                    "  - name: api",
                    "    http: { paths: \"/api/**\" }",
                    "    key: client",
                    "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                    "")
                : "limits: []\n")
            .getBytes(StandardCharsets.UTF_8));
  }

  private static Map<String, String> run(String agentOption, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    if (agentOption != null) {
      command.add(agentOption);
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(WebThroughput.class.getName());
    command.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("the run failed: " + command + "\n" + out);
    }
    Map<String, String> values = new TreeMap<>();
    for (String line : out.split("\\R")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return values;
  }

  /**
   * Under the agent: the same load on {@code /open} in slices that take turns, with the config's
   * http entry and (reloaded without it) with none, so that both meet the same machine.
   */
  private static void interleaved(int rounds, Path config) throws Exception {
    Tomcat tomcat = start();
    int port = tomcat.getConnector().getLocalPort();
    javax.management.ObjectName agent = new javax.management.ObjectName("dev.weir:type=Agent");
    javax.management.MBeanServer server =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    for (int i = 0; i < 100 && !server.isRegistered(agent); i++) {
      Thread.sleep(50);
    }
    try {
      load(port, 3000);
      for (int r = 0; r < rounds; r++) {
        for (int turn = 0; turn < 2; turn++) {
          boolean on = (turn == 0) == (r % 2 == 0); // which goes first alternates
          writeConfig(config, on);
          server.invoke(agent, "reloadConfig", null, null);
          load(port, 100); // settle
          double rps = load(port, SLICE_MILLIS) * 1000.0 / SLICE_MILLIS;
          System.out.printf("round%d.%s=%.1f%n", r, on ? "on" : "off", rps);
        }
      }
    } finally {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  private static Tomcat start() throws Exception {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("web-throughput").toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxKeepAliveRequests", "-1");
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", null);
    Tomcat.addServlet(context, "app", new Small());
    context.addServletMappingDecoded("/", "app");
    for (int i = 0; i < FILTERS; i++) {
      org.apache.tomcat.util.descriptor.web.FilterDef def =
          new org.apache.tomcat.util.descriptor.web.FilterDef();
      def.setFilterName("filter" + i);
      def.setFilter(new PassOn(i % 2 == 1));
      context.addFilterDef(def);
      org.apache.tomcat.util.descriptor.web.FilterMap map =
          new org.apache.tomcat.util.descriptor.web.FilterMap();
      map.setFilterName("filter" + i);
      map.addURLPattern("/*");
      context.addFilterMap(map);
    }
    tomcat.start();
    return tomcat;
  }

  private static void child(int seconds) throws Exception {
    Tomcat tomcat = start();
    int port = tomcat.getConnector().getLocalPort();
    try {
      load(port, 3000); // warm-up
      System.out.printf("open.rps=%.1f%n", load(port, seconds * 1000) / (double) seconds);
      try (Client client = new Client(port)) {
        System.out.printf("admitted.us=%.2f%n", sequential(client, "/open") / 1000.0);
        System.out.printf("rejected.us=%.2f%n", sequential(client, "/api/x") / 1000.0);
        System.out.println("rejected.status=" + client.get("/api/x"));
      }
    } finally {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  /** Requests answered on {@code /open} by {@link #CLIENTS} clients in {@code millis}. */
  private static long load(int port, int millis) throws InterruptedException {
    AtomicLong answered = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    Thread[] threads = new Thread[CLIENTS];
    for (int i = 0; i < CLIENTS; i++) {
      threads[i] =
          new Thread(
              () -> {
                try (Client client = new Client(port)) {
                  long n = 0;
                  while (System.nanoTime() - end < 0) {
                    if (client.get("/open") != 200) {
                      throw new IllegalStateException("not 200");
                    }
                    n++;
                  }
                  answered.addAndGet(n);
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
              });
      threads[i].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return answered.get();
  }

  /** Nanoseconds per request, the median of 5 batches of {@link #SEQUENTIAL} / 5. */
  private static long sequential(Client client, String path) throws IOException {
    long[] batches = new long[5];
    for (int b = 0; b < batches.length; b++) {
      long start = System.nanoTime();
      for (int i = 0; i < SEQUENTIAL / batches.length; i++) {
        client.get(path);
      }
      batches[b] = (System.nanoTime() - start) / (SEQUENTIAL / batches.length);
    }
    Arrays.sort(batches);
    return batches[batches.length / 2];
  }

  /** A filter that passes the request on, wrapped (as frameworks' filters wrap it) or not. */
  static final class PassOn implements jakarta.servlet.Filter {
    private final boolean wraps;

    PassOn(boolean wraps) {
      this.wraps = wraps;
    }

    @Override
    public void doFilter(
        jakarta.servlet.ServletRequest req,
        jakarta.servlet.ServletResponse res,
        jakarta.servlet.FilterChain chain)
        throws IOException, jakarta.servlet.ServletException {
      chain.doFilter(
          wraps
              ? new jakarta.servlet.http.HttpServletRequestWrapper((HttpServletRequest) req)
              : req,
          res);
    }
  }

  /** A small answer. */
  static final class Small extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain");
      res.setContentLength(3);
      res.getOutputStream().write("ok\n".getBytes(StandardCharsets.US_ASCII));
    }
  }

  /** GET over one keep-alive connection; reads the status and a Content-Length body. */
  static final class Client implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final int port;

    Client(int port) throws IOException {
      this.port = port;
      socket = new Socket("127.0.0.1", port);
      socket.setTcpNoDelay(true);
      in = new java.io.BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    }

    int get(String path) throws IOException {
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String status = line();
      int length = 0;
      for (String h = line(); !h.isEmpty(); h = line()) {
        if (h.regionMatches(true, 0, "Content-Length:", 0, 15)) {
          length = Integer.parseInt(h.substring(15).trim());
        }
      }
      in.readNBytes(length);
      return Integer.parseInt(status.substring(9, 12));
    }

    private String line() throws IOException {
      StringBuilder s = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new IOException("closed");
        }
        if (c != '\r') {
          s.append((char) c);
        }
      }
      return s.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
