package dev.faultline.classifier.learned;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * all-MiniLM-L6-v2 (quantised), run in-process by ONNX Runtime through langchain4j: the weights and
 * the tokenizer ship inside the langchain4j jar, so nothing is downloaded at run time. Texts longer
 * than the encoder's window are split and their vectors averaged by langchain4j. One instance per
 * JVM ({@link #shared()}): loading it takes about a second and 90 MB.
 *
 * <p>The ONNX session runs each call on the calling thread alone (one intra-op thread, no
 * spin-waiting): a Flink slot or a CLI thread costs one core, and a busy machine is not slowed
 * further by idle threads spinning for work.
 */
public final class MiniLmEmbedder implements TextEmbedder {

  /**
   * Word pieces the encoder reads: the first {@value #DEFAULT_MAX_TOKENS} of a text (the model was
   * trained on up to 128; its cost grows linearly with them, about 0.08 ms each on one core). 96
   * word pieces cover the title and the first sentences of the body, which carry most of what the
   * vector adds beside the words and the rules' cues; cross-validation put 96 and 128 within noise
   * of each other (README, "Learned layer"), and 96 brings the whole classifier over 100 issues/s
   * on one core.
   */
  static final int DEFAULT_MAX_TOKENS = 96;

  /**
   * Word pieces given to the encoder (see {@link #DEFAULT_MAX_TOKENS}); a trained artefact records
   * its value.
   */
  public static final int MAX_TOKENS =
      Integer.getInteger("faultline.encoder.maxTokens", DEFAULT_MAX_TOKENS);

  /** Encoder name recorded in the model artefact: the model and how many word pieces it reads. */
  public static final String NAME =
      "all-minilm-l6-v2-q" + (MAX_TOKENS == 128 ? "" : "@" + MAX_TOKENS);

  /**
   * Characters of a text given to the encoder: past the word-piece limit a longer text only costs
   * tokenising (96 word pieces are about 450 characters of English, fewer of code or logs).
   */
  public static final int MAX_CHARS = Integer.getInteger("faultline.encoder.maxChars", 1000);

  /** The weights and tokenizer inside the langchain4j jar. */
  private static final String WEIGHTS = "/all-minilm-l6-v2-q.onnx";

  private static final String TOKENIZER = "/all-minilm-l6-v2-q-tokenizer.json";

  private final Encoder model;

  /**
   * A second instance of the encoder's tokenizer (same definition, same truncation), used only to
   * tell which word pieces the encoder would read ({@link #inputKey}); the encoder's own instance
   * is private to langchain4j.
   */
  private final HuggingFaceTokenizer keyTokenizer;

  private MiniLmEmbedder() {
    this(o -> {});
  }

  /**
   * An encoder whose ONNX Runtime session options are changed by {@code tweak} after the defaults
   * below: only for measuring how other settings change the vectors ({@code EncoderStability} in
   * the benchmarks).
   */
  MiniLmEmbedder(OptionsTweak tweak) {
    try (InputStream weights = MiniLmEmbedder.class.getResourceAsStream(WEIGHTS);
        InputStream tokenizer = MiniLmEmbedder.class.getResourceAsStream(TOKENIZER)) {
      if (weights == null || tokenizer == null) {
        throw new IllegalStateException(
            "the encoder's weights are not on the classpath (" + WEIGHTS + ")");
      }
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      options.addConfigEntry("session.intra_op.allow_spinning", "0");
      tweak.apply(options);
      OrtSession session = env.createSession(weights.readAllBytes(), options);
      byte[] limited = withTokenLimit(tokenizer, MAX_TOKENS).readAllBytes();
      Object[] made =
          withOwnNativeCopy(
              () -> {
                try {
                  return new Object[] {
                    new OnnxBertBiEncoder(
                        env, session, new java.io.ByteArrayInputStream(limited), PoolingMode.MEAN),
                    HuggingFaceTokenizer.newInstance(
                        new java.io.ByteArrayInputStream(limited), Map.of("padding", "false"))
                  };
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      model = new Encoder((OnnxBertBiEncoder) made[0]);
      keyTokenizer = (HuggingFaceTokenizer) made[1];
    } catch (IOException | OrtException e) {
      throw new IllegalStateException("cannot load the text encoder: " + e.getMessage(), e);
    }
  }

  /** A change of the session options (for measurements only). */
  interface OptionsTweak {
    void apply(OrtSession.SessionOptions options) throws OrtException;
  }

  /**
   * The tokenizer's definition with its truncation set to {@code maxTokens} word pieces (special
   * tokens included).
   */
  static InputStream withTokenLimit(InputStream tokenizer, int maxTokens) throws IOException {
    if (maxTokens < 8 || maxTokens > 512) {
      throw new IllegalArgumentException(
          "faultline.encoder.maxTokens must be within 8..512, not " + maxTokens);
    }
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode def =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(tokenizer);
    if (!(def.get("truncation")
        instanceof com.fasterxml.jackson.databind.node.ObjectNode truncation)) {
      throw new IllegalStateException("the encoder's tokenizer has no truncation section");
    }
    truncation.put("max_length", maxTokens);
    if (def.path("padding").path("strategy").has("Fixed")) {
      ((com.fasterxml.jackson.databind.node.ObjectNode) def.get("padding").get("strategy"))
          .put("Fixed", maxTokens);
    }
    return new java.io.ByteArrayInputStream(json.writeValueAsBytes(def));
  }

  /**
   * Creates the tokenizer with its native library unpacked to a directory of its own. DJL unpacks
   * the library to a fixed path per JVM, and a JVM refuses to load one path into a second class
   * loader: a Flink task manager gives each job (and a job restored from a savepoint) a class
   * loader of its own, so the second would fail with "already loaded in another classloader". The
   * copy is deleted once loaded (the loaded library stays mapped).
   */
  private static <T> T withOwnNativeCopy(java.util.function.Supplier<T> create) throws IOException {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("faultline-encoder-");
    try {
      synchronized (
          System.class) { // one lock for every class loader of the JVM while the property is ours
        String before = System.getProperty("ENGINE_CACHE_DIR");
        System.setProperty("ENGINE_CACHE_DIR", dir.toString());
        try {
          return create.get();
        } finally {
          if (before == null) {
            System.clearProperty("ENGINE_CACHE_DIR");
          } else {
            System.setProperty("ENGINE_CACHE_DIR", before);
          }
        }
      }
    } finally {
      try (var walk = java.nio.file.Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /**
   * langchain4j's in-process model over our session; segments of a long text run on the calling
   * thread.
   */
  private static final class Encoder extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    Encoder(OnnxBertBiEncoder encoder) {
      super(Runnable::run);
      this.encoder = encoder;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }

    @Override
    protected Integer knownDimension() {
      return 384;
    }
  }

  private static final class Holder {
    static final MiniLmEmbedder INSTANCE = new MiniLmEmbedder();
  }

  /** The JVM's one encoder, loaded on first use. */
  public static MiniLmEmbedder shared() {
    return Holder.INSTANCE;
  }

  @Override
  public float[] embed(String text) {
    return model.embed(encoderText(text)).content().vector();
  }

  /**
   * The vectors of several texts through langchain4j's list call ({@code embedAll}). With this
   * encoder's executor (the calling thread) it runs the texts one after another, one ONNX call
   * each, so it gives the same vectors as {@link #embed} and no speed-up (measured in {@code
   * BulkClassifierBenchmark}).
   */
  public java.util.List<float[]> embedAll(java.util.List<String> texts) {
    return model
        .embedAll(
            texts.stream()
                .map(t -> dev.langchain4j.data.segment.TextSegment.from(encoderText(t)))
                .toList())
        .content()
        .stream()
        .map(e -> e.vector())
        .toList();
  }

  /** The text as the encoder gets it: blank becomes "(empty)", cut at {@link #MAX_CHARS}. */
  private static String encoderText(String text) {
    String t = text == null || text.isBlank() ? "(empty)" : text;
    return t.length() > MAX_CHARS ? t.substring(0, MAX_CHARS) : t;
  }

  /**
   * The word pieces the encoder reads of a text (at most {@link #MAX_TOKENS}, special tokens
   * included), joined by NUL: langchain4j's encoder tokenises the text with the truncating
   * tokenizer and encodes exactly those pieces, so two texts with the same key get the same vector
   * (on one machine). Costs one tokenizer call (about a tenth of a millisecond), against about 8 ms
   * for the encoder.
   *
   * <p>A long text is tokenised only as far as its first {@link #MAX_TOKENS} words: the tokenizer
   * normalises character by character and splits at every whitespace, and every word gives at least
   * one piece, so the pieces of a prefix cut at a whitespace are the first pieces of the whole
   * text. When the prefix does not fill the window (words the normaliser removes entirely), the
   * whole text is tokenised.
   */
  @Override
  public Object inputKey(String text) {
    String t = encoderText(text);
    int cut = wordPrefixEnd(t, MAX_TOKENS);
    if (cut < t.length()) {
      java.util.List<String> pieces = keyTokenizer.tokenize(t.substring(0, cut));
      if (pieces.size() >= MAX_TOKENS) {
        return String.join("\0", pieces);
      }
    }
    return String.join("\0", keyTokenizer.tokenize(t));
  }

  /** {@link #inputKey} by tokenising the whole text, for tests that compare the two. */
  Object inputKeyOfWholeText(String text) {
    return String.join("\0", keyTokenizer.tokenize(encoderText(text)));
  }

  /**
   * Where the first {@code words} whitespace-separated words of {@code t} end (at a whitespace), or
   * its length when it has no more words.
   */
  static int wordPrefixEnd(String t, int words) {
    int seen = 0;
    boolean inWord = false;
    for (int i = 0; i < t.length(); i++) {
      boolean space = isSpace(t.charAt(i));
      if (space && inWord && ++seen == words) {
        return i;
      }
      inWord = !space;
    }
    return t.length();
  }

  /** The whitespace the tokenizer splits at (a subset of what it treats as whitespace). */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }

  @Override
  public int dimension() {
    return 384;
  }

  @Override
  public String name() {
    return NAME;
  }
}
