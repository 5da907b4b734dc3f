package dev.faultline.infra.cluster;

import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.stats.CategoryStatsJob;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code faultline jobs submit|savepoint|stop|cancel|list}: deploys and upgrades the job jar on a
 * Flink cluster through the JobManager's REST API. The same jar and the same job flags run on a
 * session cluster, behind the Kubernetes operator, or on the local MiniCluster.
 */
@Command(
    name = "jobs",
    description = {
      "Submit, savepoint, stop, cancel or list the jobs on a Flink cluster (REST API).",
      "",
      "Deploys and upgrades the job jar through the JobManager's REST API: the same jar and the same job flags run",
      "on a session cluster, behind the Kubernetes operator, or on the local MiniCluster."
    },
    footer = {
      "",
      "--jobmanager is the JobManager's REST address (rest.port, 8081 by default); FAULTLINE_FLINK_JOBMANAGER is",
      "read when it is missing. Upgrade: faultline jobs stop --job pipeline -> faultline jobs submit --job pipeline",
      "--from-savepoint PATH."
    })
public final class JobsCommand extends CliCommand {
  /** The jobs of the job jar. */
  public enum Job {
    PIPELINE("pipeline", IssuePipelineJob.class.getName(), IssuePipelineJob.NAME),
    STATS("stats", CategoryStatsJob.class.getName(), CategoryStatsJob.NAME);

    public final String flag;
    public final String entryClass;
    public final String jobName;

    Job(String flag, String entryClass, String jobName) {
      this.flag = flag;
      this.entryClass = entryClass;
      this.jobName = jobName;
    }

    static List<Job> parse(String value) {
      if (value.equals("all")) {
        return List.of(values());
      }
      for (Job j : values()) {
        if (j.flag.equals(value)) {
          return List.of(j);
        }
      }
      throw new IllegalArgumentException(
          "--job '" + value + "' is not one of pipeline, stats, all");
    }
  }

  /**
   * Where {@code submit} looks for the job jar when neither --jar nor FAULTLINE_JOB_JAR is given.
   */
  static final String DEFAULT_JAR_GLOB_DIR = "jobs-dist/target";

  private static final Duration SAVEPOINT_TIMEOUT = Duration.ofMinutes(10);

  private final Map<String, String> env;

