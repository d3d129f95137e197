package dev.weir.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} the tests start themselves, on a free port of 127.0.0.1, with no
 * persistence, and {@code DEBUG} allowed from local clients (Redis 7 refuses it otherwise). Tests
 * that need one call {@link #start}; where no {@code redis-server} can be found at all, they are
 * skipped with a loud message ({@code .ci/run} installs the OS package, so CI never skips).
 */
public final class RedisServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path dir;

  private RedisServer(Process process, int port, Path dir) {
    this.process = process;
    this.port = port;
    this.dir = dir;
  }

  /**
   * The {@code redis-server} binary: {@code -Dweir.redis.server}, else on the PATH, else in {@code
   * /usr/bin} or {@code /usr/local/bin}.
   *
   * @return its path, or null if none can be found
   */
  public static String binary() {
    String given = System.getProperty("weir.redis.server");
    if (given != null && new File(given).canExecute()) {
      return given;
    }
    List<String> places = new ArrayList<>();
    for (String dir : String.valueOf(System.getenv("PATH")).split(File.pathSeparator)) {
      places.add(dir + "/redis-server");
    }
    places.addAll(Arrays.asList("/usr/bin/redis-server", "/usr/local/bin/redis-server"));
    for (String place : places) {
      if (new File(place).canExecute()) {
        return place;
      }
    }
    return null;
  }

  /**
   * Starts a server, or skips the calling test loudly if there is no {@code redis-server}.
   *
   * @param extra further {@code redis-server} arguments ({@code --requirepass x}, ...)
   * @return the server, answering PING
   */
  public static RedisServer start(String... extra) {
    String binary = binary();
    if (binary == null) {
      String message =
          "NO redis-server FOUND: the Redis tests are SKIPPED (install the redis-server package,"
              + " or give -Dweir.redis.server=PATH)";
      System.err.println("!!! " + message);
      Assumptions.abort(message);
    }
    return startOn(binary, freePort(), extra);
  }

  /**
   * Starts a server on a given port (a restart on the same port).
   *
   * @param binary the {@code redis-server} binary
   * @param port the port
   * @param extra further arguments
   * @return the server, answering PING
   */
  public static RedisServer startOn(String binary, int port, String... extra) {
    try {
      Path dir = Files.createTempDirectory("weir-redis");
      List<String> command =
          new ArrayList<>(
              Arrays.asList(
                  binary,
                  "--port",
                  Integer.toString(port),
                  "--bind",
                  "127.0.0.1",
                  "--save",
                  "",
                  "--appendonly",
                  "no",
                  "--dir",
                  dir.toString(),
                  "--enable-debug-command",
                  "local"));
      command.addAll(Arrays.asList(extra));
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("redis.log").toFile())
              .start();
      RedisServer server = new RedisServer(p, port, dir);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (System.nanoTime() < deadline) {
        if (!p.isAlive()) {
          throw new IllegalStateException(
              "redis-server exited: " + Files.readString(dir.resolve("redis.log")));
        }
        try {
          String pong = server.command("PING");
          if (pong.startsWith("+PONG") || pong.startsWith("-NOAUTH")) {
            return server;
          }
        } catch (IOException notYet) {
          // starting
        }
        Thread.sleep(20);
      }
      server.close();
      throw new IllegalStateException("redis-server did not answer within 10 s on port " + port);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start redis-server", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts a Redis Cluster of {@code n} masters, no replicas, and waits until every node says it is
   * ok (or skips the calling test if there is no {@code redis-server}).
   *
   * @param n the nodes, at least 3
   * @return the nodes; close each when done
   * @throws Exception if {@code redis-cli --cluster create} fails
   */
  public static List<RedisServer> startCluster(int n) throws Exception {
    List<RedisServer> nodes = new ArrayList<>();
    boolean started = false;
    try {
      for (int i = 0; i < n; i++) {
        nodes.add(start("--cluster-enabled", "yes"));
      }
      List<String> create =
          new ArrayList<>(List.of(binary().replace("-server", "-cli"), "--cluster", "create"));
      for (RedisServer node : nodes) {
        create.add("127.0.0.1:" + node.port());
      }
      create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
      Process p = new ProcessBuilder(create).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (p.waitFor() != 0) {
        throw new IllegalStateException("redis-cli --cluster create failed:\n" + out);
      }
      for (RedisServer node : nodes) {
        for (int i = 0;
            i < 100 && !node.command("CLUSTER", "INFO").contains("cluster_state:ok");
            i++) {
          Thread.sleep(50);
        }
      }
      started = true;
      return nodes;
    } finally {
      if (!started) {
        for (RedisServer node : nodes) {
          node.close();
        }
      }
    }
  }

  /** A port nothing listens on now. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The port.
   *
   * @return the port on 127.0.0.1
   */
  public int port() {
    return port;
  }

  /**
   * The URI of database 0.
   *
   * @return {@code redis://127.0.0.1:PORT}
   */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * Sends one command over a fresh connection and returns the first line of the reply, RESP as it
   * came (a test's own view of Redis, independent of the client under test).
   *
   * @param args the command and its arguments; {@code AUTH} first if {@code auth} is needed
   * @return for example {@code +PONG}, {@code :42}, {@code $5} then the next line joined
   * @throws IOException if the connection fails
   */
  public String command(String... args) throws IOException {
    return commands(new String[][] {args}).get(0);
  }

  /**
   * Sends commands over one connection, in order, and returns each reply (bulk strings joined to
   * their length line with a space, arrays flattened the same way).
   *
   * @param commands the commands
   * @return one reply per command
   * @throws IOException if the connection fails
   */
  public List<String> commands(String[]... commands) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      for (String[] args : commands) {
        StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
          byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
          b.append('$').append(bytes.length).append("\r\n").append(a).append("\r\n");
        }
        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
      }
      out.flush();
      InputStream in = s.getInputStream();
      List<String> replies = new ArrayList<>();
      for (int i = 0; i < commands.length; i++) {
        replies.add(reply(in));
      }
      return replies;
    }
  }

  private static String reply(InputStream in) throws IOException {
    String line = line(in);
    char kind = line.charAt(0);
    if (kind == '$') {
      int n = Integer.parseInt(line.substring(1));
      if (n < 0) {
        return "$-1";
      }
      byte[] bulk = in.readNBytes(n + 2); // the bytes and CRLF: a bulk may hold lines (INFO)
      return line + " " + new String(bulk, 0, n, StandardCharsets.UTF_8);
    }
    if (kind == '*') {
      int n = Integer.parseInt(line.substring(1));
      StringBuilder all = new StringBuilder(line);
      for (int i = 0; i < n; i++) {
        all.append(' ').append(reply(in));
      }
      return all.toString();
    }
    return line;
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c; (c = in.read()) != -1; ) {
      if (c == '\r') {
        in.read();
        return b.toString();
      }
      b.append((char) c);
    }
    throw new IOException("connection closed");
  }

  /**
   * One field of an {@code INFO} section, as this server has it now.
   *
   * @param section {@code memory}, {@code stats}, ...
   * @param name the field, as {@code evicted_keys}
   * @return its value; null if the section has no such field
   * @throws IOException if the connection fails
   */
  public String info(String section, String name) throws IOException {
    for (String line : command("INFO", section).split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return null;
  }

  /**
   * Writes other data as fast as one pipelined connection can (1 KB values under fresh {@code
   * filler:N} keys, batches of 100), as an application sharing the server would, until closed or
   * {@code maxMillis} passed.
   *
   * @param maxMillis the longest it writes, in milliseconds
   * @return the writer; {@link AutoCloseable#close()} stops it and returns once it has stopped
   */
  public AutoCloseable flood(long maxMillis) {
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    String value = "x".repeat(1000);
    Thread writer =
        new Thread(
            () -> {
              long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
              try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                InputStream in = new java.io.BufferedInputStream(s.getInputStream());
                for (long n = 0; !stop.get() && System.nanoTime() < end; ) {
                  StringBuilder b = new StringBuilder();
                  for (int i = 0; i < 100; i++, n++) {
                    String key = "filler:" + n;
                    b.append("*3\r\n$3\r\nSET\r\n$")
                        .append(key.length())
                        .append("\r\n")
                        .append(key)
                        .append("\r\n$")
                        .append(value.length())
                        .append("\r\n")
                        .append(value)
                        .append("\r\n");
                  }
                  out.write(b.toString().getBytes(StandardCharsets.UTF_8));
                  out.flush();
                  for (int i = 0; i < 100; i++) {
                    line(in);
                  }
                }
              } catch (IOException e) {
                // the server went away: the writer ends
              }
            },
            "redis-flood");
    writer.setDaemon(true);
    writer.start();
    return () -> {
      stop.set(true);
      writer.join(15_000);
    };
  }

  /** Kills the server at once (SIGKILL): a crash, no goodbye to clients. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    kill();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp directory left behind
    }
  }
}
