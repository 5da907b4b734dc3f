package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classifier;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.LlmClassifier;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.LlmTier;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code llm export|import}: the language-model tier through a provider's Batch API (OpenAI's, and the hosted APIs
 * that copy its format), for backfills at about half the price of single requests.
 *
 * <ul>
 *   <li>{@code export --input IN.jsonl --output BATCH.jsonl} writes one Batch API input line per item without a
 *       cached answer: {@code custom_id} ({@code <url>#<cache key>}), {@code method} POST, {@code url}
 *       {@code /v1/chat/completions}, {@code body} (the chat request: model, messages, response_format with the
 *       taxonomy's JSON schema). Items whose content repeats are asked once.
 *   <li>{@code import --results RESULTS.jsonl --cache DIR} reads the Batch API output lines ({@code custom_id},
 *       {@code response.status_code}, {@code response.body.choices[0].message.content}, {@code error}), validates
 *       each answer and stores the valid ones in the cache under the key in the {@code custom_id}; it counts
 *       accepted and rejected answers, with every rejection's reason.
 * </ul>
 *
 * Then {@code classify --tier llm --llm-cache DIR} (or {@code eval}) labels from the cache with the same model and
 * example settings.
 */
public final class LlmCommand {

  static final String USAGE =
      String.join(
          "\n",
          "usage: llm export --input IN.jsonl --output BATCH.jsonl [--cache DIR] [--examples FILE] [--llm-model NAME]"
              + " [--llm-config FILE]",
          "       llm import --results RESULTS.jsonl --cache DIR",
          "  export   writes the OpenAI Batch API input (one request per item without a cached answer) for",
          "           items in the classify input format; --cache skips items already answered there",
          "  import   reads the Batch API output into the answer cache; invalid answers are rejected with the reason",
          "  --examples    a labelled JSONL example set (file or directory): the nearest examples go into each prompt",
          "                (else FAULTLINE_LLM_EXAMPLES); classify must then use the same set to find the answers",
          "  --llm-model   the model name (else FAULTLINE_LLM_MODEL), e.g. gpt-4o-mini; part of the cache key",
          "  --llm-config  a properties file of FAULTLINE_LLM_* settings (the environment wins)",
          "then: classify --tier llm --llm-cache DIR --input IN.jsonl --output OUT.jsonl (same model and examples)");

  /** The Batch API's request path. */
  static final String BATCH_URL = "/v1/chat/completions";

  /** Rejections listed one by one before only counting. */
  static final int LISTED = 20;

  private LlmCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the process exit code (0 ok, 2 usage error, 1 I/O or data error). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, System.getenv(), out, err);
  }

  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("llm: name a subcommand, export or import");
      err.println(USAGE);
      return 2;
    }
    String sub = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (sub.equals("--help") || sub.equals("-h")) {
      out.println(USAGE);
      return 0;
    }
    Args a;
    try {
      a = switch (sub) {
        case "export" -> Args.parse(rest, "--input", "--output", "--cache", "--examples", "--llm-model",
            "--llm-config");
        case "import" -> Args.parse(rest, "--results", "--cache");
        default -> throw new IllegalArgumentException("unknown subcommand '" + sub + "' (export or import)");
      };
    } catch (IllegalArgumentException e) {
      err.println("llm: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    if (a.help()) {
      out.println(USAGE);
      return 0;
    }
    return sub.equals("export") ? export(a, env, out, err) : importResults(a, err, out);
  }

  private static int export(Args a, Map<String, String> env, PrintStream out, PrintStream err) {
    if (a.get("--input") == null || a.get("--output") == null) {
      err.println("llm export: --input and --output are required");
      err.println(USAGE);
      return 2;
    }
    LlmConfig config;
    LlmClassifier tier;
    try {
      config = LlmOptions.from(a, env).config();
      if (config.model() == null) {
        throw new IllegalArgumentException("name the model: --llm-model NAME or FAULTLINE_LLM_MODEL");
      }
      // Export only builds requests: it sends none and never consults the offline tier, so the rules suffice.
      tier = LlmTier.create(new Classifier(ClassifierConfig.defaults()), config,
          a.get("--cache") == null ? null : Path.of(a.get("--cache")), MiniLmEmbedder::shared, new LlmStats());
    } catch (IllegalArgumentException e) {
      err.println("llm export: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (IOException e) {
      err.println("llm export: cannot open the cache: " + e.getMessage());
      return 1;
    }
    AnswerCache cache;
    try {
      cache = a.get("--cache") == null ? null : new AnswerCache(Path.of(a.get("--cache")));
    } catch (IOException e) {
      err.println("llm export: cannot open the cache: " + e.getMessage());
      return 1;
    }
    ObjectMapper json = new ObjectMapper();
    Path in = Path.of(a.get("--input"));
    Path outPath = Path.of(a.get("--output"));
    int items = 0;
    int written = 0;
    int cached = 0;
    int repeated = 0;
    long chars = 0;
    Set<String> keys = new HashSet<>();
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
          err.println("llm export: " + in + " line " + lineNo + " is not JSON: " + e.getMessage());
          return 1;
        }
        items++;
        IssueText issue = Records.issue(rec);
        String key = tier.key(issue);
        if (cache != null && cache.contains(key)) {
          cached++;
          continue;
        }
        if (!keys.add(key)) {
          repeated++;
          continue;
        }
        ObjectNode body = tier.requestBody(issue);
        for (JsonNode m : body.path("messages")) {
          chars += m.path("content").asText().length();
        }
        w.write(json.writeValueAsString(batchLine(json, rec.path("url").asText(""), key, body)));
        w.write('\n');
        written++;
      }
    } catch (IOException e) {
      err.println("llm export: cannot read " + in + " or write " + outPath + ": " + e.getMessage());
      return 1;
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("llm export: " + e.getMessage());
      return 1;
    }
    long tokens = chars / 4;
    out.printf(Locale.ROOT, "llm export: %d items, %d requests written to %s, %d already cached, %d repeated"
        + " content%n", items, written, outPath, cached, repeated);
    out.printf(Locale.ROOT, "  model %s, prompt %s; about %d prompt tokens (characters / 4), %.4f at"
        + " FAULTLINE_LLM_PRICE_INPUT_PER_1K %s (batch APIs usually charge half)%n", config.model(),
        tier.prompt().version(), tokens, config.cost(tokens, 0), config.priceInputPer1k());
    return 0;
  }

  /** One Batch API input line: {@code custom_id, method, url, body}. */
  static ObjectNode batchLine(ObjectMapper json, String url, String key, ObjectNode body) {
    ObjectNode o = json.createObjectNode();
    o.put("custom_id", url + "#" + key);
    o.put("method", "POST");
    o.put("url", BATCH_URL);
    o.set("body", body);
    return o;
  }

  private static int importResults(Args a, PrintStream err, PrintStream out) {
    if (a.get("--results") == null || a.get("--cache") == null) {
      err.println("llm import: --results and --cache are required");
      err.println(USAGE);
      return 2;
    }
    Path results = Path.of(a.get("--results"));
    AnswerCache cache;
    try {
      cache = new AnswerCache(Path.of(a.get("--cache")));
    } catch (IOException e) {
      err.println("llm import: cannot open the cache " + a.get("--cache") + ": " + e.getMessage());
      return 1;
    }
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    ObjectMapper json = new ObjectMapper();
    int accepted = 0;
    int rejected = 0;
    Map<String, Integer> reasons = new TreeMap<>();
    int lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(results, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String id = "line " + lineNo;
        String reason;
        try {
          JsonNode rec = json.readTree(line);
          id = rec.path("custom_id").asText(id);
          reason = importOne(rec, parser, cache);
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
    out.printf(Locale.ROOT, "llm import: %d answers accepted into %s, %d rejected%n", accepted, cache.dir(), rejected);
    reasons.forEach((reason, n) -> out.printf(Locale.ROOT, "  %5d  %s%n", n, reason));
    return 0;
  }

  /** Stores one Batch API output line's answer; returns null when accepted, else why not. */
  static String importOne(JsonNode rec, AnswerParser parser, AnswerCache cache) throws IOException {
    String customId = rec.path("custom_id").asText("");
    int hash = customId.lastIndexOf('#');
    String key = hash < 0 ? "" : customId.substring(hash + 1);
    if (!AnswerCache.isKey(key)) {
      return "custom_id '" + customId + "' does not end with #<cache key> (not written by llm export)";
    }
    JsonNode error = rec.get("error");
    if (error != null && !error.isNull()) {
      return "error " + error.path("code").asText("") + ": " + error.path("message").asText(error.toString());
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
    cache.put(new AnswerCache.Entry(key, "", body.path("model").asText(""),
        parser.format(((AnswerParser.Accepted) r).answer()), body.path("usage").path("prompt_tokens").asLong(0),
        body.path("usage").path("completion_tokens").asLong(0), "batch"));
    return null;
  }
}
