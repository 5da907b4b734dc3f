package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Vectors kept in a store under their stable key give the same labels as encoding again, and are
 * not used by an encoder that computes differently (another fingerprint) or when they are damaged.
 */
class StoredVectorsTest {

  /** The real encoder, counting its calls. */
  private static final class Counting implements TextEmbedder {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public float[] embed(String text) {
      calls.incrementAndGet();
      return MiniLmEmbedder.shared().embed(text);
    }

    @Override
    public Object inputKey(String text) {
      return MiniLmEmbedder.shared().inputKey(text);
    }

    @Override
    public int dimension() {
      return MiniLmEmbedder.shared().dimension();
    }

    @Override
    public String name() {
      return MiniLmEmbedder.shared().name();
    }
  }

  /** A store that keeps what it is given as the graph does: floats as doubles, read back. */
  private static final class MapStore implements VectorStore {
    final Map<String, double[]> kept = new ConcurrentHashMap<>();
    final AtomicInteger asked = new AtomicInteger();

    void put(String key, float[] v) {
      double[] d = new double[v.length];
      for (int i = 0; i < v.length; i++) {
        d[i] = v[i];
      }
      kept.put(key, d);
    }

    @Override
    public float[] find(String key) {
      asked.incrementAndGet();
      double[] d = kept.get(key);
      if (d == null) {
        return null;
      }
      float[] v = new float[d.length];
      for (int i = 0; i < d.length; i++) {
        v[i] = (float) d[i];
      }
      return v;
    }
  }

  /** Our own wording: a few shapes of report, each with its own numbers. */
  private static List<IssueText> issues() {
    String[] titles = {
      "Hang in reduce_scatter with %d ranks after enabling overlap_comm",
      "Optimizer state is lost when resuming run %d from a sharded checkpoint",
      "Can the tensor parallel degree be %d with sequence parallel on?",
      "Segfault in the fused layer norm kernel on batch size %d",
    };
    String[] bodies = {
      "Every rank waits forever at step %d; py-spy shows all of them inside the collective. NCCL 2.19, torch 2.2.",
      "After loading, the loss jumps from 1.9 to %d.4 and the learning rate restarts at warm-up.",
      "The docs mention tensor parallel but not whether %d works together with sequence parallel.",
      "Signal 11 (SIGSEGV) received by PID %d in the layer norm forward, fp16, A100.",
    };
    List<IssueText> out = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      out.add(
          IssueText.of(
              "deepspeedai/DeepSpeed",
              100 + i,
              titles[i % titles.length].formatted(2 + i),
              bodies[(i + 1) % bodies.length].formatted(17 * i + 3)));
    }
    return out;
  }

  private static Classifier rules() {
    return new Classifier(ClassifierConfig.defaults());
  }

  /** Everything a label carries, probabilities in full precision. */
  private static String whole(dev.faultline.classifier.Classification c) {
    StringBuilder b = new StringBuilder(c.toString());
    for (Dimension d : Dimension.values()) {
      b.append('|').append(d).append(Distributions.of(d, c.label(d)));
    }
    return b.toString();
  }

  @Test
  void aRelabelThroughTheStoreGivesTheSameLabelsAndProbabilitiesWithoutAnEncoderCall() {
    Counting first = new Counting();
    LearnedClassifier encoding =
        new LearnedClassifier(rules(), new VectorCache(first, 64), LearnedModel.bundled());
    MapStore store = new MapStore();
    List<String> fresh = new ArrayList<>();
    for (IssueText in : issues()) {
      LearnedClassifier.Keyed k = encoding.classifyKeyed(in, ChangeDetails.NONE);
      store.put(k.vectorKey(), k.vector());
      fresh.add(whole(k.classification()));
    }

    Counting second = new Counting();
    LearnedClassifier stored =
        new LearnedClassifier(rules(), new VectorCache(second, 64), LearnedModel.bundled())
            .withVectorStore(store);
    int atStart = second.calls.get(); // the fingerprint check encoded its probes
    List<String> relabelled = new ArrayList<>();
    for (IssueText in : issues()) {
      LearnedClassifier.Keyed k = stored.classifyKeyed(in, ChangeDetails.NONE);
      relabelled.add(whole(k.classification()));
      float[] again = MiniLmEmbedder.shared().embed(FeatureExtractor.embeddingText(in));
      assertArrayEquals(again, k.vector(), "the stored vector is the encoder's, bit for bit");
    }
    assertEquals(atStart, second.calls.get(), "every vector came from the store");
    assertEquals(issues().size(), store.asked.get());
    assertEquals(fresh, relabelled);
  }

  @Test
  void aVectorStoredUnderAnotherFingerprintIsNotUsed() {
    Counting encoder = new Counting();
    String text = "Deadlock in the pipeline schedule with 6 micro-batches and interleaving";
    Object inputKey = encoder.inputKey(text);
    MapStore store = new MapStore();
    float[] elsewhere = new float[encoder.dimension()];
    elsewhere[0] = 1f; // what an encoder computing differently gave the same word pieces
    store.put(
        StoredVectors.keyOf(encoder.name(), encoder.name() + ":aaaaaaaaaaaaaaaa", inputKey),
        elsewhere);

    StoredVectors here = new StoredVectors(encoder, encoder.name() + ":bbbbbbbbbbbbbbbb", store);
    float[] v = here.embed(text);
    assertEquals(1, encoder.calls.get(), "another machine's vector is not this one's");
    assertArrayEquals(MiniLmEmbedder.shared().embed(text), v);
    assertNotEquals(StoredVectors.keyOf("e", "e:1", "k"), StoredVectors.keyOf("e", "e:2", "k"));
    assertNotEquals(StoredVectors.keyOf("e", "e:1", "k"), StoredVectors.keyOf("f", "e:1", "k"));
    assertNotEquals(StoredVectors.keyOf("e", "e:1", "k"), StoredVectors.keyOf("e", "e:1", "l"));
  }

  @Test
  void aDamagedStoredVectorIsEncodedAgain() {
    Counting first = new Counting();
    LearnedClassifier encoding =
        new LearnedClassifier(rules(), new VectorCache(first, 64), LearnedModel.bundled());
    IssueText in = issues().get(3);
    LearnedClassifier.Keyed k = encoding.classifyKeyed(in, ChangeDetails.NONE);
    MapStore store = new MapStore();
    store.put(k.vectorKey(), java.util.Arrays.copyOf(k.vector(), k.vector().length - 1));

    Counting second = new Counting();
    LearnedClassifier stored =
        new LearnedClassifier(rules(), new VectorCache(second, 64), LearnedModel.bundled())
            .withVectorStore(store);
    int atStart = second.calls.get();
    LearnedClassifier.Keyed again = stored.classifyKeyed(in, ChangeDetails.NONE);
    assertEquals(atStart + 1, second.calls.get(), "a truncated vector is not used");
    assertEquals(whole(k.classification()), whole(again.classification()));
    assertArrayEquals(k.vector(), again.vector());
    assertEquals(k.vectorKey(), again.vectorKey());
  }
}
