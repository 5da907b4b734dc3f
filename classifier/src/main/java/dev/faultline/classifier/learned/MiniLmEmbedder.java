package dev.faultline.classifier.learned;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;

/**
 * all-MiniLM-L6-v2 (quantised), run in-process by ONNX Runtime through langchain4j: the weights and the tokenizer
 * ship inside the langchain4j jar, so nothing is downloaded at run time. Texts longer than the encoder's window are
 * split and their vectors averaged by langchain4j. One instance per JVM ({@link #shared()}): loading it takes about
 * a second and 90 MB.
 *
 * <p>The ONNX session runs each call on the calling thread alone (one intra-op thread, no spin-waiting): a Flink slot
 * or a CLI thread costs one core, and a busy machine is not slowed further by idle threads spinning for work.
 */
public final class MiniLmEmbedder implements TextEmbedder {

  /** Encoder name recorded in the model artefact. */
  public static final String NAME = "all-minilm-l6-v2-q";

  /**
   * Characters of a text given to the encoder. Its tokenizer keeps the first 128 word pieces (about 600 characters
   * of English, fewer of code or logs) and drops the rest, so a longer text only costs tokenising: cross-validation
   * gave the same figures to the third decimal with 1,000 and 4,096 characters, and the encoder takes 10.7 ms
   * instead of 12.2 ms on a 4 KB issue.
   */
  public static final int MAX_CHARS = Integer.getInteger("faultline.encoder.maxChars", 1000);

  /** The weights and tokenizer inside the langchain4j jar. */
  private static final String WEIGHTS = "/all-minilm-l6-v2-q.onnx";
  private static final String TOKENIZER = "/all-minilm-l6-v2-q-tokenizer.json";

  private final Encoder model;

  private MiniLmEmbedder() {
    try (InputStream weights = MiniLmEmbedder.class.getResourceAsStream(WEIGHTS);
        InputStream tokenizer = MiniLmEmbedder.class.getResourceAsStream(TOKENIZER)) {
      if (weights == null || tokenizer == null) {
        throw new IllegalStateException("the encoder's weights are not on the classpath (" + WEIGHTS + ")");
      }
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      options.addConfigEntry("session.intra_op.allow_spinning", "0");
      OrtSession session = env.createSession(weights.readAllBytes(), options);
      model = new Encoder(withOwnNativeCopy(() -> new OnnxBertBiEncoder(env, session, tokenizer, PoolingMode.MEAN)));
    } catch (IOException | OrtException e) {
      throw new IllegalStateException("cannot load the text encoder: " + e.getMessage(), e);
    }
  }

  /**
   * Creates the tokenizer with its native library unpacked to a directory of its own. DJL unpacks the library to a
   * fixed path per JVM, and a JVM refuses to load one path into a second class loader: a Flink task manager gives
   * each job (and a job restored from a savepoint) a class loader of its own, so the second would fail with
   * "already loaded in another classloader". The copy is deleted once loaded (the loaded library stays mapped).
   */
  private static OnnxBertBiEncoder withOwnNativeCopy(java.util.function.Supplier<OnnxBertBiEncoder> create)
      throws IOException {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("faultline-encoder-");
    try {
      synchronized (System.class) { // one lock for every class loader of the JVM while the property is ours
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

  /** langchain4j's in-process model over our session; segments of a long text run on the calling thread. */
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
    String t = text == null || text.isBlank() ? "(empty)" : text;
    if (t.length() > MAX_CHARS) {
      t = t.substring(0, MAX_CHARS);
    }
    return model.embed(t).content().vector();
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
