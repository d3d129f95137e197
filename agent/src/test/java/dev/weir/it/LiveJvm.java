package dev.weir.it;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A forked JVM that keeps running while a test talks to it: {@code dev.weir.it.fixtures.Operated
 * serve} under the agent, answering one line per command on standard input; its standard error is
 * kept in a file. Closing it asks it to quit, then kills it.
 */
final class LiveJvm implements AutoCloseable {
  final String jdk;
  final String pid;
  private final Process process;
  private final Writer in;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Path err;

  /** Put after the last line once the JVM's output has ended. */
  private static final String END = "\u0000end";

  LiveJvm(String jdk, List<String> jvmOptions) throws IOException {
    this.jdk = jdk;
    List<String> command = new ArrayList<>();
    command.add(jdk + File.separator + "bin" + File.separator + "java");
    command.add("-Xshare:auto");
    command.addAll(jvmOptions);
    command.addAll(
        Arrays.asList(
            "-cp",
            ForkedJvm.FIXTURES + File.pathSeparator + ForkedJvm.ANNOTATIONS_JAR,
            "dev.weir.it.fixtures.Operated",
            "serve"));
    err = Files.createTempFile("weir-live", ".err");
    process = new ProcessBuilder(command).redirectError(err.toFile()).start();
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                  lines.add(line);
                }
              } catch (IOException ended) {
                // the process ended
              }
              lines.add(END);
            });
    reader.setDaemon(true);
    reader.start();
    String ready = next();
    if (!ready.startsWith("ready pid=")) {
      throw new AssertionError("not ready: " + ready + "\n" + err());
    }
    pid = ready.substring("ready pid=".length());
  }

  /** With the agent and these agent arguments (null for none). */
  static LiveJvm withAgent(String jdk, String agentArgs, String... moreOptions) throws IOException {
    List<String> options = new ArrayList<>();
    options.add("-javaagent:" + ForkedJvm.AGENT_JAR + (agentArgs == null ? "" : "=" + agentArgs));
    options.addAll(Arrays.asList(moreOptions));
    return new LiveJvm(jdk, options);
  }

  /** The next line the JVM printed, waiting up to 30 s. */
  String next() {
    try {
      String line = lines.poll(30, TimeUnit.SECONDS);
      if (END.equals(line)) {
        lines.add(END);
        throw new AssertionError("the JVM has ended\n" + err());
      }
      if (line == null) {
        throw new AssertionError("no answer from the JVM\n" + err());
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The next line the JVM printed, waiting up to 5 s; null if none came (it ended, say). */
  String poll() throws InterruptedException {
    String line = lines.poll(5, TimeUnit.SECONDS);
    if (END.equals(line)) {
      lines.add(END);
      return null;
    }
    return line;
  }

  /** Sends one command and returns its answer. */
  String send(String command) {
    try {
      in.write(command + "\n");
      in.flush();
    } catch (IOException e) {
      throw new AssertionError("the JVM is gone\n" + err(), e);
    }
    return next();
  }

  /** {@code call NAME N [KEY]}: {@code {admitted, limited, failed closed}}. */
  int[] call(String name, int n, String... key) {
    String answer = send("call " + name + " " + n + (key.length > 0 ? " " + key[0] : ""));
    String[] words = answer.split(" ");
    if (!words[0].equals(name)) {
      throw new AssertionError("unexpected answer: " + answer + "\n" + err());
    }
    return new int[] {
      Integer.parseInt(words[1].substring("admitted=".length())),
      Integer.parseInt(words[2].substring("limited=".length())),
      Integer.parseInt(words[3].substring("failedClosed=".length()))
    };
  }

  /** What the JVM wrote to standard error so far. */
  String err() {
    try {
      return new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(standard error unreadable: " + e + ")";
    }
  }

  /** Waits up to 10 s for a line of standard error containing {@code text}. */
  String awaitErr(String text) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      for (String line : err().split("\\R")) {
        if (line.contains(text)) {
          return line;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no line with '" + text + "' on standard error:\n" + err());
  }

  /** Runs the command line, {@code java -jar weir-agent.jar ARGS}, on this JVM's JDK. */
  ForkedJvm.Result weir(String... args) {
    return command(jdk, args);
  }

  /** Runs the command line on {@code jdk}. */
  static ForkedJvm.Result command(String jdk, String... args) {
    return command(jdk, List.of(), args);
  }

  /** Runs the command line on {@code jdk}, in a JVM with these options. */
  static ForkedJvm.Result command(String jdk, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(jdk + File.separator + "bin" + File.separator + "java");
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(ForkedJvm.AGENT_JAR);
    command.addAll(Arrays.asList(args));
    try {
      Path out = Files.createTempFile("weir-cli", ".out");
      Path err = Files.createTempFile("weir-cli", ".err");
      Process p =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("timed out: " + command);
      }
      ForkedJvm.Result r =
          new ForkedJvm.Result(
              command,
              p.exitValue(),
              new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
              new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return r;
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    try {
      in.write("quit\n");
      in.flush();
    } catch (IOException gone) {
      // already ended
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      Files.deleteIfExists(err);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // a temporary file left behind
    }
  }
}
