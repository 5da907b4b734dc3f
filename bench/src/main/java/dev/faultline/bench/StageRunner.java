package dev.faultline.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.bench.BenchCommand.Options;
import dev.faultline.bench.BenchCommand.Progress;
import dev.faultline.bench.BenchCommand.Sizes;
import dev.faultline.bench.BenchCommand.Stage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How each stage's benchmark runs: its child JVM's command line (class path, heap, the benchmark's
 * main and sizes), and its raw results ({@code raw/<stage>-<repeat>.json}).
 */
final class StageRunner {
  private final ObjectMapper json = new ObjectMapper();

  /** One run of one stage: its files, class path and the child's command line so far. */
  record StageRun(
      Path raw,
      Path log,
      Path work,
      String cp,
      List<String> command,
      List<String> opens,
      Sizes sizes,
      Options options,
      Progress progress,
      String what) {}

  /** Runs one repeat of {@code stage}; true when it wrote its raw results. */
  boolean run(Stage stage, int repeat, Sizes sizes, Options options, Progress progress, String what)
      throws IOException, InterruptedException {
    Path outDir = options.out();
    Path raw = outDir.resolve("raw").resolve(stage.id + "-" + repeat + ".json");
    Path log = outDir.resolve("logs").resolve(stage.id + "-" + repeat + ".log");
    Path work = Files.createTempDirectory("faultline-bench-" + stage.id);
    String cp = Files.readString(outDir.resolve("cp").resolve(stage.id + ".txt")).trim();
    List<String> command = new ArrayList<>(List.of(javaBin()));
    List<String> opens = addOpens();
    StageRun run = new StageRun(raw, log, work, cp, command, opens, sizes, options, progress, what);
    try {
      return switch (stage) {
        case CLASSIFIER -> runClassifier(run);
        case RECEIVER -> runReceiver(run);
        case STATS -> runStats(run);
        case QUERY -> runQuery(run);
        case PIPELINE -> runPipeline(run);
        case SOAK -> runSoak(run);
      };
    } finally {
      BenchBuild.deleteRecursively(work);
    }
  }

  /** Runs the stage's child JVM; true when it exited 0. */
  private boolean runChild(StageRun run) throws IOException, InterruptedException {
    return ChildProcess.run(
            run.command(),
            run.options().out(),
            run.log(),
            run.options().stageTimeout(),
            run.progress(),
            run.what())
        == 0;
  }

  private boolean runClassifier(StageRun run) throws IOException, InterruptedException {
    Path jmh = run.work().resolve("jmh.json");
    run.command().addAll(List.of("-cp", run.cp(), "org.openjdk.jmh.Main"));
    run.command().addAll(List.of(run.sizes().jmhArgs().split(" ")));
    run.command()
        .addAll(List.of("-rf", "json", "-rff", jmh.toString(), "dev.faultline.classifier.bench"));
    if (!runChild(run) || !Files.exists(jmh)) {
      return false;
    }
    writeJson(run.raw(), RawResults.fromJmh(json.readTree(jmh.toFile())));
    return true;
  }

  private boolean runReceiver(StageRun run) throws IOException, InterruptedException {
    run.command()
        .addAll(
            List.of(
                "-Xmx2g",
                "-Dfaultline.bench.out=" + run.raw(),
                "-Dfaultline.bench.backfillEvents=" + run.sizes().backfillEvents(),
                "-cp",
                run.cp(),
                "dev.faultline.ingest.bench.ReceiverBenchmark",
                "32",
                Integer.toString(run.sizes().receiverRequests())));
    return runChild(run) && Files.exists(run.raw());
  }

  private boolean runStats(StageRun run) throws IOException, InterruptedException {
    run.command().addAll(run.opens());
    run.command()
        .addAll(
            List.of(
                "-Xmx2g",
                "-Dfaultline.bench.out=" + run.raw(),
                "-cp",
                run.cp(),
                "dev.faultline.stats.CategoryStatsBenchmark",
                Long.toString(run.sizes().statsEvents())));
    if (!runChild(run)) {
      return false;
    }
    if (!Files.exists(run.raw())) {
      // A benchmark main without the JSON output: its printed lines carry the same figures.
      Optional<Map<String, Double>> parsed =
          RawResults.parseStats(Files.readString(run.log(), StandardCharsets.UTF_8));
      if (parsed.isEmpty()) {
        return false;
      }
      writeJson(run.raw(), parsed.get());
    }
    return true;
  }

  private boolean runQuery(StageRun run) throws IOException, InterruptedException {
    run.command()
        .addAll(
            List.of(
                "-Xmx3g",
                "-Dfaultline.bench.out=" + run.raw(),
                "-Dfaultline.bench.issues=" + run.sizes().queryIssues(),
                "-Dfaultline.bench.runs=" + run.sizes().queryRuns(),
                "-cp",
                run.cp(),
                "dev.faultline.estimate.bench.QueryLatencyBenchmark"));
    return runChild(run) && Files.exists(run.raw());
  }

  private boolean runPipeline(StageRun run) throws IOException, InterruptedException {
    run.command().addAll(run.opens());
    run.command()
        .addAll(
            List.of(
                "-Xmx2g",
                "-Dfaultline.addOpens=" + String.join(" ", run.opens()),
                "-cp",
                run.cp(),
                "dev.faultline.infra.bench.PipelineBenchmark",
                Integer.toString(run.sizes().pipelineEvents()),
                run.work().toString()));
    boolean finished = runChild(run);
    // A child stopped by the stage timeout leaves the parts it finished: report those.
    if (Files.exists(run.work().resolve("pipeline.json"))) {
      Files.copy(
          run.work().resolve("pipeline.json"), run.raw(), StandardCopyOption.REPLACE_EXISTING);
    }
    return finished;
  }

  private boolean runSoak(StageRun run) throws IOException, InterruptedException {
    run.command()
        .addAll(
            List.of(
                "-Xmx1g",
                "-Dfaultline.bench.out=" + run.raw(),
                "-cp",
                run.cp(),
                "dev.faultline.infra.bench.SoakBenchmark",
                Integer.toString(run.sizes().soakRate()),
                Integer.toString(run.sizes().soakSeconds()),
                Integer.toString(run.options().soakIssues())));
    return runChild(run) && Files.exists(run.raw());
  }

  private void writeJson(Path file, Map<String, Double> values) throws IOException {
    Files.writeString(file, json.writerWithDefaultPrettyPrinter().writeValueAsString(values));
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The {@code --add-opens} flags Flink needs on Java 17: those this JVM was started with (the
   * launcher passes the parent pom's {@code flink.addOpens}), else the same list.
   */
  static List<String> addOpens() {
    List<String> own =
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("--add-opens="))
            .toList();
    if (!own.isEmpty()) {
      return own;
    }
    return Stream.of(
            "java.lang",
            "java.util",
            "java.lang.reflect",
            "java.time",
            "java.nio",
            "sun.nio.ch",
            "java.net",
            "java.io",
            "java.util.concurrent",
            "java.util.concurrent.atomic",
            "java.text",
            "java.math")
        .map(p -> "--add-opens=java.base/" + p + "=ALL-UNNAMED")
        .toList();
  }
}
