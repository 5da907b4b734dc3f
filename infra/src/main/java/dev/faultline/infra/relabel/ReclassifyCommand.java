package dev.faultline.infra.relabel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.cli.CliCommand;
import dev.faultline.graph.GraphConfig;
import dev.faultline.infra.cluster.FlinkRestClient;
import dev.faultline.infra.cluster.JobsCommand;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.jobs.llm.LlmSettings;
import dev.faultline.schemas.KafkaSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code faultline reclassify}: relabels history with the classifier the stack runs now, by a
 * bounded replay of the system of record through the issue pipeline ({@link Reclassify}), and
 * writes what changed ({@link RelabelReport}) as {@code report.md} and {@code report.json} beside
 * the two snapshots it was built from ({@code before.json}, {@code after.json}), so the report can
 * be rebuilt. A run killed midway is resumed by running the command again with the same {@code
 * --report-dir}: it keeps the run's consumer group and its "before" snapshot.
 */
@Command(
    name = "reclassify",
    description = {
      "Relabel the issues in the graph with the classifier the stack runs now, and report what changed.",
      "",
      "A bounded replay of faultline.deliveries through the issue pipeline (its own consumer group, the same sink:",
      "newest state wins, idempotent) while live deliveries keep arriving. Writes report.md and report.json (counts",
      "before and after, transitions, share changed per framework and dimension) under --report-dir. Run it again",
      "with the same --report-dir to resume a run that was stopped. The graph keeps every label's version, when",
      "it was given and the label it replaced, so --changes-since rebuilds a report later. Kafka and Neo4j as for the jobs",
      "(FAULTLINE_KAFKA_BOOTSTRAP_SERVERS, FAULTLINE_NEO4J_*, or the flags).",
      "",
      "--since/--until/--framework choose what is relabelled, not only what is reported: every delivery is read",
      "(an issue's facts are anywhere in the topic), but issues and pull requests out of scope are dropped before",
      "classification and not written.",
      "",
      "With --jobmanager HOST:PORT (or $FAULTLINE_FLINK_JOBMANAGER) the replay runs as a job on that Flink cluster",
      "(the job jar, as 'faultline jobs submit'; its classifier and FAULTLINE_* environment are the cluster's, the",
      "connection flags given here are passed to it); this command follows it and writes the report."
    },
    footer = {
      "",
      "Why a bounded replay of the system of record, not a long-running relabelling job: faultline.deliveries",
      "holds every state of every issue, so reading it again is all a relabelling needs and no second copy of the",
      "state is kept; the replay runs the live pipeline's own code, so its labels are those live processing would",
      "give; bounded, it finishes and says so, and its consumer group's committed offsets make it resumable."
    })
public final class ReclassifyCommand extends CliCommand {

  @Option(names = "--since", paramLabel = "YYYY-MM-DD", description = "issues created on or after")
  LocalDate since;

  @Option(names = "--until", paramLabel = "YYYY-MM-DD", description = "issues created before")
  LocalDate until;

  @Option(names = "--framework", paramLabel = "NAME", description = "one framework only")
  String framework;

  @Option(
      names = "--dry-run",
      description = "show the scope and what would be replayed; change nothing")
  boolean dryRun;

  @Option(
      names = "--changes-since",
      paramLabel = "INSTANT",
      description = {
        "replay nothing: report what the labels in scope changed since INSTANT (e.g. 2026-11-27T23:00:00Z,",
        "or a run's startedAt in its run.json), rebuilt from the graph's label history alone"
      })
  Instant changesSince;

  @Option(
      names = "--report-dir",
      paramLabel = "DIR",
      description = "where the run's state and report go (default .faultline/reclassify)")
  Path reportDir = Path.of(".faultline", "reclassify");

  @Option(
      names = "--jobmanager",
      paramLabel = "HOST:PORT",
      description =
          "run the replay on this Flink cluster (its REST address; default $FAULTLINE_FLINK_JOBMANAGER,"
              + " else a local mini cluster)")
  String jobManager;

  @Option(
      names = "--jar",
      paramLabel = "PATH",
      description =
          "with --jobmanager: the job jar (default $FAULTLINE_JOB_JAR, else"
              + " jobs-dist/target/faultline-jobs-dist-*.jar)")
  String jar;

  @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT")
  String kafkaBootstrap;

  @Option(names = "--neo4j-uri", paramLabel = "URI")
  String neo4jUri;

  @Option(names = "--neo4j-user", paramLabel = "USER")
  String neo4jUser;

  @Option(names = "--neo4j-password", paramLabel = "PASSWORD")
  String neo4jPassword;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How often the replay checkpoints (and so commits the offsets its progress is read from). */
  private static final long CHECKPOINT_MILLIS = 2000;

