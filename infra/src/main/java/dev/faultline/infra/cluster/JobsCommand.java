package dev.faultline.infra.cluster;

import dev.faultline.infra.Command;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.stats.CategoryStatsJob;
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

/**
 * {@code faultline jobs submit|savepoint|stop|cancel|list}: deploys and upgrades the job jar on a Flink cluster
 * through the JobManager's REST API. The same jar and the same job flags run on a session cluster, behind the
 * Kubernetes operator, or on the local MiniCluster.
 */
public final class JobsCommand implements Command {
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
      throw new IllegalArgumentException("--job '" + value + "' is not one of pipeline, stats, all");
    }
  }

  /** Where {@code submit} looks for the job jar when neither --jar nor FAULTLINE_JOB_JAR is given. */
  static final String DEFAULT_JAR_GLOB_DIR = "jobs-dist/target";

  private static final Duration SAVEPOINT_TIMEOUT = Duration.ofMinutes(10);

  private final Map<String, String> env;

  public JobsCommand() {
    this(System.getenv());
  }

  public JobsCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public String name() {
    return "jobs";
  }

  @Override
  public String summary() {
    return "submit, savepoint, stop, cancel or list the jobs on a Flink cluster (REST API)";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(usage());
      return args.length == 0 ? 2 : 0;
    }
    Flags flags = Flags.parse(List.of(args).subList(1, args.length));
    FlinkRestClient flink = FlinkRestClient.forJobManager(flags.take("jobmanager", env.get("FAULTLINE_FLINK_JOBMANAGER")));
    return switch (args[0]) {
      case "submit" -> {
        for (Submitted s : submit(flink, flags)) {
          out.println("submitted " + s.job().jobName + " as job " + s.jobId());
        }
        yield 0;
      }
      case "savepoint" -> {
        String jobId = jobId(flink, flags);
        String dir = flags.take("target-directory", null);
        boolean cancel = flags.bool("cancel");
        flags.requireEmpty();
        String location = flink.awaitSavepoint(jobId, flink.triggerSavepoint(jobId, dir, cancel), SAVEPOINT_TIMEOUT);
        out.println("savepoint " + location);
        yield 0;
      }
      case "stop" -> {
        String jobId = jobId(flink, flags);
        String dir = flags.take("target-directory", null);
        flags.requireEmpty();
        String location = flink.awaitSavepoint(jobId, flink.stopWithSavepoint(jobId, dir), SAVEPOINT_TIMEOUT);
        out.println("stopped job " + jobId + " with savepoint " + location);
        out.println("restart it with: faultline jobs submit --from-savepoint " + location + " ...");
        yield 0;
      }
      case "cancel" -> {
        String jobId = jobId(flink, flags);
        flags.requireEmpty();
        flink.cancel(jobId);
        out.println("job " + jobId + " " + flink.awaitTerminal(jobId, Duration.ofMinutes(2)).toLowerCase(Locale.ROOT));
        yield 0;
      }
      case "list" -> {
        flags.requireEmpty();
        for (FlinkRestClient.JobSummary j : flink.jobs()) {
          out.printf("%s  %-10s %s%n", j.id(), j.state(), j.name());
        }
        yield 0;
      }
      default -> throw new IllegalArgumentException("unknown subcommand '" + args[0] + "': use submit, savepoint, stop, cancel or list");
    };
  }

  /** A job the cluster accepted. */
  public record Submitted(Job job, String jobId) {}

  /**
   * Uploads the job jar once and runs the chosen jobs with the remaining flags as their program arguments. Flags:
   * {@code --job pipeline|stats|all} (default pipeline), {@code --jar PATH}, {@code --parallelism N} (also passed to
   * the job), {@code --from-savepoint PATH}, {@code --allow-non-restored-state}; every other {@code --name value}
   * goes to the job ({@code --kafka-bootstrap}, {@code --neo4j-uri}, {@code --kafka.security.protocol}, …).
   */
  public List<Submitted> submit(FlinkRestClient flink, Flags flags) throws IOException, InterruptedException {
    List<Job> jobs = Job.parse(flags.take("job", "pipeline"));
    Path jar = jar(flags.take("jar", env.get("FAULTLINE_JOB_JAR")));
    String savepoint = flags.take("from-savepoint", null);
    boolean allowNonRestored = flags.bool("allow-non-restored-state");
    String parallelismText = flags.peek("parallelism");
    int parallelism;
    try {
      parallelism = parallelismText == null ? 0 : Integer.parseInt(parallelismText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--parallelism '" + parallelismText + "' is not a whole number");
    }
    if (jobs.size() > 1 && savepoint != null) {
      throw new IllegalArgumentException("--from-savepoint restores one job: pass --job pipeline or --job stats");
    }
    List<String> programArgs = flags.rest();
    String jarId = flink.uploadJar(jar);
    List<Submitted> submitted = new ArrayList<>();
    for (Job job : jobs) {
      String jobId = flink.run(jarId, new FlinkRestClient.RunRequest(job.entryClass, programArgs, parallelism, savepoint, allowNonRestored));
      submitted.add(new Submitted(job, jobId));
    }
    return submitted;
  }

  private static Path jar(String given) throws IOException {
    if (given != null) {
      return Path.of(given);
    }
    Path dir = Path.of(DEFAULT_JAR_GLOB_DIR);
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        List<Path> jars =
            files.filter(p -> p.getFileName().toString().matches("faultline-jobs-dist-.*\\.jar") && !p.getFileName().toString().startsWith("original-")).toList();
        if (jars.size() == 1) {
          return jars.get(0);
        }
      }
    }
    throw new IllegalArgumentException("No job jar: pass --jar PATH or set FAULTLINE_JOB_JAR (build it with 'mvn -pl jobs-dist -am package')");
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
      throw new IllegalArgumentException("--job all names two jobs: pass --job pipeline or --job stats");
    }
    return flink.activeJob(jobs.get(0).jobName).map(FlinkRestClient.JobSummary::id)
        .orElseThrow(() -> new IllegalArgumentException("No active job named " + jobs.get(0).jobName + " on the cluster"));
  }

  /** {@code --name value} pairs (and bare boolean flags), in order; what no subcommand takes is handed to the job. */
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
      values.forEach((k, v) -> {
        rest.add("--" + k);
        rest.add(v);
      });
      return rest;
    }

    void requireEmpty() {
      if (!values.isEmpty()) {
        throw new IllegalArgumentException("unknown flags " + values.keySet());
      }
    }
  }

  static String usage() {
    return """
        Usage: faultline jobs SUBCOMMAND --jobmanager HOST:PORT [FLAGS]

          submit     upload the job jar and run jobs
                       [--job pipeline|stats|all] [--jar PATH] [--parallelism N]
                       [--from-savepoint PATH [--allow-non-restored-state]]
                       [job flags: --kafka-bootstrap H:P --neo4j-uri URI --neo4j-user U --neo4j-password P
                        --group-id G --checkpoint-interval-ms MS --kafka.X VALUE ...]
          stop       stop a job with a final savepoint (the upgrade path)  --job pipeline|stats | --job-id ID
                       [--target-directory DIR]
          savepoint  take a savepoint, the job goes on                      --job ... | --job-id ID
                       [--target-directory DIR] [--cancel]
          cancel     cancel a job without a savepoint                       --job ... | --job-id ID
          list       the cluster's jobs and their states

        --jobmanager is the JobManager's REST address (rest.port, 8081 by default); FAULTLINE_FLINK_JOBMANAGER is
        read when it is missing. The job jar defaults to FAULTLINE_JOB_JAR, else jobs-dist/target/faultline-jobs-dist-*.jar.
        Upgrade: faultline jobs stop --job pipeline → faultline jobs submit --job pipeline --from-savepoint PATH.
        """;
  }
}
