package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.batch.JsonLines;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.LlmClassifier;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.LlmTier;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code llm export|import}: the language-model tier through a provider's Batch API (OpenAI's, and
 * the hosted APIs that copy its format), for backfills at about half the price of single requests.
 *
 * <ul>
 *   <li>{@code export --input IN.jsonl --output BATCH.jsonl} writes one Batch API input line per
 *       item without a cached answer: {@code custom_id} ({@code <url>#<model>#<prompt
 *       version>#<as-of>#<cache key>}, as-of the time of the state exported), {@code method} POST,
 *       {@code url} {@code /v1/chat/completions}, {@code body} (the chat request: model, messages,
 *       response_format with the taxonomy's JSON schema). Items whose content repeats are asked
 *       once.
 *   <li>{@code import --results RESULTS.jsonl --cache DIR} reads the Batch API output lines ({@code
 *       custom_id}, {@code response.status_code}, {@code response.body.choices[0].message.content},
 *       {@code error}), validates each answer and stores the valid ones in the cache under the key
 *       in the {@code custom_id}, with the issue of the {@code custom_id}'s URL, the time of the
 *       state it answers and the model and prompt version of the export's settings; it counts
 *       accepted and rejected answers, with every rejection's reason, and the version entries it
 *       kept, normalised or dropped.
 * </ul>
 *
 * Then {@code classify --tier llm --llm-cache DIR} (or {@code eval}) labels from the cache with the
 * same model and example settings.
 */
@Command(
    name = "llm",
    description = {
      "The language-model tier through a Batch API: export requests, import answers into the cache, calibrate.",
      "",
      "OpenAI's Batch API, and the hosted APIs that copy its format: backfills at about half the price of single",
      "requests."
    },
    subcommands = {LlmCommand.Export.class, LlmCommand.Import.class, LlmCalibrate.class},
    footer = {
      "",
      "Then: classify --tier llm --llm-cache DIR --input IN.jsonl --output OUT.jsonl (same model and examples).",
      "Calibrate a model once on a labelled file it answered: llm calibrate --gold LABELLED.jsonl --results R.jsonl --cache DIR."
    })
public final class LlmCommand extends CliCommand {

  /** The Batch API's request path. */
  static final String BATCH_URL = "/v1/chat/completions";

  /** Rejections listed one by one before only counting. */
  static final int LISTED = 20;

  /** The environment the subcommands read their {@code FAULTLINE_LLM_*} settings from. */
  final Map<String, String> env;

  /** A command reading the {@code FAULTLINE_LLM_*} settings from {@code env}. */
  public LlmCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** Runs the command; returns the process exit code (0 ok, 2 usage error, 1 I/O or data error). */
  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return Cli.execute(new LlmCommand(env), args, out, err);
  }

  @Override
  public Integer call() {
    throw usageError("name a subcommand, export, import or calibrate");
  }

  /** {@code llm export}. */
  @Command(
      name = "export",
      description = {
        "Write the Batch API requests of the items without a cached answer.",
        "",
        "Writes the OpenAI Batch API input (one request per item without a cached answer) for items in the classify",
        "input format: custom_id (<url>#<model>#<prompt version>#<as-of>#<cache key>), method POST, url /v1/chat/completions, body (the chat request:",
        "model, messages, response_format with the taxonomy's JSON schema). Items whose content repeats are asked",
        "once."
      })
  static final class Export extends CliCommand {
    @ParentCommand LlmCommand llm;

    @Option(
        names = "--input",
        required = true,
        paramLabel = "IN.jsonl",
        description = "items in the classify input format")
    Path input;

    @Option(
        names = "--output",
        required = true,
        paramLabel = "BATCH.jsonl",
        description = "the Batch API input to write")
    Path output;

    @Option(
        names = "--cache",
        paramLabel = "DIR",
        description = "skip items already answered in this answer cache")
    Path cache;

    @Option(
        names = "--as-of",
        paramLabel = "INSTANT",
        description = {
          "when the input's texts were taken, e.g. 2025-06-01T00:00:00Z (default: each record's updated_at, else",
          "now): an answer serves its issue only until the issue changes after this time"
        })
    Instant asOf;

    @Mixin LlmOptions.ModelFlags model;

    @Override
    public Integer call() {
      try {
        return export(this, out, err);
      } catch (IllegalArgumentException e) {
        throw usageError(e.getMessage());
      }
    }
  }

  /** {@code llm import}. */
  @Command(
      name = "import",
      description = {
        "Read the Batch API answers into the answer cache.",
        "",
        "Reads the Batch API output (custom_id, response.status_code, response.body.choices[0].message.content,",
        "error) into the answer cache: each answer is validated; invalid answers are rejected with the reason.",
        "Name the model and examples as for export (--llm-model, --examples or FAULTLINE_LLM_*): each answer is",
        "stored with that model, its prompt version and its issue (the custom_id's URL), so that the stream and",
        "reclassify find it by the issue when the issue's text has changed since the export, and with the time",
        "of the state it answers (as-of, from the custom_id): the stream serves it to that state and older ones,",
        "and asks the endpoint for a state changed after it. A version entry that is not in the codebook's form is",
        "normalised (v0.12, a range) or dropped (a commit hash, a product name), never a reason to reject."
      })
  static final class Import extends CliCommand {
    @ParentCommand LlmCommand llm;

    @Option(
        names = "--results",
        required = true,
        paramLabel = "RESULTS.jsonl",
        description = "the Batch API output")
    Path results;

    @Option(
        names = "--cache",
        required = true,
        paramLabel = "DIR",
        description = "the answer cache to fill")
    Path cache;

    @Mixin LlmOptions.ModelFlags model;

    @Override
    public Integer call() {
      LlmConfig config;
      try {
        config = model.options(llm.env, null).config();
      } catch (IllegalArgumentException e) {
        throw usageError(e.getMessage());
      }
      return importResults(this, config, out, err);
    }
  }

  /**
   * @throws IllegalArgumentException a usage error: no model named, a bad setting
   */
  private static int export(Export a, PrintStream out, PrintStream err) {
    LlmConfig config;
    LlmClassifier tier;
    try {
      config = a.model.options(a.llm.env, null).config();
      if (config.model() == null) {
        throw new IllegalArgumentException(
            "name the model: --llm-model NAME or FAULTLINE_LLM_MODEL");
      }
      // Export only builds requests: it sends none and never consults the offline tier, so the
      // rules suffice.
      tier =
          LlmTier.create(
              new Classifier(ClassifierConfig.defaults()),
              config,
              a.cache,
              MiniLmEmbedder::shared,
              new LlmStats());
    } catch (IOException e) {
      err.println("llm export: cannot open the cache: " + e.getMessage());
      return 1;
    }
    AnswerCache cache;
    try {
      cache = a.cache == null ? null : new AnswerCache(a.cache);
    } catch (IOException e) {
      err.println("llm export: cannot open the cache: " + e.getMessage());
      return 1;
    }
    Path in = a.input;
    Path outPath = a.output;
    Exported n;
    try {
      n =
          writeRequests(
              tier,
              config.model(),
              cache,
              in,
              outPath,
              a.asOf != null ? a.asOf : Instant.now().truncatedTo(ChronoUnit.SECONDS));
    } catch (JsonLines.NotJson e) {
      err.println("llm export: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("llm export: cannot read " + in + " or write " + outPath + ": " + e.getMessage());
      return 1;
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("llm export: " + e.getMessage());
      return 1;
    }
    long tokens = n.chars / 4;
    out.printf(
        Locale.ROOT,
        "llm export: %d items, %d requests written to %s, %d already cached, %d repeated"
            + " content%n",
        n.items,
        n.written,
        outPath,
        n.cached,
        n.repeated);
    out.printf(
        Locale.ROOT,
        "  model %s, prompt %s; about %d prompt tokens (characters / 4), %.4f at"
            + " FAULTLINE_LLM_PRICE_INPUT_PER_1K %s (batch APIs usually charge half)%n",
        config.model(),
        tier.prompt().version(),
        tokens,
        config.cost(tokens, 0),
        config.priceInputPer1k());
    return 0;
  }

  /** What an export wrote and skipped. */
  private static final class Exported {
    int items;
    int written;
    int cached;
    int repeated;
    long chars;
  }

  /**
   * One Batch API request per record of {@code in} whose answer is neither cached nor already
   * written (same content key), into {@code outPath}.
   */
  private static Exported writeRequests(
      LlmClassifier tier, String model, AnswerCache cache, Path in, Path outPath, Instant asOf)
      throws IOException {
    Target target = new Target(model, tier.prompt().version());
    ObjectMapper json = new ObjectMapper();
    Exported n = new Exported();
    Set<String> keys = new HashSet<>();
    try (JsonLines lines = JsonLines.open(in);
        BufferedWriter w = Files.newBufferedWriter(outPath, StandardCharsets.UTF_8)) {
      JsonNode rec;
      while ((rec = lines.next(json)) != null) {
        n.items++;
        IssueText issue = ThreadText.ofRecord(rec);
        String key = tier.key(issue);
        if (cache != null && cache.contains(key)) {
          n.cached++;
          continue;
        }
        if (!keys.add(key)) {
          n.repeated++;
          continue;
        }
        ObjectNode body = tier.requestBody(issue);
        for (JsonNode m : body.path("messages")) {
          n.chars += m.path("content").asText().length();
        }
        w.write(
            json.writeValueAsString(
                batchLine(json, rec.path("url").asText(""), target, asOf(rec, asOf), key, body)));
        w.write('\n');
        n.written++;
      }
    }
    return n;
  }

  /**
   * The time of a record's state: its {@code updated_at} when it has one, else {@code fallback}.
   */
  static Instant asOf(JsonNode rec, Instant fallback) {
    JsonNode updated = rec.get("updated_at");
    if (updated != null && updated.isTextual()) {
      try {
        return Instant.parse(updated.asText());
      } catch (java.time.format.DateTimeParseException e) {
        return fallback;
      }
    }
    return fallback;
  }

  /**
   * One Batch API input line: {@code custom_id, method, url, body}. The {@code custom_id} is {@code
   * <url>#<model>#<prompt version>#<as-of>#<cache key>}: the provider returns it with the answer,
   * so {@code llm import} stores the answer under the model and prompt version its key was made
   * with, names its issue and the time of the state it answers, whatever flags the import is given.
   */
  static ObjectNode batchLine(
      ObjectMapper json, String url, Target target, Instant asOf, String key, ObjectNode body) {
    ObjectNode o = json.createObjectNode();
    o.put(
        "custom_id",
        url + "#" + target.model() + "#" + target.promptVersion() + "#" + asOf + "#" + key);
    o.put("method", "POST");
    o.put("url", BATCH_URL);
    o.set("body", body);
    return o;
  }

  /**
   * What the imported answers are stored under: the model and prompt version of the export's
   * settings, or, when no model is named, the model the provider reports and no prompt version (the
   * stream then finds them by content only).
   */
  record Target(String model, String promptVersion) {}

  private static int importResults(Import a, LlmConfig config, PrintStream out, PrintStream err) {
    Path results = a.results;
    Taxonomy taxonomy = Taxonomy.load();
    Target target =
        config.model() == null
            ? null
            : new Target(
                config.model(),
                new Prompt(taxonomy, config.examples() == null ? 0 : config.k()).version());
    AnswerCache cache;
    try {
      cache = new AnswerCache(a.cache);
    } catch (IOException e) {
      err.println("llm import: cannot open the cache " + a.cache + ": " + e.getMessage());
      return 1;
    }
    AnswerParser parser = new AnswerParser(new AnswerSchema(taxonomy));
    ObjectMapper json = new ObjectMapper();
    Imported n = new Imported();
    int accepted = 0;
    int rejected = 0;
    Map<String, Integer> reasons = new TreeMap<>();
    try (JsonLines lines = JsonLines.open(results)) {
      String line;
      while ((line = lines.nextLine()) != null) {
        String id = "line " + lines.lineNumber();
        String reason;
        try {
          JsonNode rec = json.readTree(line);
          id = rec.path("custom_id").asText(id);
          reason = importOne(rec, parser, cache, target, n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          reason = "line is not JSON";
        }
        if (reason == null) {
          accepted++;
        } else {
          rejected++;
          reasons.merge(EvalCommand.reasonKind(reason), 1, Integer::sum);
          if (rejected <= LISTED) {
            err.println("llm import: rejected " + id + ": " + reason);
          }
        }
      }
    } catch (IOException e) {
      err.println("llm import: cannot read " + results + " or write the cache: " + e.getMessage());
      return 1;
    }
    out.printf(
        Locale.ROOT,
        "llm import: %d answers accepted into %s, %d rejected%n",
        accepted,
        cache.dir(),
        rejected);
    reasons.forEach((reason, k) -> out.printf(Locale.ROOT, "  %5d  %s%n", k, reason));
    printVersions(n, out, err);
    printStored(n, target, accepted, out, err);
    return 0;
  }

  /** What the answers were stored under, and a warning when that is not what the stream uses. */
  private static void printStored(
      Imported n, Target target, int accepted, PrintStream out, PrintStream err) {
    Target stored = n.stored != null ? n.stored : target;
    if (stored != null) {
      out.printf(
          Locale.ROOT,
          "  stored for model %s, prompt %s%s; %d with their issue (the stream's fallback when an"
              + " issue's text changed since the export)%n",
          stored.model(),
          stored.promptVersion(),
          n.stored != null ? " (as the export wrote them in each custom_id)" : "",
          n.withItem);
      if (n.otherModel > 0) {
        err.printf(
            Locale.ROOT,
            "llm import: %d answers say they were given by another model than %s (e.g. %s): are these"
                + " the settings of the export?%n",
            n.otherModel,
            stored.model(),
            n.otherModelName);
      }
      if (n.withoutAsOf > 0) {
        err.printf(
            Locale.ROOT,
            "llm import: %d answers name their issue but not the time of the state they answer (an"
                + " export before custom_ids carried it): the stream takes each as of when it"
                + " receives it%n",
            n.withoutAsOf);
      }
    } else if (accepted > 0) {
      err.println(
          "llm import: no model named (--llm-model or FAULTLINE_LLM_MODEL, as for export): the answers"
              + " are stored without model and prompt version, found by the item's content only; the"
              + " stream cannot use them for an issue whose text changed since the export");
    }
  }

  /**
   * The accepted answers' version entries: how many were kept as written, normalised to the
   * codebook's form or dropped (no answer is rejected for a version), and the first odd ones.
   */
  private static void printVersions(Imported n, PrintStream out, PrintStream err) {
    if (n.versionsKept + n.versionsNormalised + n.versionsDropped == 0) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "  versions: %d kept as written, %d normalised, %d dropped (an odd version never costs an"
            + " answer its labels)%n",
        n.versionsKept,
        n.versionsNormalised,
        n.versionsDropped);
    n.versionNotes.forEach(note -> err.println("llm import: " + note));
  }

  /** Counts of an import beyond accepted and rejected. */
  static final class Imported {
    /**
     * The model and prompt version the last answer was stored under, when its custom_id named them.
     */
    Target stored;

    int withItem;

    /** Answers for an issue whose custom_id names no time of the state they answer. */
    int withoutAsOf;

    int otherModel;
    String otherModelName;

    /** Version entries of the accepted answers: as written, normalised, dropped. */
    int versionsKept;

    int versionsNormalised;
    int versionsDropped;

    /** The first normalised or dropped entries, named by their answer's custom_id. */
    final List<String> versionNotes = new ArrayList<>();

    void tally(String customId, AnswerParser.VersionTally t) {
      versionsKept += t.kept();
      versionsNormalised += t.normalised();
      versionsDropped += t.dropped();
      for (String note : t.notes()) {
        if (versionNotes.size() < LISTED) {
          versionNotes.add(customId + ": " + note);
        }
      }
    }
  }

  /**
   * Stores one Batch API output line's answer; returns null when accepted, else why not. The entry
   * names the issue of the {@code custom_id}'s URL part (none when it is not a GitHub issue or pull
   * request URL) and, with a {@code target}, its model and prompt version.
   */
  static String importOne(
      JsonNode rec, AnswerParser parser, AnswerCache cache, Target target, Imported n)
      throws IOException {
    CustomId id = CustomId.parse(rec.path("custom_id").asText(""));
    String customId = id.raw();
    String key = id.key();
    Instant asOf = id.asOf();
    String item = id.item();
    if (id.target() != null) {
      target = id.target();
      n.stored = target;
    }
    if (!AnswerCache.isKey(key)) {
      return "custom_id '"
          + customId
          + "' does not end with #<cache key> (not written by llm export)";
    }
    JsonNode error = rec.get("error");
    if (error != null && !error.isNull()) {
      return "error "
          + error.path("code").asText("")
          + ": "
          + error.path("message").asText(error.toString());
    }
    JsonNode response = rec.path("response");
    int status = response.path("status_code").asInt(0);
    if (status != 200) {
      String msg = response.path("body").path("error").path("message").asText("");
      return "response status " + status + (msg.isEmpty() ? "" : ": " + msg);
    }
    JsonNode body = response.path("body");
    JsonNode content = body.path("choices").path(0).path("message").path("content");
    if (!content.isTextual()) {
      return "response.body.choices[0].message.content is missing";
    }
    AnswerParser.Result r = parser.parse(content.asText());
    if (r instanceof AnswerParser.Rejection rej) {
      return rej.reason();
    }
    n.tally(customId, ((AnswerParser.Accepted) r).versions());
    String answeredBy = body.path("model").asText("");
    if (target != null && !answeredBy.isEmpty() && !answeredBy.startsWith(target.model())) {
      // providers report a dated snapshot of the model asked for (gpt-4o -> gpt-4o-2024-08-06)
      n.otherModel++;
      n.otherModelName = answeredBy;
    }
    if (item != null) {
      n.withItem++;
      if (asOf == null) {
        n.withoutAsOf++;
      }
    }
    cache.put(
        new AnswerCache.Entry(
            key,
            target == null ? "" : target.promptVersion(),
            target == null ? answeredBy : target.model(),
            parser.format(((AnswerParser.Accepted) r).answer()),
            body.path("usage").path("prompt_tokens").asLong(0),
            body.path("usage").path("completion_tokens").asLong(0),
            "batch",
            item,
            asOf));
    return null;
  }

  /** The instant of an ISO-8601 text, or null when it is none. */
  static Instant instant(String s) {
    try {
      return Instant.parse(s);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
