package dev.weir.agent.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What Linux's {@code /proc} tells of a local process before anything is sent to it: whether it
 * exists, whose it is, whether it is stopped, whether it maps a JVM's performance-data file. Each
 * answer is "unknown" where there is no {@code /proc} (another OS) or it cannot be read; the
 * command line then relies on the JDK's list of JVMs alone. Reads files only, never blocks for
 * long, and is thread-safe.
 */
final class LocalProcess {
  private static final Path PROC = Paths.get("/proc");

  private final Path dir;

  /**
   * @param pid the process id, digits only
   */
  LocalProcess(String pid) {
    this.dir = PROC.resolve(pid);
  }

  /** Whether this OS has a {@code /proc} with a directory per process. */
  private static boolean procFs() {
    return Files.isDirectory(PROC.resolve("self"));
  }

  /**
   * Whether the process is known to be gone.
   *
   * @return true if {@code /proc} exists and has no directory for the pid
   */
  boolean gone() {
    return procFs() && !Files.isDirectory(dir);
  }

  /**
   * The user id the process runs as.
   *
   * @return the uid, or -1 if unknown
   */
  long owner() {
    return uid(dir);
  }

  /**
   * This command's own user id.
   *
   * @return the uid, or -1 if unknown
   */
  static long self() {
    return uid(PROC.resolve("self"));
  }

  private static long uid(Path path) {
    try {
      return ((Number) Files.getAttribute(path, "unix:uid")).longValue();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Whether the process is stopped (state {@code T}, by SIGSTOP, or {@code t}, held by a debugger):
   * it cannot answer, and a signal sent to it would wait to act until it runs again.
   *
   * @return true if known to be stopped
   */
  boolean stopped() {
    String stat = read("stat");
    int close = stat == null ? -1 : stat.lastIndexOf(')'); // the name, in parentheses, may hold ')'
    if (close < 0 || close + 2 >= stat.length()) {
      return false;
    }
    char state = stat.charAt(close + 2);
    return state == 'T' || state == 't';
  }

  /**
   * Whether the process maps a HotSpot performance-data file ({@code hsperfdata_USER/PID}), as
   * every HotSpot JVM the JDK lists does. A file a crashed JVM left behind keeps being listed, and
   * its pid may since belong to a process that is no JVM: that one maps no such file.
   *
   * @return false if it is known to map none; true if it maps one, or if this cannot be read
   */
  boolean mayBeListedJvm() {
    Path maps = dir.resolve("maps");
    try (BufferedReader in = Files.newBufferedReader(maps, StandardCharsets.ISO_8859_1)) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.contains("/hsperfdata_")) {
          return true;
        }
      }
      return false;
    } catch (IOException | RuntimeException unreadable) {
      return true; // unknown: the JDK's list decides
    }
  }

  private String read(String file) {
    try {
      return new String(Files.readAllBytes(dir.resolve(file)), StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
