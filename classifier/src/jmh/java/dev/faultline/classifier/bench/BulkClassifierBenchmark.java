package dev.faultline.classifier.bench;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.FeatureExtractor;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.VectorCache;
import dev.faultline.classifier.rules.Classifier;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Bulk work with the offline default tier (issue #26, point 4), each figure beside the encoder's
 * one-item rate measured in the same run:
 *
 * <ul>
 *   <li>{@code encodeOne}: the encoder alone, one text per call (the baseline);
 *   <li>{@code encodeListLangchain4j}: langchain4j's list call ({@code embedAll}) over 16 texts;
 *   <li>{@code encodeBatchOnnx}: one ONNX Runtime call over 16 texts padded to the longest (what
 *       "batched encoding" can mean for this model; see the printed differences below);
 *   <li>{@code bulk}: 10,000 distinct synthetic issues classified by the shared learned classifier
 *       (with its vector cache) on a pool of 2 threads, one shot per iteration: seconds per 10,000;
 *   <li>{@code commentEvent} / {@code commentEventUncached}: an issue with a new comment that
 *       leaves the encoder's first 96 word pieces unchanged, classified with and without the cache.
 * </ul>
 *
 * Texts are synthetic (sentences written for the benchmarks, shuffled with a fixed seed); each
 * issue's title carries its number, so no two issues share their encoded input and the cache cannot
 * flatter the bulk figure.
 */
public class BulkClassifierBenchmark {

  static final String[] SENTENCES = {
    "When I launch training with zero stage 3 and cpu offload on two nodes the job stops after a few steps.",
    "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    engine.backward(loss)\n",
    "RuntimeError: CUDA error: an illegal memory access was encountered\n",
    "Environment:\n- torch 2.1.0+cu118\n- deepspeed==0.12.3\n- Python version: 3.10.12\n- CUDA Version: 12.2\n",
    "NCCL INFO NCCL version 2.18.1+cuda12.1 ... NCCL INFO Channel 00/02 : 0 1 2 3 4 5 6 7\n",
    "The loss becomes nan after the first optimizer step when fp16 is enabled with gradient accumulation.",
    "I tried setting NCCL_P2P_DISABLE=1 and NCCL_IB_DISABLE=1 but the hang on all_reduce stays the same.",
    "Is this expected? The same script works on a single GPU with the default config file.",
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.35 GiB total)\n",
    "Pipeline parallel size 4 with micro batch size 2 and interleaved schedule crashes in the warm-up phase.",
    "Loading the checkpoint saved with tensor parallel size 8 into a run with 4 ranks fails with size mismatch.",
    "```\n[rank3]: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE)\n```\n",
  };

  private static final String[] TITLES = {
    "training hangs",
    "crash in step",
    "loss is nan",
    "out of memory",
    "wrong output",
    "slow all_reduce"
  };

  /** Synthetic issues of about {@code bytes} characters; issue i's title names i. */
  public static IssueText[] syntheticIssues(int n, int bytes, long seed) {
    return issues(n, bytes, seed);
  }

  /** Synthetic issues of about {@code bytes} characters; issue i's title names i. */
  static IssueText[] issues(int n, int bytes, long seed) {
    Random random = new Random(seed);
    IssueText[] out = new IssueText[n];
    for (int i = 0; i < n; i++) {
      StringBuilder body = new StringBuilder(bytes + 200);
      while (body.length() < bytes) {
        body.append(SENTENCES[random.nextInt(SENTENCES.length)]).append(' ');
      }
      out[i] =
          new IssueText(
              "deepspeedai/DeepSpeed",
              i,
              "[BUG] " + TITLES[random.nextInt(TITLES.length)] + " on run " + i,
              body.toString(),
              List.of("bug"),
              List.of(),
              List.of(),
              "open");
    }
    return out;
  }

  /** The encoder's one-item rate, its list call, and a true ONNX batch. */
  @State(Scope.Thread)
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public static class Encoder {
    private MiniLmEmbedder embedder;
    private String[] texts;
    private int next;
    private OnnxBatch batch;

    @Setup
    public void setUp() throws Exception {
      embedder = MiniLmEmbedder.shared();
      IssueText[] in = issues(256, 4096, 7);
      texts = new String[in.length];
      for (int i = 0; i < in.length; i++) {
        texts[i] = FeatureExtractor.embeddingText(in[i]);
      }
      batch = new OnnxBatch();
      batch.printDifferences(List.of(texts).subList(0, 64));
    }

    @TearDown
    public void tearDown() throws Exception {
      batch.close();
    }

    /** Baseline: one text per encoder call. Ops are texts. */
    @Benchmark
    public float[] encodeOne() {
      return embedder.embed(texts[next++ & 255]);
    }

    /** langchain4j's list call over 16 texts; ops are lists, so texts/s = 16 × the figure. */
    @Benchmark
    public List<float[]> encodeListLangchain4j() {
      int from = (next += 16) & 255;
      return embedder.embedAll(List.of(texts).subList(from, from + 16));
    }

    /** One ONNX Runtime call over 16 texts; ops are calls, so texts/s = 16 × the figure. */
    @Benchmark
    public float[][] encodeBatchOnnx() throws Exception {
      int from = (next += 16) & 255;
      return batch.embed(List.of(texts).subList(from, from + 16));
    }
  }

  /** 10,000 distinct issues through the shared learned classifier on 2 threads. */
  @State(Scope.Benchmark)
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public static class Bulk {
    @Param({"10000"})
    public int issues;

    @Param({"2"})
    public int threads;

    private IssueText[] in;
    private LearnedClassifier learned;
    private ExecutorService pool;
    private int round;

    @Setup(Level.Trial)
    public void setUp() {
      learned = LearnedClassifier.shared();
      pool = Executors.newFixedThreadPool(threads);
    }

    @Setup(Level.Iteration)
    public void newIssues() {
      in = issues(issues, 4096, 1000 + round++); // fresh texts each iteration: no cache hits
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      pool.shutdownNow();
    }

    /** Seconds for the whole batch: issues/s = issues ÷ the figure. */
    @Benchmark
    public long bulk() throws Exception {
      List<Future<Long>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(
            pool.submit(
                () -> {
                  long h = 0;
                  for (int i = first; i < in.length; i += threads) {
                    h += learned.classify(in[i]).kind().value().ordinal();
                  }
                  return h;
                }));
      }
      long h = 0;
      for (Future<Long> f : parts) {
        h += f.get();
      }
      return h;
    }
  }

  /** A comment event whose encoded text is unchanged. */
  @State(Scope.Thread)
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public static class CommentEvent {
    private LearnedClassifier cached;
    private LearnedClassifier uncached;
    private IssueText[] commented;
    private int next;

    @Setup
    public void setUp() {
      Classifier rules = new Classifier(ClassifierConfig.defaults());
      cached =
          new LearnedClassifier(
              rules, new VectorCache(MiniLmEmbedder.shared(), 1024), LearnedModel.bundled());
      uncached = new LearnedClassifier(rules, MiniLmEmbedder.shared(), LearnedModel.bundled());
      IssueText[] opened = issues(64, 4096, 11);
      commented = new IssueText[opened.length];
      Random random = new Random(5);
      for (int i = 0; i < opened.length; i++) {
        IssueText o = opened[i];
        cached.classify(o); // the issue was classified when it was opened
        commented[i] =
            new IssueText(
                o.repo(),
                o.number(),
                o.title(),
                o.body(),
                o.labels(),
                List.of(
                    new Comment("maintainer", true, SENTENCES[random.nextInt(SENTENCES.length)])),
                o.pullRequests(),
                o.state());
      }
    }

    /** With the cache: the comment's classification costs no encoder call. */
    @Benchmark
    public Classification commentEvent() {
      return cached.classify(commented[next++ & 63]);
    }

    /** Baseline: the same classification with an encoder call. */
    @Benchmark
    public Classification commentEventUncached() {
      return uncached.classify(commented[next++ & 63]);
    }
  }

  /**
   * The same model run on a padded batch in one ONNX Runtime call (own session, same options as
   * {@link MiniLmEmbedder}), mean-pooled over the attention mask and normalised.
   */
  static final class OnnxBatch implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;

    OnnxBatch() throws Exception {
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      options.addConfigEntry("session.intra_op.allow_spinning", "0");
      try (InputStream w = MiniLmEmbedder.class.getResourceAsStream("/all-minilm-l6-v2-q.onnx");
          InputStream t =
              MiniLmEmbedder.class.getResourceAsStream("/all-minilm-l6-v2-q-tokenizer.json")) {
        session = env.createSession(w.readAllBytes(), options);
        ObjectMapper json = new ObjectMapper();
        ObjectNode def = (ObjectNode) json.readTree(t);
        ((ObjectNode) def.get("truncation")).put("max_length", MiniLmEmbedder.MAX_TOKENS);
        tokenizer =
            HuggingFaceTokenizer.newInstance(
                new java.io.ByteArrayInputStream(json.writeValueAsBytes(def)),
                Map.of("padding", "false"));
      }
    }

    float[][] embed(List<String> texts) throws Exception {
      Encoding[] enc = new Encoding[texts.size()];
      int len = 0;
      for (int i = 0; i < enc.length; i++) {
        enc[i] = tokenizer.encode(texts.get(i), true, false);
        len = Math.max(len, enc[i].getIds().length);
      }
      long[] ids = new long[enc.length * len];
      long[] mask = new long[enc.length * len];
      long[] types = new long[enc.length * len];
      for (int i = 0; i < enc.length; i++) {
        long[] e = enc[i].getIds();
        System.arraycopy(e, 0, ids, i * len, e.length);
        java.util.Arrays.fill(mask, i * len, i * len + e.length, 1L);
      }
      long[] shape = {enc.length, len};
      try (OnnxTensor a = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
          OnnxTensor b = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
          OnnxTensor c = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape);
          OrtSession.Result r =
              session.run(Map.of("input_ids", a, "attention_mask", b, "token_type_ids", c))) {
        float[][][] hidden = (float[][][]) r.get(0).getValue();
        float[][] out = new float[enc.length][];
        for (int i = 0; i < enc.length; i++) {
          int n = enc[i].getIds().length;
          float[] v = new float[hidden[i][0].length];
          for (int tok = 0; tok < n; tok++) {
            for (int d = 0; d < v.length; d++) {
              v[d] += hidden[i][tok][d];
            }
          }
          float norm = 0;
          for (int d = 0; d < v.length; d++) {
            v[d] /= n;
            norm += v[d] * v[d];
          }
          float s = (float) Math.sqrt(norm);
          for (int d = 0; d < v.length; d++) {
            v[d] /= s;
          }
          out[i] = v;
        }
        return out;
      }
    }

    /**
     * Prints how far a text's vector moves when it is encoded in a batch of 16 rather than alone
     * (the model quantises its activations with one scale per tensor, so a batch's other texts
     * change each text's arithmetic).
     */
    void printDifferences(List<String> texts) throws Exception {
      int changed = 0;
      double max = 0;
      int cells = 0;
      for (int from = 0; from + 16 <= texts.size(); from += 16) {
        float[][] batched = embed(texts.subList(from, from + 16));
        for (int i = 0; i < 16; i++) {
          float[] alone = embed(List.of(texts.get(from + i)))[0];
          boolean same = java.util.Arrays.equals(alone, batched[i]);
          changed += same ? 0 : 1;
          for (int d = 0; d < alone.length; d++) {
            double diff = Math.abs(alone[d] - batched[i][d]);
            max = Math.max(max, diff);
            cells += Math.round(alone[d] * 127) != Math.round(batched[i][d] * 127) ? 1 : 0;
          }
        }
      }
      System.out.printf(
          "batched vs alone: %d of %d vectors differ, max |diff| %.2e, %d values change at 1/127"
              + " steps%n",
          changed, texts.size(), max, cells);
    }

    @Override
    public void close() throws Exception {
      session.close();
      tokenizer.close();
    }
  }
}