  public JobsCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** Runs {@code faultline jobs ARGS}; returns the exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(commandLine(), args, out, err);
  }

  /** The command with its subcommands. */
  public CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(this);
    commandLine.addSubcommand(new Submit());
    commandLine.addSubcommand(new Stop());
    commandLine.addSubcommand(new Savepoint());
    commandLine.addSubcommand(new Cancel());
    commandLine.addSubcommand(new ListJobs());
    return commandLine;
  }

  @Override
  public Integer call() {
    throw usageError("name a subcommand: submit, savepoint, stop, cancel or list");
  }

  /** {@code --jobmanager}, which every subcommand takes. */
  static final class Cluster {
    @Option(
        names = "--jobmanager",
        paramLabel = "HOST:PORT",
        description = "the JobManager's REST address (default $FAULTLINE_FLINK_JOBMANAGER)")
    String jobManager;
  }

  /** The job names for shell completion. */
  static final class JobNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of("pipeline", "stats", "all").iterator();
    }
  }

  /** {@code --job} or {@code --job-id}: the job a savepoint, stop or cancel acts on. */
  static final class Target {
    @Option(
        names = "--job",
        paramLabel = "pipeline|stats",
        completionCandidates = JobNames.class,
        description = "the active job of that name")
    String job;

    @Option(names = "--job-id", paramLabel = "ID", description = "the job with this id")
    String jobId;

    void into(List<String> flags) {
      add(flags, "job", job);
      add(flags, "job-id", jobId);
    }
  }

  private static void add(List<String> flags, String name, Object value) {
    if (value != null) {
      flags.add("--" + name);
      flags.add(value.toString());
    }
  }

  private FlinkRestClient flink(Cluster cluster) {
    return FlinkRestClient.forJobManager(
        cluster.jobManager != null ? cluster.jobManager : env.get("FAULTLINE_FLINK_JOBMANAGER"));
  }

  @Command(
      name = "submit",
      description = {
        "Upload the job jar and run jobs.",
        "",
        "Every option not listed here goes to the job as its own flag: --kafka-bootstrap H:P --neo4j-uri URI",
        "--neo4j-user U --neo4j-password P --group-id G --checkpoint-interval-ms MS --kafka.X VALUE ..."
      })
  final class Submit extends CliCommand {
    @Mixin Cluster cluster;

    @Option(
        names = "--job",
        paramLabel = "pipeline|stats|all",
        completionCandidates = JobNames.class,
        description = "the jobs to run")
    String job = "pipeline";

    @Option(
        names = "--jar",
        paramLabel = "PATH",
        description =
            "the job jar (default $FAULTLINE_JOB_JAR, else jobs-dist/target/faultline-jobs-dist-*.jar)")
    String jar;

    @Option(
        names = "--parallelism",
        paramLabel = "N",
        description = "the jobs' parallelism (also passed to the job)")
    Integer parallelism;

    @Option(
        names = "--from-savepoint",
        paramLabel = "PATH",
        description = "restore one job from this savepoint")
    String fromSavepoint;

    @Option(
        names = "--allow-non-restored-state",
        description =
            "with --from-savepoint: start although some of the savepoint's state has no operator")
    boolean allowNonRestoredState;

    @Unmatched List<String> jobFlags = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      List<String> flags = new ArrayList<>();
      add(flags, "job", job);
      add(flags, "jar", jar);
      add(flags, "parallelism", parallelism);
      add(flags, "from-savepoint", fromSavepoint);
      if (allowNonRestoredState) {
        flags.add("--allow-non-restored-state");
      }
      flags.addAll(jobFlags);
      for (Submitted s : submit(flink(cluster), Flags.parse(flags))) {
        out.println("submitted " + s.job().jobName + " as job " + s.jobId());
      }
      return 0;
    }
  }

  /** A subcommand acting on one job: {@code --jobmanager} and {@link Target}. */
  abstract class OnJob extends CliCommand {
    @Mixin Cluster cluster;

    @Mixin Target target;

    @Override
    public Integer call() throws Exception {
      List<String> flags = new ArrayList<>();
      target.into(flags);
      FlinkRestClient flink = flink(cluster);
      return call(flink, jobId(flink, Flags.parse(flags)));
    }

    /** Acts on the job {@code jobId}; returns the exit code. */
    abstract int call(FlinkRestClient flink, String jobId) throws Exception;
  }

  /** A subcommand that takes a savepoint of one job: also {@code --target-directory}. */
  abstract class SavepointOnJob extends OnJob {
    @Option(
        names = "--target-directory",
        paramLabel = "DIR",
        description = "where the savepoint goes")
    String targetDirectory;
  }

  @Command(
      name = "savepoint",
      description = "Take a savepoint; the job goes on (or stops, with --cancel).")
  final class Savepoint extends SavepointOnJob {
    @Option(names = "--cancel", description = "cancel the job once the savepoint is taken")
    boolean cancel;

    @Override
    int call(FlinkRestClient flink, String jobId) throws Exception {
      String location =
          flink.awaitSavepoint(
              jobId, flink.triggerSavepoint(jobId, targetDirectory, cancel), SAVEPOINT_TIMEOUT);
      out.println("savepoint " + location);
      return 0;
    }
  }

  @Command(name = "stop", description = "Stop a job with a final savepoint (the upgrade path).")
  final class Stop extends SavepointOnJob {
    @Override
    int call(FlinkRestClient flink, String jobId) throws Exception {
      String location =
          flink.awaitSavepoint(
              jobId, flink.stopWithSavepoint(jobId, targetDirectory), SAVEPOINT_TIMEOUT);
      out.println("stopped job " + jobId + " with savepoint " + location);
      out.println("restart it with: faultline jobs submit --from-savepoint " + location + " ...");
      return 0;
    }
  }

  @Command(name = "cancel", description = "Cancel a job without a savepoint.")
  final class Cancel extends OnJob {
    @Override
    int call(FlinkRestClient flink, String jobId) throws Exception {
      flink.cancel(jobId);
      out.println(
          "job "
              + jobId
              + " "
              + flink.awaitTerminal(jobId, Duration.ofMinutes(2)).toLowerCase(Locale.ROOT));
      return 0;
    }
  }

  @Command(name = "list", description = "List the cluster's jobs and their states.")
  final class ListJobs extends CliCommand {
    @Mixin Cluster cluster;

    @Override
    public Integer call() throws Exception {
      for (FlinkRestClient.JobSummary j : flink(cluster).jobs()) {
        out.printf("%s  %-10s %s%n", j.id(), j.state(), j.name());
      }
      return 0;
    }
  }

  /** A job the cluster accepted. */
  public record Submitted(Job job, String jobId) {}

  /**
   * Uploads the job jar once and runs the chosen jobs with the remaining flags as their program
   * arguments. Flags: {@code --job pipeline|stats|all} (default pipeline), {@code --jar PATH},
   * {@code --parallelism N} (also passed to the job), {@code --from-savepoint PATH}, {@code
   * --allow-non-restored-state}; every other {@code --name value} goes to the job ({@code
   * --kafka-bootstrap}, {@code --neo4j-uri}, {@code --kafka.security.protocol}, …).
   */
  public List<Submitted> submit(FlinkRestClient flink, Flags flags)
      throws IOException, InterruptedException {
    List<Job> jobs = Job.parse(flags.take("job", "pipeline"));
    Path jar = jar(flags.take("jar", env.get("FAULTLINE_JOB_JAR")));
    String savepoint = flags.take("from-savepoint", null);
    boolean allowNonRestored = flags.bool("allow-non-restored-state");
    String parallelismText = flags.peek("parallelism");
    int parallelism;
    try {
      parallelism = parallelismText == null ? 0 : Integer.parseInt(parallelismText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--parallelism '" + parallelismText + "' is not a whole number");
    }
    if (jobs.size() > 1 && savepoint != null) {
      throw new IllegalArgumentException(
          "--from-savepoint restores one job: pass --job pipeline or --job stats");
    }
    List<String> programArgs = flags.rest();
    String jarId = flink.uploadJar(jar);
    List<Submitted> submitted = new ArrayList<>();
    for (Job job : jobs) {
      String jobId =
          flink.run(
              jarId,
              new FlinkRestClient.RunRequest(
                  job.entryClass, programArgs, parallelism, savepoint, allowNonRestored));
      submitted.add(new Submitted(job, jobId));
    }
    return submitted;
  }

  /**
   * The job jar: {@code given} (--jar or $FAULTLINE_JOB_JAR) if not null, else the one {@code
   * jobs-dist/target/faultline-jobs-dist-*.jar}.
   */
  public static Path jar(String given) throws IOException {
    if (given != null) {
      return Path.of(given);
    }
    Path dir = Path.of(DEFAULT_JAR_GLOB_DIR);
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        List<Path> jars =
            files
                .filter(
                    p ->
                        p.getFileName().toString().matches("faultline-jobs-dist-.*\\.jar")
                            && !p.getFileName().toString().startsWith("original-"))
                .toList();
        if (jars.size() == 1) {
          return jars.get(0);
        }
      }
    }
    throw new IllegalArgumentException(
        "No job jar: pass --jar PATH or set FAULTLINE_JOB_JAR (build it with 'mvn -pl jobs-dist -am package')");
  }

  private static String jobId(FlinkRestClient flink, Flags flags) throws IOException {
    String id = flags.take("job-id", null);
    String job = flags.take("job", null);
    if (id != null) {
      return id;
    }
    if (job == null) {
      throw new IllegalArgumentException("pass --job-id ID or --job pipeline|stats");
    }
    List<Job> jobs = Job.parse(job);
    if (jobs.size() != 1) {
      throw new IllegalArgumentException(
          "--job all names two jobs: pass --job pipeline or --job stats");
    }
    return flink
        .activeJob(jobs.get(0).jobName)
        .map(FlinkRestClient.JobSummary::id)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "No active job named " + jobs.get(0).jobName + " on the cluster"));
  }

  /**
   * {@code --name value} pairs (and bare boolean flags), in order; what no subcommand takes is
   * handed to the job.
   */
  public static final class Flags {
    private static final List<String> BOOLEANS = List.of("cancel", "allow-non-restored-state");
    private final LinkedHashMap<String, String> values;

    private Flags(LinkedHashMap<String, String> values) {
      this.values = values;
    }

    public static Flags parse(List<String> args) {
      LinkedHashMap<String, String> values = new LinkedHashMap<>();
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (!a.startsWith("--") || a.length() == 2) {
          throw new IllegalArgumentException("Expected --name value, got '" + a + "'");
        }
        String name = a.substring(2);
        int eq = name.indexOf('=');
        if (eq > 0) {
          values.put(name.substring(0, eq), name.substring(eq + 1));
        } else if (BOOLEANS.contains(name)) {
          values.put(name, "true");
        } else if (i + 1 < args.size()) {
          values.put(name, args.get(++i));
        } else {
          throw new IllegalArgumentException("--" + name + " needs a value");
        }
      }
      return new Flags(values);
    }

    String take(String name, String fallback) {
      String v = values.remove(name);
      return v != null ? v : fallback;
    }

    String peek(String name) {
      return values.get(name);
    }

    boolean bool(String name) {
      return Boolean.parseBoolean(take(name, "false"));
    }

    List<String> rest() {
      List<String> rest = new ArrayList<>();
      values.forEach(
          (k, v) -> {
            rest.add("--" + k);
            rest.add(v);
          });
      return rest;
    }
  }
}
