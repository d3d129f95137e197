package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The command line, {@code java -jar weir-agent.jar COMMAND}: reads and steers the limiters of a
 * local JVM running Weir through its MBeans, over the JDK's local management connector (no agent is
 * loaded, except by {@code attach}). Runs on JDK 9 or later.
 *
 * <p>Exit status: 0; 1 when the command failed, with one line naming the problem (for {@code
 * reload} and {@code attach}, every error, one per line); 2 with the usage for a bad command line.
 * This class reads the command line and hands each command to its class ({@link ListCommand},
 * {@link StatusCommand}, {@link TopCommand}, {@link SetCommand}, {@link ReloadCommand}, {@link
 * MethodsCommand}, {@link AttachCommand}); the JVM is reached through {@link WeirMBeans} and {@link
 * Jvm}.
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
        return ListCommand.run(out);
      }
      if (command.equals("status")) {
        expect(rest, 1, 1);
        return StatusCommand.run(pid(rest.get(0)), out);
      }
      if (command.equals("top")) {
        expect(rest, 1, 1);
        return TopCommand.run(pid(rest.get(0)), out);
      }
      if (command.equals("set")) {
        expect(rest, 3, 5);
        return SetCommand.run(
            pid(rest.get(0)), rest.get(1), SetCommand.changes(rest.subList(2, rest.size())), out);
      }
      if (command.equals("reload")) {
        expect(rest, 1, 1);
        return ReloadCommand.run(pid(rest.get(0)), out, err);
      }
      if (command.equals("methods")) {
        expect(rest, 1, 2);
        return MethodsCommand.run(pid(rest.get(0)), rest.size() > 1 ? rest.get(1) : null, out);
      }
      if (command.equals("attach")) {
        expect(rest, 1, 2);
        return AttachCommand.run(pid(rest.get(0)), rest.size() > 1 ? rest.get(1) : null, out, err);
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
}