  /** How often the replay's progress is printed. */
  private static final long PROGRESS_MILLIS = 2000;

  private final Map<String, String> env;

  public ReclassifyCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** A run of the command: its consumer group and scope, and whether it resumes a stopped one. */
  private record Run(String group, Reclassify.Scope scope, boolean resuming) {}

  @Override
  public Integer call() throws Exception {
    Reclassify.Scope given =
        new Reclassify.Scope(
            since == null ? null : since.atStartOfDay(ZoneOffset.UTC).toInstant(),
            until == null ? null : until.atStartOfDay(ZoneOffset.UTC).toInstant(),
            framework);
    Files.createDirectories(reportDir);
    if (changesSince != null) {
      return reportChangesSince(given);
    }
    Run run = resumeOrStart(given);
    JobConfig config = config(run.group(), run.scope());
    String cluster = jobManager != null ? jobManager : env.get("FAULTLINE_FLINK_JOBMANAGER");
    try (LabelSnapshots labels = new LabelSnapshots(config.io().graph())) {
      if (dryRun) {
        return dryRun(labels, config, run.scope(), cluster);
      }
      if (!run.resuming()) {
        start(labels, run);
      }
      replay(config, run, cluster);
      List<RelabelReport.Labels> after = labels.snapshot(run.scope());
      write(reportDir.resolve("after.json"), after);
      writeReport(RelabelReport.of(read(reportDir.resolve("before.json")), after));
    }
    out.println("reclassify: done; " + reportDir.resolve("report.md"));
    return 0;
  }

  /** {@code --changes-since}: the report rebuilt from the graph's label history, no replay. */
  private int reportChangesSince(Reclassify.Scope given) throws IOException {
    try (LabelSnapshots labels = new LabelSnapshots(graph())) {
      writeReport(
          RelabelReport.of(labels.snapshotAsOf(given, changesSince), labels.labelledNow(given)));
    }
    out.println(
        "reclassify: what changed since " + changesSince + ": " + reportDir.resolve("report.md"));
    return 0;
  }

  /**
   * The run of {@code --report-dir}: the stopped one its {@code run.json} names (its own group and
   * scope: its "before" snapshot and its group's progress are of that scope), else a new one.
   */
  private Run resumeOrStart(Reclassify.Scope given) throws IOException {
    Path runFile = reportDir.resolve("run.json");
    if (!Files.exists(runFile) || Files.exists(reportDir.resolve("report.json"))) {
      return new Run(
          "faultline-reclassify-" + UUID.randomUUID().toString().substring(0, 8), given, false);
    }
    JsonNode run = JSON.readTree(runFile.toFile());
    String group = run.path("group").asText();
    Reclassify.Scope scope = given;
    if (run.has("scope")) {
      JsonNode s = run.path("scope");
      scope =
          new Reclassify.Scope(
              s.hasNonNull("since") ? Instant.parse(s.get("since").asText()) : null,
              s.hasNonNull("until") ? Instant.parse(s.get("until").asText()) : null,
              s.hasNonNull("framework") ? s.get("framework").asText() : null);
      if (!scope.equals(given) && !given.equals(Reclassify.Scope.all())) {
        out.println(
            "reclassify: the run being resumed has its own scope; --since/--until/--framework"
                + " are ignored");
      }
    }
    out.println("reclassify: resuming the run of group " + group);
    return new Run(group, scope, true);
  }

  private int dryRun(
      LabelSnapshots labels, JobConfig config, Reclassify.Scope scope, String cluster)
      throws Exception {
    List<RelabelReport.Labels> now = labels.snapshot(scope);
    long[] prs = labels.pullRequestsInScope(scope);
    out.printf(
        Locale.ROOT,
        "reclassify --dry-run: %d issues and %d pull requests (%d merged) in scope would be"
            + " relabelled; %d deliveries would be read%s; nothing changed%n",
        now.size(),
        prs[0],
        prs[1],
        Reclassify.remaining(config.io()),
        cluster == null ? "" : " by a job on " + cluster);
    return 0;
  }

  /** A new run: old results gone, the "before" snapshot and {@code run.json} written. */
  private void start(LabelSnapshots labels, Run run) throws IOException {
    for (String f : List.of("report.json", "report.md", "after.json")) {
      Files.deleteIfExists(reportDir.resolve(f));
    }
    // The instant before the "before" snapshot: labels the graph stamps at or after it are the
    // run's (LabelSnapshots.snapshotAsOf rebuilds "before" from the graph with it).
    Instant startedAt = Instant.now();
    Reclassify.Scope scope = run.scope();
    write(reportDir.resolve("before.json"), labels.snapshot(scope));
    ObjectNode json = JSON.createObjectNode();
    json.put("group", run.group());
    json.put("startedAt", startedAt.toString());
    ObjectNode runScope = json.putObject("scope");
    runScope.put("since", scope.since() == null ? null : scope.since().toString());
    runScope.put("until", scope.until() == null ? null : scope.until().toString());
    runScope.put("framework", scope.framework());
    Files.writeString(reportDir.resolve("run.json"), json.toString(), StandardCharsets.UTF_8);
  }

