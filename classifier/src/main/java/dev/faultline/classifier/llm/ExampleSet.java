package dev.faultline.classifier.llm;

import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.FeatureExtractor;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.learned.TrainingData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A labelled example set the user points to (a JSONL file in the training format, or a directory of
 * them, e.g. {@code ../shared/train/}; in production, e.g., an export of the graph's human-given
 * labels), embedded with the offline tier's encoder so the prompt can show the k nearest examples:
 * a short excerpt of each and its labels. Only excerpts of at most {@link #EXCERPT_CHARS}
 * characters are kept in memory; nothing is written anywhere.
 */
public final class ExampleSet {

  /** Longest excerpt of an example shown in a prompt. */
  public static final int EXCERPT_CHARS = 400;

  /**
   * One labelled example.
   *
   * @param id {@code owner/repo#n} or a commit
   * @param excerpt the start of its title and text, whitespace collapsed, at most {@link
   *     #EXCERPT_CHARS} characters
   * @param labels gold field name to code, in answer order
   */
  public record Example(String id, String excerpt, Map<String, String> labels) {}

  /** An example and its cosine similarity to the item. */
  public record Near(Example example, double similarity) {}

  private final List<Example> examples;
  private final List<float[]> vectors;
  private final TextEmbedder embedder;
  private final String source;

  ExampleSet(List<Example> examples, List<float[]> vectors, TextEmbedder embedder, String source) {
    this.examples = List.copyOf(examples);
    this.vectors = List.copyOf(vectors);
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.source = source;
  }

  /**
   * Reads and embeds a labelled file, or every {@code *.jsonl} file of a directory.
   *
   * @throws TrainingData.BadInput a line is not a labelled record (file and line named)
   */
  public static ExampleSet load(Path fileOrDir, TextEmbedder embedder)
      throws IOException, TrainingData.BadInput {
    return load(fileOrDir, embedder, embedder);
  }

  /**
   * Reads and embeds a labelled file or directory with one encoder (e.g. a {@link
   * dev.faultline.classifier.learned.CachedEmbedder} that remembers the examples' vectors between
   * runs) and embeds the items asked about with another of the same name (one that remembers
   * nothing).
   */
  public static ExampleSet load(Path fileOrDir, TextEmbedder forExamples, TextEmbedder forItems)
      throws IOException, TrainingData.BadInput {
    if (!forExamples.name().equals(forItems.name())) {
      throw new IllegalArgumentException("examples and items must be embedded by the same encoder");
    }
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(fileOrDir)) {
      try (Stream<Path> s = Files.list(fileOrDir)) {
        s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().forEach(files::add);
      }
      if (files.isEmpty()) {
        throw new TrainingData.BadInput(fileOrDir + ": no .jsonl files in this directory");
      }
    } else {
      files.add(fileOrDir);
    }
    List<Example> ex = new ArrayList<>();
    List<float[]> vs = new ArrayList<>();
    for (Path f : files) {
      for (TrainingData.Item it : TrainingData.read(f)) {
        String text = FeatureExtractor.embeddingText(it.text());
        Map<String, String> labels = new LinkedHashMap<>();
        for (Target t : Target.values()) {
          labels.put(t.field, it.gold().get(t));
        }
        ex.add(new Example(it.id(), excerpt(it.text()), labels));
        vs.add(forExamples.embed(text));
      }
    }
    return new ExampleSet(ex, vs, forItems, fileOrDir.toString());
  }

  /** Where the examples came from. */
  public String source() {
    return source;
  }

  /** How many examples there are. */
  public int size() {
    return examples.size();
  }

  /**
   * The k examples nearest to an item by cosine similarity of their text vectors, most similar
   * first. An example with the item's own id ({@code repo#number}) is skipped, so an item never
   * sees its own labels.
   */
  public List<Near> nearest(IssueText item, int k) {
    if (k <= 0 || examples.isEmpty()) {
      return List.of();
    }
    float[] q = embedder.embed(FeatureExtractor.embeddingText(item));
    String own = item.repo() + "#" + item.number();
    double[] sims = new double[examples.size()];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < examples.size(); i++) {
      sims[i] = cosine(q, vectors.get(i));
      if (!examples.get(i).id().equals(own)) {
        order.add(i);
      }
    }
    order.sort(
        java.util.Comparator.comparingDouble((Integer i) -> -sims[i])
            .thenComparing(i -> examples.get(i).id()));
    List<Near> out = new ArrayList<>();
    for (int i = 0; i < Math.min(k, order.size()); i++) {
      out.add(new Near(examples.get(order.get(i)), sims[order.get(i)]));
    }
    return out;
  }

  /**
   * The start of an item's title and text, whitespace collapsed, at most {@link #EXCERPT_CHARS}
   * characters.
   */
  static String excerpt(IssueText t) {
    String s = (t.title() + " — " + t.body()).replaceAll("\\s+", " ").strip();
    return s.length() <= EXCERPT_CHARS ? s : s.substring(0, EXCERPT_CHARS - 1) + "…";
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return dot / (Math.sqrt(na) * Math.sqrt(nb) + 1e-12);
  }
}
