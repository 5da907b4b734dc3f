package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The language-model tier: for each item a cached answer (keyed by prompt version, model and item
 * content), else, when an endpoint is configured and the budget allows, the endpoint's answer
 * (validated, then cached), else the offline tier's answer. The model's labels win over the offline
 * tier's; a person's GitHub label (human-given in the offline answer) wins over both. Framework and
 * versions come from the model's answer (framework, and versions for an answer of a prompt without
 * them, from the offline tier).
 *
 * <p>Evidence says where each label came from: {@code llm:<model> prompt <version>} (and {@code
 * cached}), or {@code fallback: <reason>; } before the offline tier's own evidence. A model's label
 * carries a distribution ({@link AnswerLabels}): the row of the model's measured confusion when the
 * cache holds a calibration for the model and prompt version ({@code faultline llm calibrate}),
 * else the stated prior error {@link LlmConfig#priorError()} (chat models give no calibrated
 * probability of their own); its confidence is that distribution's probability of the answered
 * code.
 *
 * <p>Thread-safe when its collaborators are (they are).
 */
public final class LlmClassifier implements DefectClassifier {

  private static final Logger LOG = LoggerFactory.getLogger(LlmClassifier.class);

  /**
   * One item's result.
   *
   * @param source {@code llm:<model>} when the model's answer was used, else {@code fallback}
   * @param reason why the offline answer was kept; null when the model answered
   * @param cached whether the model's answer came from the cache (no request)
   */
  public record Outcome(
      Classification classification, String source, String reason, boolean cached) {
    /** Whether the model's answer was used. */
    public boolean answered() {
      return reason == null;
    }
  }

  private final DefectClassifier offline;
  private final LlmConfig config;
  private final Prompt prompt;
  private final AnswerSchema schema;
  private final AnswerParser parser;
  private final AnswerCache cache;
  private final ChatClient client;
  private final Supplier<ExampleSet> examples;
  private final LlmStats stats;
  private final LlmCalibration calibration;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param offline the tier whose answer an item keeps when the model gives none
   * @param prompt its k is the number of examples; with k &gt; 0, {@code examples} must be given
   * @param cache the answer cache, or null for none
   * @param client the endpoint, or null to use cached answers only
   * @param examples the example set, loaded on the first request that needs it; null for none
   */
  public LlmClassifier(
      DefectClassifier offline,
      LlmConfig config,
      Prompt prompt,
      AnswerSchema schema,
      AnswerCache cache,
      ChatClient client,
      Supplier<ExampleSet> examples,
      LlmStats stats) {
    this.offline = Objects.requireNonNull(offline, "offline");
    this.config = Objects.requireNonNull(config, "config");
    this.prompt = Objects.requireNonNull(prompt, "prompt");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.parser = new AnswerParser(schema);
    this.cache = cache;
    this.client = client;
    this.examples = examples;
    this.stats = Objects.requireNonNull(stats, "stats");
    this.calibration =
        cache == null || config.model() == null
            ? null
            : cache.calibration(config.model(), prompt.version()).orElse(null);
    if (config.model() == null) {
      throw new IllegalArgumentException(
          "the language-model tier needs a model name: set "
              + LlmConfig.PREFIX
              + "MODEL (or --model)");
    }
    if (prompt.k() > 0 && examples == null) {
      throw new IllegalArgumentException(
          "a prompt with " + prompt.k() + " examples needs an example set");
    }
  }

  @Override
  public String version() {
    return Provenance.llm(config.model(), prompt.version()).classifierVersion();
  }

  /** The counters of this tier. */
  public LlmStats stats() {
    return stats;
  }

  /** The calibration of the model and prompt in use, if the cache holds one. */
  public java.util.Optional<LlmCalibration> calibration() {
    return java.util.Optional.ofNullable(calibration);
  }

  /** The prompt in use. */
  public Prompt prompt() {
    return prompt;
  }

  @Override
  public Classification classify(IssueText in) {
    return outcome(in, ChangeDetails.NONE).classification();
  }

  @Override
  public Classification classify(IssueText in, ChangeDetails change) {
    return outcome(in, change).classification();
  }

  /** The cache key of an item under this tier's prompt and model. */
  public String key(IssueText in) {
    return AnswerCache.key(prompt.version(), config.model(), Prompt.itemContent(in));
  }

  /** The request body the endpoint (or a Batch API line) gets for an item. */
  public ObjectNode requestBody(IssueText in) {
    List<ExampleSet.Near> near =
        prompt.k() > 0 ? examples.get().nearest(in, prompt.k()) : List.of();
    return ChatClient.requestBody(
        json, config.model(), prompt.messages(in, near), schema.responseFormat(json));
  }

  /** Classifies an item and says where its labels came from. */
  public Outcome outcome(IssueText in, ChangeDetails change) {
    Classification base = offline.classify(in, change);
    String key = key(in);
    if (cache != null) {
      var entry = cache.get(key);
      if (entry.isPresent()) {
        AnswerParser.Result r = parser.parse(entry.get().answer());
        if (r instanceof AnswerParser.Accepted a) {
          stats.cacheHits.incrementAndGet();
          stats.answered.incrementAndGet();
          return new Outcome(merge(base, a.answer(), true), source(), null, true);
        }
        LOG.warn(
            "cached answer {} is invalid ({}); asking again",
            key,
            ((AnswerParser.Rejection) r).reason());
      }
    }
    if (client == null) {
      return fallback(
          base, "no cached answer and no endpoint configured (" + LlmConfig.PREFIX + "ENDPOINT)");
    }
    ChatClient.Reply reply;
    try {
      reply = client.complete(requestBody(in));
    } catch (LlmException e) {
      return fallback(base, e.getMessage());
    }
    AnswerParser.Result r = parser.parse(reply.content());
    if (r instanceof AnswerParser.Rejection rej) {
      return fallback(base, "answer rejected: " + rej.reason());
    }
    Answer answer = ((AnswerParser.Accepted) r).answer();
    if (cache != null) {
      try {
        cache.put(
            AnswerCache.Entry.ofReply(
                key, prompt.version(), config.model(), parser.format(answer), reply, "endpoint"));
      } catch (IOException e) {
        LOG.warn("cannot cache the answer {} in {}: {}", key, cache.dir(), e.toString());
      }
    }
    stats.answered.incrementAndGet();
    return new Outcome(merge(base, answer, false), source(), null, false);
  }

  private String source() {
    return "llm:" + config.model();
  }

  private Outcome fallback(Classification base, String reason) {
    stats.fallbacks.incrementAndGet();
    String p = "fallback: " + reason + "; ";
    Classification c = base.mapLabels((d, l) -> prefix(l, p));
    return new Outcome(c, "fallback", reason, false);
  }

  private static Label<?> prefix(Label<?> l, String p) {
    return l.humanGiven() ? l : l.withEvidence(p + l.evidence());
  }

  private Classification merge(Classification base, Answer a, boolean cached) {
    String ev = source() + " prompt " + prompt.version() + (cached ? " (cached answer)" : "");
    return AnswerLabels.merge(
        base, a, config.model(), prompt.version(), calibration, config.priorError(), ev);
  }
}
