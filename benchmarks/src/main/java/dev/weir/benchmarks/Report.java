package dev.weir.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.Map;

/**
 * Writes {@code BENCHMARKS.md} from the results that {@code benchmarks/run.sh} leaves in one
 * folder: JMH's JSON files, the start-up table, and the {@code key=value} output of {@link
 * KeyMemory} and {@link ShapingAccuracy}. Every figure comes from that one run; the goals of the
 * benchmark issue are judged from them, with the error bars: a goal is met when the whole error
 * interval meets it, missed when the whole interval misses it, and otherwise not settled ({@link
 * Goals}).
 *
 * <p>Two threads sharing one CAS word run at one of two speeds on a small VM, and switch between
 * them within a fork, every limiter and the floor alike (the cost of moving a cache line between
 * the two virtual CPUs depends on where the host places them). An average then mostly measures how
 * long a benchmark happened to run at each speed. Where a benchmark's iterations fall into two such
 * levels ({@link Score#levels()}), the report gives each level's median, and compares Weir to the
 * floor level by level ({@link Ratio}). Those comparisons are shown; the two-thread cell where the
 * CAS is contended (permits available) is judged by {@link ContendedPairs}, which interleaves the
 * floor and Weir in short slices and so compares like with like.
 *
 * <p>This class reads the files ({@link Results}) and puts the report together: its header, the
 * goals table, then the sections in order ({@link AcquireSection}, {@link ContendedSections},
 * {@link CallCostSections}, {@link FootprintSections}, {@link ShapingSection}, {@link
 * RedisSection}). One report, one thread.
 */
public final class Report {
  private final Results results;

  Report(Path dir) {
    this.results = new Results(dir);
  }

  /**
   * Prints the report to standard output.
   *
   * @param args the results folder
   * @throws IOException if a result file cannot be read
   */
  public static void main(String[] args) throws IOException {
    System.out.print(new Report(Paths.get(args[0])).write());
  }

  /**
   * The report, Markdown.
   *
   * @throws IOException if a result file cannot be read
   */
  String write() throws IOException {
    Map<String, Score> t1 = results.jmh("peers-t1.json");
    Map<String, Score> t2 = results.jmh("peers-t2.json");
    Map<String, Score> woven = results.jmh("woven.json");
    Map<String, Score> keyed = results.jmh("keyed.json");
    Map<String, Score> counted1 = results.jmh("counted-t1.json");
    Map<String, Score> counted2 = results.jmh("counted-t2.json");
    Map<String, String> memory = results.values("memory.txt");
    Map<String, String> shaping = results.values("shaping.txt");
    Map<String, String> contended = results.values("contended.txt");
    Map<String, String> latency = results.values("latency.txt");
    String startup = results.text("startup.md");
    Map<String, Score> gate = results.jmh("http-gate.json");
    String web = results.text("web.txt");

    Goals goals = new Goals();
    StringBuilder body = new StringBuilder();
    AcquireSection.write(body, goals, t1, t2, contended);
    ContendedSections.latency(body, goals, latency);
    CallCostSections.woven(body, goals, woven, t1);
    ContendedSections.judge(goals, contended);
    CallCostSections.keyed(body, keyed);
    CallCostSections.counted(body, goals, counted1, counted2);
    FootprintSections.startup(body, goals, startup);
    FootprintSections.memory(body, goals, memory);
    ShapingSection.write(body, goals, shaping);
    CallCostSections.http(body, gate, web);
    RedisSection.write(
        body,
        goals,
        RedisSection.cells(results.lines("redis.txt")),
        RedisSection.cells(results.lines("redis-jvm1.txt")),
        RedisSection.cells(results.lines("redis-jvm2.txt")));

    StringBuilder md = new StringBuilder();
    header(md);
    goals.write(md);
    md.append('\n').append(body);
    return md.toString();
  }

  /** The title and the run's machine, JDK and JMH. */
  private void header(StringBuilder md) {
    md.append("# Weir benchmarks\n\n");
    md.append("All figures below come from one run of `benchmarks/run.sh` on ")
        .append(LocalDate.now())
        .append(".\n\n");
    md.append("- Machine: ").append(cpu()).append(", ");
    md.append(Runtime.getRuntime().availableProcessors()).append(" cores, ");
    md.append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"));
    md.append("\n- JDK: ").append(results.jdk());
    md.append("\n- JMH ")
        .append(results.jmhVersion())
        .append("; ns/op are averages with their 99.9% error.\n\n");
  }

  private static String cpu() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }
}