  /** The bounded replay, here or on the cluster, with its progress on the output. */
  private void replay(JobConfig config, Run run, String cluster) throws Exception {
    java.util.function.Consumer<Reclassify.Progress> progress =
        p ->
            out.printf(
                Locale.ROOT,
                "reclassify: %d of %d deliveries replayed (%.0f/s, about %s left)%n",
                p.done(),
                p.total(),
                p.perSecond(),
                Double.isNaN(p.secondsLeft()) ? "?" : Math.round(p.secondsLeft()) + " s");
    if (cluster == null) {
      Reclassify.replay(config, PROGRESS_MILLIS, progress, job -> {});
      return;
    }
    Reclassify.replayOnCluster(
        FlinkRestClient.forJobManager(cluster),
        JobsCommand.jar(jar != null ? jar : env.get("FAULTLINE_JOB_JAR")),
        clusterArgs(run.group()),
        run.scope(),
        config.io(),
        PROGRESS_MILLIS,
        progress,
        jobId -> out.println("reclassify: replaying as job " + jobId + " on " + cluster));
  }

  private void writeReport(RelabelReport report) throws IOException {
    Files.writeString(reportDir.resolve("report.md"), report.toMarkdown(), StandardCharsets.UTF_8);
    Files.writeString(
        reportDir.resolve("report.json"),
        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report.toJson(JSON)),
        StandardCharsets.UTF_8);
  }

  /** The graph of the flags given, else of the environment. */
  private GraphConfig graph() {
    return GraphConfig.of(neo4jUri, neo4jUser, neo4jPassword, null, env);
  }

  /**
   * The replay of {@code scope} under consumer group {@code group} in this process: Kafka and Neo4j
   * of the flags given, else of the environment, checkpoints every 2 s (where
   * FAULTLINE_CHECKPOINT_DIR says, if set), the environment's classifier tiers.
   */
  private JobConfig config(String group, Reclassify.Scope scope) {
    JobIo io =
        new JobIo(
            KafkaSettings.of(kafkaBootstrap, Map.of(), env),
            group,
            graph(),
            SinkOptions.DEFAULTS,
            new JobIo.Checkpoints(
                Duration.ofMillis(CHECKPOINT_MILLIS), env.get(JobIo.ENV_CHECKPOINT_DIR)),
            0);
    return new JobConfig(
        io,
        ClassifierTier.fromEnvironment(env),
        LlmSettings.fromEnvironment(env),
        Replay.of(scope.replay()));
  }

  /**
   * The program arguments of the replay job on a cluster: its group, its checkpoints and the
   * connection flags given (what is not given comes from the cluster's own environment, as do its
   * classifier tiers).
   */
  private List<String> clusterArgs(String group) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--group-id", group, "--checkpoint-interval-ms", Long.toString(CHECKPOINT_MILLIS)));
    add(args, "--kafka-bootstrap", kafkaBootstrap);
    add(args, "--neo4j-uri", neo4jUri);
    add(args, "--neo4j-user", neo4jUser);
    add(args, "--neo4j-password", neo4jPassword);
    return args;
  }

  private static void add(List<String> args, String flag, String value) {
    if (value != null) {
      args.add(flag);
      args.add(value);
    }
  }

  /** Writes a snapshot as JSON lines of {id, framework, codes}. */
  static void write(Path file, List<RelabelReport.Labels> labels) throws IOException {
    ArrayNode a = JSON.createArrayNode();
    for (RelabelReport.Labels l : labels) {
      ObjectNode o = a.addObject();
      o.put("id", l.id());
      o.put("framework", l.framework());
      ObjectNode c = o.putObject("codes");
      l.codes().forEach(c::put);
    }
    Files.writeString(file, a.toString(), StandardCharsets.UTF_8);
  }

  /** Reads a snapshot written by {@link #write}. */
  static List<RelabelReport.Labels> read(Path file) throws IOException {
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (JsonNode o : JSON.readTree(file.toFile())) {
      Map<String, String> codes = new HashMap<>();
      o.path("codes").fields().forEachRemaining(e -> codes.put(e.getKey(), e.getValue().asText()));
      out.add(new RelabelReport.Labels(o.path("id").asText(), o.path("framework").asText(), codes));
    }
    return out;
  }
}
