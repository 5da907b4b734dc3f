package dev.faultline.classifier.llm;

import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.LinkedPullRequest;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The prompt of the language-model tier, built from the one taxonomy resource: the system message
 * lists every dimension's codes with their definitions and the codebook's decision rules; the user
 * message shows the k nearest labelled examples (short excerpts and their labels) when an example
 * set is configured, then the item.
 *
 * <p>{@link #version()} is {@link #PROMPT_VERSION} with a fingerprint of the system message (so any
 * edit of the taxonomy resource's definitions or rules is a new version) and, with examples, {@code
 * +k<k>}. It is part of the cache key and recorded with every label.
 */
public final class Prompt {

  /** The version of this prompt's wording; bump it when the template below changes. */
  public static final String PROMPT_VERSION = "faultline-prompt-2";

  /** Longest item text given to the model; longer threads keep their head and tail. */
  public static final int MAX_ITEM_CHARS = 8_000;

  /**
   * Characters of a long item's tail that are kept: resolutions and diagnoses come late in a
   * thread.
   */
  static final int TAIL_CHARS = 2_500;

  /** One chat message. */
  public record Message(String role, String content) {}

  private final Taxonomy taxonomy;
  private final int k;
  private final String system;
  private final String version;

  /**
   * @param taxonomy the taxonomy resource
   * @param k nearest examples per prompt; 0 for a prompt without examples
   */
  public Prompt(Taxonomy taxonomy, int k) {
    this.taxonomy = Objects.requireNonNull(taxonomy, "taxonomy");
    if (k < 0) {
      throw new IllegalArgumentException("k must be >= 0");
    }
    this.k = k;
    this.system = buildSystem(taxonomy);
    this.version = PROMPT_VERSION + "." + sha256(system).substring(0, 8) + (k > 0 ? "+k" + k : "");
  }

  /** The version recorded with every label and hashed into the cache key. */
  public String version() {
    return version;
  }

  /** Examples per prompt. */
  public int k() {
    return k;
  }

  /** The system message. */
  public String system() {
    return system;
  }

  /**
   * The system and user messages for an item and its nearest examples (none when the list is
   * empty).
   */
  public List<Message> messages(IssueText item, List<ExampleSet.Near> examples) {
    return List.of(new Message("system", system), new Message("user", user(item, examples)));
  }

  /** The user message. */
  String user(IssueText item, List<ExampleSet.Near> examples) {
    StringBuilder b = new StringBuilder();
    if (!examples.isEmpty()) {
      b.append(
          "Labelled items similar to this one (excerpts; their labels were given by careful annotators):\n\n");
      int i = 1;
      for (ExampleSet.Near n : examples) {
        b.append("Example ")
            .append(i++)
            .append(" (")
            .append(n.example().id())
            .append("): ")
            .append(n.example().excerpt())
            .append('\n');
        b.append("Labels: ").append(labels(n.example().labels())).append("\n\n");
      }
    }
    b.append("Label this item:\n\n").append(itemContent(item));
    return b.toString();
  }

  /**
   * The item as the model reads it: header, title, opening post, comments (maintainers marked) and
   * linked pull requests, at most {@link #MAX_ITEM_CHARS} characters. Hashed into the cache key:
   * the same content is never asked twice.
   */
  public static String itemContent(IssueText in) {
    StringBuilder b = new StringBuilder();
    b.append("Repository: ").append(in.repo()).append('\n');
    b.append(in.isMergedPullRequest() ? "A merged pull request" : "An issue")
        .append(", state ")
        .append(in.state().isEmpty() ? "unknown" : in.state())
        .append('\n');
    if (!in.labels().isEmpty()) {
      b.append("GitHub labels: ").append(String.join(", ", in.labels())).append('\n');
    }
    b.append("Title: ").append(in.title()).append("\n\n").append(in.body().strip()).append('\n');
    for (Comment c : in.comments()) {
      b.append("\n--- comment by ")
          .append(c.author())
          .append(c.maintainer() ? " (maintainer)" : "")
          .append(" ---\n")
          .append(c.body().strip())
          .append('\n');
    }
    for (LinkedPullRequest p : in.pullRequests()) {
      b.append("\n--- linked pull request")
          .append(p.merged() ? " (merged)" : "")
          .append(": ")
          .append(p.title())
          .append(" ---\n")
          .append(p.body().strip())
          .append('\n');
    }
    String s = b.toString();
    if (s.length() <= MAX_ITEM_CHARS) {
      return s;
    }
    int head = MAX_ITEM_CHARS - TAIL_CHARS;
    return s.substring(0, head)
        + "\n[… "
        + (s.length() - MAX_ITEM_CHARS)
        + " characters left out …]\n"
        + s.substring(s.length() - TAIL_CHARS);
  }

