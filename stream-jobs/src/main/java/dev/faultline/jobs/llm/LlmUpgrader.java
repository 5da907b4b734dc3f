package dev.faultline.jobs.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.llm.Answer;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerLabels;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.ChatClient;
import dev.faultline.classifier.llm.ExampleSet;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmException;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.graph.LabelSource;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The upgrade of an issue's offline labels with a language model's answer, in plain Java: the cache
 * key of the item (prompt version, model, item content, as the CLI's cache), the answer from the
 * {@link AnswerStore} (by that key, else the issue's batch answer when it was made for this state
 * or a newer one) or, on a miss, from the endpoint (validated, then stored), and the upgraded graph
 * row. Every dimension a person labelled on GitHub keeps its label; every other dimension takes the
 * model's code with the source {@code llm:<model>} and a distribution ({@link AnswerLabels}): the
 * answered code's row of the model's calibration for the prompt version when the store has one
 * ({@link AnswerStore#calibration}, {@code confusion:<model>/<prompt>}), else the configured prior
 * error ({@code prior:<epsilon>}). Framework and everything that is not a label stay as the offline
 * row has them; versions come from the answer when it has them (answers of prompts before
 * faultline-prompt-2 have none). Thread-safe when its collaborators are.
 */
public final class LlmUpgrader {

  /** What became of one item. */
  public sealed interface Outcome permits Upgraded, NotUpgraded {}

  /**
   * The row with the model's labels.
   *
   * @param cached whether the answer came from the store (no request)
   */
  public record Upgraded(ClassifiedIssueEvent event, boolean cached) implements Outcome {}

  /**
   * The item keeps its offline labels.
   *
   * @param cause {@code failure} (the endpoint gave no reply), {@code invalid} (the reply was not a
   *     valid answer)
   * @param reason what went wrong, for the log
   */
  public record NotUpgraded(String cause, String reason) implements Outcome {}

  private final LlmConfig config;
  private final Prompt prompt;
  private final AnswerSchema schema;
  private final AnswerParser parser;
  private final AnswerStore store;
  private final ChatClient client;
  private final Supplier<ExampleSet> examples;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param prompt with k &gt; 0, {@code examples} must be given
   * @param client the endpoint
   * @param examples the labelled example set, loaded when first needed; null without examples
   */
  public LlmUpgrader(
      LlmConfig config,
      Taxonomy taxonomy,
      Prompt prompt,
      AnswerStore store,
      ChatClient client,
      Supplier<ExampleSet> examples) {
    this.config = Objects.requireNonNull(config, "config");
    this.prompt = Objects.requireNonNull(prompt, "prompt");
    this.schema = new AnswerSchema(Objects.requireNonNull(taxonomy, "taxonomy"));
    this.parser = new AnswerParser(schema);
    this.store = Objects.requireNonNull(store, "store");
    this.client = Objects.requireNonNull(client, "client");
    this.examples = examples;
    if (config.model() == null) {
      throw new IllegalArgumentException(
          "the language-model tier needs a model name: set " + LlmConfig.PREFIX + "MODEL");
    }
    if (prompt.k() > 0 && examples == null) {
      throw new IllegalArgumentException(
          "a prompt with " + prompt.k() + " examples needs an example set");
    }
  }

  /** The prompt version recorded with every label. */
  public String promptVersion() {
    return prompt.version();
  }

  /** The cache key of an item. */
  public String key(IssueText in) {
    return AnswerCache.key(prompt.version(), config.model(), Prompt.itemContent(in));
  }

  /** What the evidence of a label upgraded from a stored answer ends with. */
  public static final String CACHED = "(cached answer)";

  /**
   * What the evidence of a label upgraded from the item's batch answer ends with: the answer was
   * given for the text exported, not for the text classified now.
   */
  public static final String ITEM_ANSWER = "(batch answer for the item)";

  /**
   * What the store holds for an item.
   *
   * @param stored the upgrade from a stored answer (no request), or empty
   * @param passedOver when the issue's batch answer was not used because it was made for an older
   *     state than this one, why (for the evidence of the endpoint's answer and the log); else null
   */
  public record Lookup(Optional<Upgraded> stored, String passedOver) {}

  /**
   * The upgrade from a stored answer, if the store has a valid one: no request. First the answer to
   * this very content (its cache key); else the newest valid answer stored for the issue under this
   * prompt version and model ({@link AnswerStore#forItem}: a Batch API backfill's answer, given for
   * the text exported then), with the evidence ending in {@link #ITEM_ANSWER}, but only for a state
   * of the issue no newer than the one the answer was made for ({@link AnswerCache.Entry#asOf()};
   * the state's time is its newest event, {@link ClassifiedIssueEvent#stateVersion}: a comment, an
   * edit, a linked fix). So a replay of history uses a backfill's answer for the states it
   * answered, and a state changed since (live, or the newest state of a replay) is asked again.
   * Only when nothing serves may the caller ask the endpoint.
   */
  public Lookup lookup(ClassifiedIssueEvent offline, IssueText in) {
    Optional<Answer> byContent = store.get(key(in)).flatMap(this::valid);
    if (byContent.isPresent()) {
      return new Lookup(
          Optional.of(new Upgraded(upgrade(offline, byContent.get(), CACHED), true)), null);
    }
    Optional<AnswerCache.Entry> forItem =
        itemOf(offline).flatMap(item -> store.forItem(prompt.version(), config.model(), item));
    Optional<Answer> answer = forItem.flatMap(this::valid);
    if (answer.isEmpty()) {
      return new Lookup(Optional.empty(), null);
    }
    String older = olderThan(forItem.get(), offline);
    return older != null
        ? new Lookup(Optional.empty(), older)
        : new Lookup(
            Optional.of(new Upgraded(upgrade(offline, answer.get(), ITEM_ANSWER), true)), null);
  }

  /** {@link #lookup}'s upgrade from a stored answer, if any. */
  public Optional<Upgraded> fromStore(ClassifiedIssueEvent offline, IssueText in) {
    return lookup(offline, in).stored();
  }

  /**
   * Why an item's batch answer does not serve a state: it was made for an older one (or says for
   * none); null when it serves it.
   */
  static String olderThan(AnswerCache.Entry itemAnswer, ClassifiedIssueEvent state) {
    Instant asOf = itemAnswer.asOf();
    if (asOf == null) {
      return "the item's batch answer does not say for which state it was made";
    }
    if (state.stateVersion <= asOf.toEpochMilli()) {
      return null;
    }
    return "the item's batch answer was made for its state as of "
        + asOf
        + ", this state is of "
        + Instant.ofEpochMilli(state.stateVersion);
  }

  private Optional<Answer> valid(AnswerCache.Entry e) {
    return parser.parse(e.answer()) instanceof AnswerParser.Accepted a
        ? Optional.of(a.answer())
        : Optional.empty();
  }

  /**
   * The identity of an event's issue as the answers name it ({@link AnswerCache#item(String,
   * long)}): from its repository and number, else its URL, else its id.
   */
  public static Optional<String> itemOf(ClassifiedIssueEvent e) {
    IssueEvent i = e == null ? null : e.issue;
    if (i == null) {
      return Optional.empty();
    }
    if (i.repo != null && i.number > 0) {
      Optional<String> byNumber = AnswerCache.item(i.repo + "#" + i.number);
      if (byNumber.isPresent()) {
        return byNumber;
      }
    }
    return AnswerCache.item(i.url).or(() -> AnswerCache.item(i.id));
  }

  /** Asks the endpoint (blocking, with the client's retries), validates and stores the answer. */
  public Outcome ask(ClassifiedIssueEvent offline, IssueText in) {
    return ask(offline, in, null);
  }

  /**
   * As {@link #ask(ClassifiedIssueEvent, IssueText)}; the evidence of the answer's labels ends with
   * {@code (asked: <why>)} when {@code why} is given (e.g. {@link Lookup#passedOver()}).
   */
  public Outcome ask(ClassifiedIssueEvent offline, IssueText in, String why) {
    String key = key(in);
    List<ExampleSet.Near> near =
        prompt.k() > 0 ? examples.get().nearest(in, prompt.k()) : List.of();
    ObjectNode body =
        ChatClient.requestBody(
            json, config.model(), prompt.messages(in, near), schema.responseFormat(json));
    ChatClient.Reply reply;
    try {
      reply = client.complete(body);
    } catch (LlmException e) {
      return new NotUpgraded("failure", e.getMessage());
    }
    AnswerParser.Result r = parser.parse(reply.content());
    if (r instanceof AnswerParser.Rejection rej) {
      return new NotUpgraded("invalid", "answer rejected: " + rej.reason());
    }
    Answer answer = ((AnswerParser.Accepted) r).answer();
    store.put(
        AnswerCache.Entry.ofReply(
            key, prompt.version(), config.model(), parser.format(answer), reply, "stream"));
    return new Upgraded(
        upgrade(offline, answer, why == null ? null : "(asked: " + why + ")"), false);
  }

  /** The offline classification with the model's labels where no person gave one. */
  public ClassifiedIssueEvent upgrade(ClassifiedIssueEvent offline, Answer a, boolean cached) {
    return upgrade(offline, a, cached ? CACHED : null);
  }

  private ClassifiedIssueEvent upgrade(ClassifiedIssueEvent offline, Answer a, String note) {
    LlmCalibration calibration = store.calibration(config.model(), prompt.version()).orElse(null);
    return upgrade(
        offline, a, config.model(), prompt.version(), calibration, config.priorError(), note);
  }

  /**
   * The offline classification with the model's labels where no person gave one: pure. The
   * classifier version becomes {@code llm:<model>/<prompt version>}, from which the graph row takes
   * its source and prompt.
   *
   * @param confidence the configured confidence of the model's labels
   */
  public static ClassifiedIssueEvent upgrade(
      ClassifiedIssueEvent offline,
      Answer a,
      Taxonomy taxonomy,
      String model,
      String promptVersion,
      double confidence,
      boolean cached) {
    return upgrade(offline, a, taxonomy, model, promptVersion, confidence, cached ? CACHED : null);
  }

  /**
   * {@link #upgrade(ClassifiedIssueEvent, Answer, Taxonomy, String, String, double, boolean)} with
   * the labels' evidence ending in {@code note} (null: none), e.g. {@link #ITEM_ANSWER}; no
   * calibration (the prior error {@code 1 - confidence}).
   */
  public static ClassifiedIssueEvent upgrade(
      ClassifiedIssueEvent offline,
      Answer a,
      Taxonomy taxonomy,
      String model,
      String promptVersion,
      double confidence,
      String note) {
    double epsilon =
        java.math.BigDecimal.ONE.subtract(java.math.BigDecimal.valueOf(confidence)).doubleValue();
    return upgrade(offline, a, model, promptVersion, null, epsilon, note);
  }

  /**
   * The offline classification with the model's labels where no person gave one ({@link
   * AnswerLabels#merge}): pure. The classifier version becomes {@code llm:<model>/<prompt
   * version>}, from which the graph row takes its source and prompt.
   *
   * @param calibration the model's calibration for the prompt version, or null
   * @param epsilon the prior error of an answer without calibration
   */
  public static ClassifiedIssueEvent upgrade(
      ClassifiedIssueEvent offline,
      Answer a,
      String model,
      String promptVersion,
      LlmCalibration calibration,
      double epsilon,
      String note) {
    String evidence =
        LabelSource.llm(model) + " prompt " + promptVersion + (note == null ? "" : " " + note);
    Classification upgraded =
        AnswerLabels.merge(
            offline.classification, a, model, promptVersion, calibration, epsilon, evidence);
    ClassifiedIssueEvent e = new ClassifiedIssueEvent();
    e.issue = offline.issue;
    e.framework = offline.framework;
    e.stateVersion = offline.stateVersion;
    e.stateChanges = offline.stateChanges;
    e.commentCount = offline.commentCount;
    e.classification = upgraded;
    e.classifiedAt = offline.classifiedAt;
    e.deliveryId = offline.deliveryId;
    e.pass = offline.pass; // one classification: its history is written once (LabelHistory)
    e.fixingPullRequests = new ArrayList<>(offline.fixingPullRequests);
    e.answer = offline.answer;
    return e;
  }
}
