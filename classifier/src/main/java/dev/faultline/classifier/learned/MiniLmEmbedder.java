package dev.faultline.classifier.learned;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * all-MiniLM-L6-v2 (quantised), run in-process by ONNX Runtime through langchain4j: the weights and the tokenizer
 * ship inside the langchain4j jar, so nothing is downloaded at run time. Texts longer than the encoder's window are
 * split and their vectors averaged by langchain4j. One instance per JVM ({@link #shared()}): loading it takes about
 * a second and 90 MB.
 */
public final class MiniLmEmbedder implements TextEmbedder {

  /** Encoder name recorded in the model artefact. */
  public static final String NAME = "all-minilm-l6-v2-q";

  /** Characters of a text given to the encoder: the rest rarely changes the meaning and costs time. */
  public static final int MAX_CHARS = 4096;

  private final AllMiniLmL6V2QuantizedEmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();

  private MiniLmEmbedder() {}

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
