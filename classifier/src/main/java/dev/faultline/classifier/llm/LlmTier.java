package dev.faultline.classifier.llm;

import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.learned.CachedEmbedder;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * Wiring of the language-model tier from its configuration: the prompt (with {@code k} examples
 * when an example set is configured), the cache directory, the endpoint client when an endpoint is
 * configured, and the example set, loaded once on first use (at once when an endpoint is
 * configured, so a bad file stops the run before any request); with a cache directory, the
 * examples' text vectors are kept in its {@code vectors/} so later runs do not encode the example
 * set again.
 */
public final class LlmTier {

  private LlmTier() {}

  /**
   * @param offline the tier an item falls back to
   * @param cacheDir the answer cache, or null for none
   * @param embedder the offline tier's text encoder, for the nearest examples
   * @throws IllegalArgumentException the configuration or example set is unusable (message says
   *     what to fix)
   */
  public static LlmClassifier create(
      DefectClassifier offline,
      LlmConfig config,
      Path cacheDir,
      Supplier<TextEmbedder> embedder,
      LlmStats stats)
      throws IOException {
    Taxonomy taxonomy = Taxonomy.load();
    Prompt prompt = new Prompt(taxonomy, config.examples() == null ? 0 : config.k());
    AnswerCache cache = cacheDir == null ? null : new AnswerCache(cacheDir);
    ChatClient client =
        config.endpointConfigured()
            ? new ChatClient(
                config,
                ChatClient.httpClient(config),
                new Budget(config.maxRequestsPerDay(), config.maxTokensPerDay(), Clock.systemUTC()),
                stats)
            : null;
    Supplier<ExampleSet> examples = null;
    if (prompt.k() > 0) {
      examples =
          memoize(
              () -> {
                try {
                  TextEmbedder e = embedder.get();
                  if (cacheDir == null) {
                    return ExampleSet.load(config.examples(), e);
                  }
                  // The examples' vectors (hashes and numbers, no text) are kept beside the
                  // answers: the next run skips them.
                  CachedEmbedder vectors = new CachedEmbedder(e, cacheDir.resolve("vectors"));
                  ExampleSet set = ExampleSet.load(config.examples(), vectors, e);
                  vectors.save();
                  return set;
                } catch (TrainingData.BadInput e) {
                  throw new IllegalArgumentException(
                      "example set " + config.examples() + ": " + e.getMessage());
                } catch (IOException e) {
                  throw new UncheckedIOException(
                      "cannot read the example set " + config.examples(), e);
                }
              });
      if (client != null) {
        examples.get();
      }
    }
    return new LlmClassifier(
        offline, config, prompt, new AnswerSchema(taxonomy), cache, client, examples, stats);
  }

  private static <T> Supplier<T> memoize(Supplier<T> s) {
    return new Supplier<>() {
      private T value;

      @Override
      public synchronized T get() {
        if (value == null) {
          value = s.get();
        }
        return value;
      }
    };
  }
}
