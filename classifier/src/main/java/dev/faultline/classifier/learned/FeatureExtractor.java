package dev.faultline.classifier.learned;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.rules.Classifier;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads the learned layer's raw features of one item: the encoder's vector of its text, the rules'
 * answers and cue counts, the shape of the item, and bags of words of title, text and diff. The
 * same code runs in training and in the stream, so the two see the same features.
 */
public final class FeatureExtractor {

  private final TextEmbedder embedder;

  public FeatureExtractor(TextEmbedder embedder) {
    this.embedder = embedder;
  }

  /**
   * The text given to the encoder: title, opening post, then comments, cut at the encoder's limit.
   */
  public static String embeddingText(IssueText in) {
    StringBuilder b =
        new StringBuilder(Math.min(8192, in.title().length() + in.body().length() + 64));
    b.append(in.title()).append('\n').append(in.body());
    for (Comment c : in.comments()) {
      if (b.length() >= MiniLmEmbedder.MAX_CHARS) {
        break;
      }
      b.append('\n').append(c.body());
    }
    return b.length() > MiniLmEmbedder.MAX_CHARS
        ? b.substring(0, MiniLmEmbedder.MAX_CHARS)
        : b.toString();
  }

  /** Raw features of an item, given the rules' analysis of it. */
  public RawFeatures extract(IssueText in, ChangeDetails change, Classifier.Analysis rules) {
    return extract(in, change, rules, embedder.embed(embeddingText(in)));
  }

  /** Raw features of an item whose text vector is already known. */
  public static RawFeatures extract(
      IssueText in, ChangeDetails change, Classifier.Analysis rules, float[] embedding) {
    Map<String, Double> fixed = new HashMap<>();
    boolean isChange = in.isMergedPullRequest();
    fixed.put(isChange ? "item=change" : "item=issue", 1.0);
    if (in.pullRequests().stream().anyMatch(p -> p.merged())) {
      fixed.put("item.linkedMergedFix", 1.0);
    }
    fixed.put("item.comments", Math.log1p(in.comments().size()));
    fixed.put("item.length", Math.log1p(in.body().length()) / 8.0);
    Classification c = rules.classification();
    for (Target t : Target.values()) {
      rule(fixed, t.featureName(), c.label(t.dimension));
    }
    rules.reporterCues().forEach((k, v) -> fixed.put("cue:" + k, Math.log1p(v)));
    rules.threadCues().forEach((k, v) -> fixed.put("cue.thread:" + k, Math.log1p(v)));

    TreeSet<String> tokens = new TreeSet<>();
    for (String l : in.labels()) {
      tokens.add("label:" + l.toLowerCase(Locale.ROOT).strip());
    }
    ChangeDetails ch = change == null ? ChangeDetails.NONE : change;
    if (!ch.files().isEmpty()) {
      int lines = 0;
      boolean testsOnly = true;
      boolean docsOnly = true;
      for (ChangeDetails.ChangedFile f : ch.files()) {
        lines += f.additions() + f.deletions();
        String p = f.path().toLowerCase(Locale.ROOT);
        String[] parts = p.split("/");
        tokens.add("dir:" + (parts.length > 1 ? parts[0] : "(root)"));
        if (parts.length > 2) {
          tokens.add("dir2:" + parts[0] + "/" + parts[1]);
        }
        int dot = parts[parts.length - 1].lastIndexOf('.');
        tokens.add("ext:" + (dot >= 0 ? parts[parts.length - 1].substring(dot + 1) : "(none)"));
        testsOnly &= p.contains("test");
        docsOnly &=
            p.endsWith(".md")
                || p.endsWith(".rst")
                || p.startsWith("docs/")
                || p.contains("/docs/");
      }
      fixed.put("change.files", Math.log1p(ch.files().size()));
      fixed.put("change.lines", Math.log1p(lines) / 3.0);
      if (lines <= 10) {
        fixed.put("change.small", 1.0);
      }
      if (testsOnly) {
        fixed.put("change.testsOnly", 1.0);
      }
      if (docsOnly) {
        fixed.put("change.docsOnly", 1.0);
      }
    }
    Map<String, Integer> added = new HashMap<>();
    Map<String, Integer> removed = new HashMap<>();
    if (!ch.diff().isEmpty()) {
      for (String line : ch.diff().split("\n")) {
        if (line.startsWith("+") && !line.startsWith("+++")) {
          Words.count(line.substring(1), added);
        } else if (line.startsWith("-") && !line.startsWith("---")) {
          Words.count(line.substring(1), removed);
        }
      }
    }
    Map<String, Integer> title = new HashMap<>();
    Words.count(in.title(), title);
    Map<String, Integer> body = new HashMap<>();
    Words.count(in.body(), body);
    for (Comment cm : in.comments()) {
      Words.count(cm.body(), body);
    }
    return new RawFeatures(embedding, fixed, title, body, added, removed, tokens);
  }

  private static void rule(Map<String, Double> fixed, String dim, Label<?> l) {
    String v = String.valueOf(l.value());
    fixed.put("rule." + dim + "=" + v, 1.0);
    fixed.put("rule." + dim + "=" + v + "@confidence", l.confidence());
  }
}
