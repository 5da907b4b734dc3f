package dev.faultline.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code faultline bench}: runs every stage's benchmark beside its baseline, N times, on this
 * machine, and writes {@code target/bench/report.md} with PNG charts.
 *
 * <p>The benchmarks live in the test sources of their modules. One Maven call compiles them and
 * writes each module's test classpath; the classes are copied under {@code target/bench/classes}
 * (so a concurrent build of the same tree cannot empty them under a running benchmark); then each
 * benchmark runs as a child JVM per repeat, writes one flat JSON object into {@code
 * target/bench/raw/<stage>-<repeat>.json}, and {@link BenchReport} aggregates them. Child output
 * goes to {@code target/bench/logs/}.
 */
@Command(
    name = "faultline bench",
    description = {
      "Run every stage's benchmark beside its baseline; writes target/bench/report.md and charts.",
      "",
      "Runs each stage's benchmark beside its baseline in the same run, N times, and writes DIR/report.md with one",
      "PNG chart per section (median bars, min-max whiskers). Every figure: absolute value, ratio to its baseline,",
      "min/median/max over the repeats; the report records cores, load average at start and end, date, git commit.",
      "Nothing is asserted. Needs the source tree and Maven (it compiles the benchmarks from the modules' tests)."
    })
public final class BenchCommand extends CliCommand {
  /**
   * The stages in run order; within a repeat every stage runs once, so slow drifts of load touch
   * all stages alike.
   */
  enum Stage {
    CLASSIFIER(
        "classifier",
        "faultline-classifier",
        "classifier: issues/s at 1/4/16 KB vs tokenising alone (JMH)"),
    RECEIVER(
        "receiver",
        "faultline-ingest",
        "receiver: 12 KB deliveries/s, p50/p99 vs bare KafkaProducer; backfill vs gunzip+parse"),
    STATS("stats", "faultline-stream-jobs", "statistics job events/s vs pass-through"),
    QUERY(
        "query",
        "faultline-estimate",
        "graph writes vs bare MERGE; query p50/p95 (synthetic graph)"),
    PIPELINE(
        "pipeline",
        "faultline-infra",
        "Kafka→classify→Neo4j vs discard; writer vs bare MERGE; latency; RSS"),
    SOAK(
        "soak",
        "faultline-infra",
        "soak: signed deliveries at a fixed rate into faultline local; lost, p99, memory (only with --only soak)");

    final String id;
    final String artifact;
    final String what;

    Stage(String id, String artifact, String what) {
      this.id = id;
      this.artifact = artifact;
      this.what = what;
    }

    String module() {
      return artifact.substring("faultline-".length());
    }
  }

  /** Sizes of one run: the default and {@code --quick}. */
  record Sizes(
      String jmhArgs,
      int receiverRequests,
      int backfillEvents,
      long statsEvents,
      int queryIssues,
      int queryRuns,
      int pipelineEvents,
      int soakRate,
      int soakSeconds) {
    static final Sizes DEFAULT =
        new Sizes(
            "-f 1 -wi 2 -w 1s -i 3 -r 1s -t 1", 2000, 100_000, 60_000, 10_000, 10, 2000, 200, 600);
    static final Sizes QUICK =
        new Sizes("-f 1 -wi 1 -w 1s -i 2 -r 1s -t 1", 500, 5_000, 20_000, 2000, 3, 500, 100, 60);
  }

  /** Parsed arguments. */
  record Options(
      int repeats,
      boolean quick,
      List<Stage> stages,
      Path out,
      boolean offline,
      Optional<String> mavenRepoLocal,
      boolean skipBuild,
      boolean reportOnly,
      Duration stageTimeout,
      int soakIssues) {}

  private final ObjectMapper json = new ObjectMapper();
  private final StageRunner stages = new StageRunner();

