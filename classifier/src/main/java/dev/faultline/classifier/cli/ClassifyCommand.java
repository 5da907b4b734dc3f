package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.ClassifierConfig;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code classify --input IN.jsonl --output OUT.jsonl [--config RESOURCE]}: batch classification with the same
 * {@link dev.faultline.classifier.DefectClassifier} the stream uses. Input lines carry {@code url, repo, number, title, state, labels, text}; output
 * lines carry {@code url}, the codebook fields, {@code confidence} and {@code evidence} per field.
 */
public final class ClassifyCommand {

  static final String USAGE =
      String.join(
          "\n",
          "usage: classify --input IN.jsonl --output OUT.jsonl [--tier learned|rules] [--model FILE] [--config CLASSPATH_RESOURCE]",
          "  --input   JSON lines with url, repo, number, title, state, labels, text",
          "  --output  JSON lines with url, kind, symptom, root_cause, fix_pattern, stage, phase,",
          "            distributed_specific, framework, versions, confidence, evidence",
          "  --tier    learned (default: the calibrated learned layer over the rules) or rules (the rules alone)",
          "  --model   a learned-model artefact written by train (default: the committed one)",
          "  --config  classifier config resource (default " + ClassifierConfig.DEFAULT_RESOURCE + ")");

  private ClassifyCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the process exit code (0 ok, 2 usage error, 1 I/O or data error). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Args a;
    try {
      a = Args.parse(args, "--input", "--output", "--config", "--tier", "--model");
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }
    if (a.help()) {
      out.println(USAGE);
      return 0;
    }
    if (a.get("--input") == null || a.get("--output") == null) {
      err.println("classify: --input and --output are required");
      err.println(USAGE);
      return 2;
    }
    ClassifierConfig config =
        a.get("--config") == null ? ClassifierConfig.defaults() : ClassifierConfig.load(a.get("--config"));
    DefectClassifier classifier;
    try {
      classifier = Tiers.of(a.get("--tier") == null ? "learned" : a.get("--tier"), config, a.get("--model"));
    } catch (IllegalArgumentException e) {
      err.println("classify: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (IOException | IllegalStateException e) {
      err.println("classify: cannot load the learned model: " + e.getMessage());
      return 1;
    }
    ObjectMapper json = new ObjectMapper();
    Path in = Path.of(a.get("--input"));
    Path outPath = Path.of(a.get("--output"));
    long started = System.nanoTime();
    int n = 0;
    int lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.UTF_8);
        BufferedWriter w = Files.newBufferedWriter(outPath, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode rec;
        try {
          rec = json.readTree(line);
        } catch (IOException e) {
          err.println("classify: " + in + " line " + lineNo + " is not JSON: " + e.getMessage());
          return 1;
        }
        String url = rec.path("url").asText("");
        w.write(json.writeValueAsString(Records.output(json, url, classifier.classify(Records.issue(rec), Tiers.change(rec)))));
        w.write('\n');
        n++;
        if (n % 10_000 == 0) {
          err.printf("classify: %d issues...%n", n);
        }
      }
    } catch (IOException e) {
      err.println("classify: cannot read " + in + " or write " + outPath + ": " + e.getMessage());
      return 1;
    }
    double secs = (System.nanoTime() - started) / 1e9;
    err.printf("classify: %d issues in %.2f s (%s) -> %s%n", n, secs, classifier.version(), outPath);
    return 0;
  }
}
