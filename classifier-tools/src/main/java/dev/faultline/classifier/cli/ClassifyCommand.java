package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.llm.LlmClassifier;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code classify --input IN.jsonl --output OUT.jsonl [--config RESOURCE]}: batch classification
 * with the same {@link dev.faultline.classifier.DefectClassifier} the stream uses. Input lines
 * carry {@code url, repo, number, title, state, labels, text}; output lines carry {@code url}, the
 * codebook fields, {@code confidence} and {@code evidence} per field.
 */
@Command(
    name = "classify",
    description = {
      "Classify issues from a JSONL file with the stream's classifier.",
      "",
      "One output line per input line, with the codebook fields, a confidence and the evidence per field."
    },
    footer = {"", LlmOptions.FOOTER})
public final class ClassifyCommand extends CliCommand {

  @Option(
      names = "--input",
      required = true,
      paramLabel = "IN.jsonl",
      description = "JSON lines with url, repo, number, title, state, labels, text")
  Path input;

  @Option(
      names = "--output",
      required = true,
      paramLabel = "OUT.jsonl",
      description =
          "JSON lines with url, kind, symptom, root_cause, fix_pattern, stage, phase, distributed_specific,"
              + " framework, versions, confidence, evidence")
  Path output;

  @Option(
      names = "--tier",
      defaultValue = "learned",
      paramLabel = "TIER",
      completionCandidates = Tiers.Names.class,
      description =
          "learned (the calibrated learned layer over the rules), rules (the rules alone) or llm (a language"
              + " model's answers over the learned layer; see README)")
  String tier;

  @Mixin ModelFlag modelFlag;

  @Mixin ConfigFlags configFlags;

  private final Map<String, String> env;

  /**
   * A command reading the language-model tier's {@code FAULTLINE_LLM_*} settings from {@code env}.
   */
  public ClassifyCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * Runs the command with an empty environment; returns the process exit code (0 ok, 2 usage error,
   * 1 I/O or data error).
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(new ClassifyCommand(Map.of()), args, out, err);
  }

  @Override
  public Integer call() {
    ClassifierConfig config = configFlags.load();
    DefectClassifier classifier;
    LlmOptions llmOptions;
    try {
      llmOptions = configFlags.forTier(tier, env);
      classifier = Tiers.of(tier, config, modelFlag.model, llmOptions);
    } catch (IllegalArgumentException e) {
      throw usageError(e.getMessage());
    } catch (IOException | IllegalStateException | java.io.UncheckedIOException e) {
      err.println("classify: cannot load the " + tier + " tier: " + e.getMessage());
      return 1;
    }
    ObjectMapper json = new ObjectMapper();
    Path in = input;
    Path outPath = output;
    long started = System.nanoTime();
    int n = 0;
    LlmClassifier llm = classifier instanceof LlmClassifier l ? l : null;
    // The language-model tier waits on the endpoint: items go out concurrently, and are written in
    // input order.
    int parallel =
        llm != null && llmOptions.config().endpointConfigured()
            ? llmOptions.config().concurrency()
            : 1;
    ExecutorService pool = parallel > 1 ? Executors.newFixedThreadPool(parallel) : null;
    Deque<Future<ObjectNode>> window = new ArrayDeque<>();
    try (JsonLines lines = JsonLines.open(in);
        BufferedWriter w = Files.newBufferedWriter(outPath, StandardCharsets.UTF_8)) {
      JsonNode rec;
      while ((rec = lines.next(json)) != null) {
        final JsonNode record = rec;
        final DefectClassifier c = classifier;
        java.util.concurrent.Callable<ObjectNode> task = () -> output(json, c, llm, record);
        window.add(
            pool == null ? CompletableFuture.completedFuture(task.call()) : pool.submit(task));
        while (window.size() > parallel * 4 || (pool == null && !window.isEmpty())) {
          write(w, json, window.poll());
        }
        n++;
        if (n % 10_000 == 0) {
          err.printf("classify: %d issues...%n", n);
        }
      }
      while (!window.isEmpty()) {
        write(w, json, window.poll());
      }
    } catch (JsonLines.NotJson e) {
      err.println("classify: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("classify: cannot read " + in + " or write " + outPath + ": " + e.getMessage());
      return 1;
    } catch (java.util.concurrent.ExecutionException e) {
      err.println("classify: " + e.getCause());
      return 1;
    } catch (Exception e) {
      err.println("classify: " + e);
      return 1;
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    double secs = (System.nanoTime() - started) / 1e9;
    err.printf(
        "classify: %d issues in %.2f s (%s) -> %s%n", n, secs, classifier.version(), outPath);
    if (llm != null) {
      err.println("classify: language-model tier: " + llm.stats());
    }
    return 0;
  }

  /**
   * One output record; with the language-model tier also {@code source} and, on fallback, {@code
   * fallback_reason}.
   */
  static ObjectNode output(ObjectMapper json, DefectClassifier c, LlmClassifier llm, JsonNode rec) {
    String url = rec.path("url").asText("");
    if (llm == null) {
      return Records.output(json, url, c.classify(ThreadText.ofRecord(rec), Tiers.change(rec)));
    }
    LlmClassifier.Outcome o = llm.outcome(ThreadText.ofRecord(rec), Tiers.change(rec));
    ObjectNode out = Records.output(json, url, o.classification());
    out.put("source", o.source());
    if (o.reason() != null) {
      out.put("fallback_reason", o.reason());
    }
    return out;
  }

  private static void write(BufferedWriter w, ObjectMapper json, Future<ObjectNode> f)
      throws Exception {
    w.write(json.writeValueAsString(f.get()));
    w.write('\n');
  }
}