  /** For {@code bench/run} (what {@code ./faultline bench} runs). */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs {@code faultline bench ARGS}; returns the exit code (0 ok, 1 a stage or the build failed,
   * 2 usage).
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine commandLine = new CommandLine(new BenchCommand());
    StringBuilder stages = new StringBuilder("%nStages:%n");
    for (Stage s : Stage.values()) {
      stages.append(String.format(Locale.ROOT, "  %-11s %s%%n", s.id, s.what));
    }
    stages.append(
        "%nDefault run: about 40 minutes on 2 cores; --quick about 5. See bench/README.md.");
    commandLine.getCommandSpec().usageMessage().footer(stages.toString());
    return Cli.execute(commandLine, args, out, err);
  }

  @Option(
      names = "--repeats",
      paramLabel = "N",
      description = "repeats of every stage (default 3; 1 with --quick)")
  Integer repeats;

  @Option(names = "--quick", description = "small sizes, one repeat: a smoke run of a few minutes")
  boolean quick;

  @Option(
      names = "--only",
      paramLabel = "STAGES",
      split = ",",
      description = "a subset of the stages below, comma-separated (default: all but soak)")
  List<String> only;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "output directory (default <source root>/target/bench)")
  Path outDir;

  @Option(
      names = "--offline",
      description = "pass -o to Maven (machines without network, dependencies already present)")
  boolean offline;

  @Option(
      names = "--maven-repo-local",
      paramLabel = "DIR",
      description = "pass -Dmaven.repo.local=DIR to Maven")
  Path mavenRepoLocal;

  @Option(names = "--skip-build", description = "reuse DIR/classes and DIR/cp from an earlier run")
  boolean skipBuild;

  @Option(
      names = "--report-only",
      description = "only regenerate report.md and charts from DIR/raw")
  boolean reportOnly;

  @Option(
      names = "--stage-timeout",
      paramLabel = "MINUTES",
      defaultValue = "20",
      description = "kill a stage's repeat after this many minutes")
  long stageTimeout;

  @Option(
      names = "--soak-issues",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "soak: cycle the deliveries over N issues (opened, then edited), so the pipeline's per-issue"
              + " state is bounded; 0: every delivery opens a new issue")
  int soakIssues;

  /**
   * The options as the run uses them; a usage error for a value out of range or an unknown stage.
   */
  Options options(Path root) {
    if (repeats != null && repeats < 1) {
      throw usageError("--repeats must be at least 1, got " + repeats);
    }
    if (soakIssues < 0) {
      throw usageError("--soak-issues must be 0 or more, got " + soakIssues);
    }
    // The soak runs for ten minutes at full rate: only when asked for by name.
    List<Stage> stages = Arrays.stream(Stage.values()).filter(s -> s != Stage.SOAK).toList();
    if (only != null) {
      List<Stage> chosen = new ArrayList<>();
      for (String id : only) {
        chosen.add(
            Arrays.stream(Stage.values())
                .filter(s -> s.id.equals(id.trim()))
                .findFirst()
                .orElseThrow(
                    () ->
                        usageError(
                            "--only: unknown stage '"
                                + id
                                + "'; stages: "
                                + Arrays.stream(Stage.values()).map(s -> s.id).toList())));
      }
      stages = Arrays.stream(Stage.values()).filter(chosen::contains).toList();
    }
    Path out = outDir != null ? outDir.toAbsolutePath() : root.resolve("target").resolve("bench");
    Optional<String> repo =
        Optional.ofNullable(mavenRepoLocal).map(p -> p.toAbsolutePath().toString());
    return new Options(
        repeats != null ? repeats : quick ? 1 : 3,
        quick,
        stages,
        out,
        offline,
        repo,
        skipBuild,
        reportOnly,
        Duration.ofMinutes(stageTimeout),
        soakIssues);
  }

  @Override
  public Integer call() throws Exception {
    Path root = sourceRoot();
    Options options = options(root);
    Path raw = options.out().resolve("raw");
    if (options.reportOnly()) {
      return report(options.out(), raw, out);
    }
    System.setProperty("java.awt.headless", "true");
    Progress progress = new Progress(out, Instant.now());
    Sizes sizes = options.quick() ? Sizes.QUICK : Sizes.DEFAULT;
    Map<String, Object> machine = machine(root, options, sizes);
    progress.line(
        "bench: %s run, %d repeat(s) of %s; %d cores, load average %s; output in %s",
        machine.get("mode"),
        options.repeats(),
        options.stages().stream().map(s -> s.id).toList(),
        machine.get("cores"),
        machine.get("loadStart"),
        options.out());

    BenchBuild.deleteRecursively(raw);
    BenchBuild.deleteRecursively(options.out().resolve("logs"));
    Files.createDirectories(raw);
    Files.createDirectories(options.out().resolve("logs"));
    if (!options.skipBuild()) {
      progress.line(
          "build: compiling the benchmarks (mvn test-compile of %s) ...",
          options.stages().stream().map(Stage::module).toList());
      int code = BenchBuild.build(root, options, progress);
      if (code != 0) {
        err.printf(
            "faultline bench: the Maven build failed (exit %d); see %s%n",
            code, options.out().resolve("logs/build.log"));
        return 1;
      }
    }
    List<String> failures = runStages(options, sizes, progress);
    machine.put("loadEnd", loadAverage());
    machine.put("elapsed", Progress.format(Duration.between(progress.start, Instant.now())));
    machine.put("failures", failures);
    Files.writeString(
        raw.resolve("machine.json"),
        json.writerWithDefaultPrettyPrinter().writeValueAsString(machine));
    progress.line("bench: all stages done; load average %s", machine.get("loadEnd"));
    int code = report(options.out(), raw, out);
    return code != 0 ? code : failures.isEmpty() ? 0 : 1;
  }

  /** What the figures were measured on: date, commit, cores, load, Java, OS and the sizes. */
  private static Map<String, Object> machine(Path root, Options options, Sizes sizes) {
    Map<String, Object> machine = new LinkedHashMap<>();
    machine.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    machine.put("commit", commit(root));
    machine.put("cores", Runtime.getRuntime().availableProcessors());
    machine.put("loadStart", loadAverage());
    machine.put("mode", options.quick() ? "quick" : "default");
    machine.put("repeats", options.repeats());
    machine.put(
        "java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    machine.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    machine.put("sizes", sizes.toString());
    return machine;
  }

  /** Every stage, {@code repeats} times; returns the failed ones ({@code id (repeat n)}). */
  private List<String> runStages(Options options, Sizes sizes, Progress progress)
      throws InterruptedException {
    List<String> failures = new ArrayList<>();
    for (int repeat = 1; repeat <= options.repeats(); repeat++) {
      for (Stage stage : options.stages()) {
        String what =
            String.format(Locale.ROOT, "%s, repeat %d/%d", stage.id, repeat, options.repeats());
        progress.line("%s: started (load average %s)", what, loadAverage());
        Instant t0 = Instant.now();
        boolean ok;
        try {
          ok = stages.run(stage, repeat, sizes, options, progress, what);
        } catch (IOException | RuntimeException e) {
          progress.line("%s: failed: %s", what, e.getMessage());
          ok = false;
        }
        progress.line(
            "%s: %s in %s",
            what,
            ok ? "done" : "FAILED (see logs/" + stage.id + "-" + repeat + ".log)",
            Progress.format(Duration.between(t0, Instant.now())));
        if (!ok && !failures.contains(stage.id + " (repeat " + repeat + ")")) {
          failures.add(stage.id + " (repeat " + repeat + ")");
        }
      }
    }
    return failures;
  }

  private static int report(Path outDir, Path raw, PrintStream out) throws IOException {
    if (!Files.isDirectory(raw)) {
      throw new IllegalArgumentException(
          "no raw results in " + raw + "; run faultline bench first");
    }
    System.setProperty("java.awt.headless", "true");
    for (Path p : new BenchReport(FigureSpec.ALL).write(raw, outDir)) {
      out.println("wrote " + p);
    }
    return 0;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Machine and tree

  /**
   * The source root: the directory with the parent pom, from this class's location
   * (infra/target/...) or the cwd.
   */
  static Path sourceRoot() {
    List<Path> candidates = new ArrayList<>();
    try {
      candidates.add(
          Path.of(BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (URISyntaxException | RuntimeException e) {
      // No code source (an unusual class loader): the working directory below will do.
    }
    candidates.add(Path.of("").toAbsolutePath());
    for (Path start : candidates) {
      for (Path p = start; p != null; p = p.getParent()) {
        if (Files.exists(p.resolve("pom.xml"))
            && Files.isDirectory(p.resolve("infra"))
            && Files.isDirectory(p.resolve("classifier"))) {
          return p;
        }
      }
    }
    throw new IllegalArgumentException(
        "cannot find the faultline source tree (a directory with pom.xml, infra/ and "
            + "classifier/); run faultline bench from inside it");
  }

  private static String commit(Path root) {
    try {
      String head = exec(root, "git", "rev-parse", "--short=12", "HEAD").strip();
      boolean dirty = !exec(root, "git", "status", "--porcelain", "--untracked-files=no").isBlank();
      return head + (dirty ? " (with uncommitted changes in the tree)" : "");
    } catch (IOException | InterruptedException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static String exec(Path dir, String... command) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " exited " + p.exitValue());
    }
    return output;
  }

  /**
   * 1-, 5- and 15-minute load averages from /proc/loadavg, or the JVM's 1-minute figure elsewhere.
   */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return String.format(
          Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /** Progress lines with the elapsed time of the whole run. */
  static final class Progress {
    private final PrintStream out;
    final Instant start;

    Progress(PrintStream out, Instant start) {
      this.out = out;
      this.start = start;
    }

    void line(String format, Object... args) {
      out.printf(
          Locale.ROOT,
          "[bench %s] %s%n",
          format(Duration.between(start, Instant.now())),
          String.format(Locale.ROOT, format, args));
      out.flush();
    }

    static String format(Duration d) {
      long s = d.toSeconds();
      return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
  }
}