  private static String labels(Map<String, String> labels) {
    List<String> parts = new ArrayList<>();
    labels.forEach(
        (f, c) -> {
          if (AnswerSchema.FIELDS.contains(f)) {
            parts.add(
                "\""
                    + f
                    + "\": "
                    + ("null".equals(c) || "true".equals(c) || "false".equals(c)
                        ? c
                        : "\"" + c + "\""));
          }
        });
    return "{" + String.join(", ", parts) + "}";
  }

  private static String buildSystem(Taxonomy t) {
    StringBuilder b = new StringBuilder();
    b.append(
            "You label GitHub issues and pull requests of distributed deep-learning frameworks (DeepSpeed, ")
        .append(
            "Megatron-LM, Colossal-AI, and the distributed parts of PyTorch, vLLM, Horovod) with the defect ")
        .append("taxonomy ")
        .append(t.version())
        .append(". Read the whole item as a careful annotator would and ")
        .append(
            "give one code per dimension. UNKNOWN is a real answer: use it when the text does not support a ")
        .append("choice. Do not guess a root cause or a fix from a symptom alone.\n\n");
    b.append("Answer with one JSON object and nothing else, with exactly these fields: ")
        .append(String.join(", ", AnswerSchema.FIELDS))
        .append(", ")
        .append(AnswerSchema.VERSIONS)
        .append(".\n");
    for (Map.Entry<String, Dimension> e : AnswerSchema.CODED.entrySet()) {
      Taxonomy.DimensionCodes d = t.dimension(e.getValue());
      b.append("\n## ").append(e.getKey());
      if (d.description() != null) {
        b.append(" — ").append(d.description());
      }
      b.append('\n');
      for (Taxonomy.Code c : d.codes()) {
        b.append("- ")
            .append(c.code())
            .append(": ")
            .append(c.definition() == null ? c.name() : c.definition())
            .append('\n');
      }
      if (d.none() != null) {
        b.append("- ")
            .append(d.none())
            .append(": does not apply to this item (e.g. it reports no defect)\n");
      }
      if (d.unknown() != null) {
        b.append("- ").append(d.unknown()).append(": the text does not tell\n");
      }
    }
    b.append("\n## ")
        .append(AnswerSchema.DISTRIBUTED)
        .append('\n')
        .append("- true: the defect could not occur on a single device\n")
        .append("- false: it could occur on a single device\n")
        .append("- null: the text cannot tell, or the item reports no defect\n");
    b.append("\n## ")
        .append(AnswerSchema.VERSIONS)
        .append('\n')
        .append(
            "- a list of {\"component\", \"version\"}: only versions the text states outright (environment\n")
        .append(
            "  sections, ds_report fields, pip lines, log banners); never versions that appear only inside file\n")
        .append("  or install paths; an empty list when none is stated\n")
        .append(
            "- component keys lower-case: deepspeed, torch, cuda, nccl, python, transformers, colossalai,\n")
        .append(
            "  megatron-core, vllm, horovod, apex, flash-attn, triton, driver, rocm, container image names\n")
        .append("- values as written, without a leading \"v\"\n");
    if (!t.decisionRules().isEmpty()) {
      b.append("\n## Decision rules for hard cases\n");
      t.decisionRules().forEach(r -> b.append("- ").append(r).append('\n'));
    }
    return b.toString();
  }

  static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
