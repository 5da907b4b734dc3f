package dev.faultline.classifier.bench;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.internal.Tokenizer;
import dev.faultline.classifier.learned.FeatureExtractor;
import dev.faultline.classifier.learned.LearnedClassifier;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.TextEmbedder;
import dev.faultline.classifier.rules.Classifier;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issues classified per second on one thread for 1, 4 and 16 KB issue texts: the rules alone, the
 * whole offline classifier (rules, text vector, learned layer), the text vector alone, and a
 * baseline that only tokenises the same texts. Texts are synthetic: issue-like sentences, an
 * environment section and a traceback, shuffled with a fixed seed, cycled over 64 distinct issues
 * so caches do not flatter the figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ClassifierBenchmark {

  private static final String[] SENTENCES = {
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

  @Param({"1024", "4096", "16384"})
  public int bytes;

  private Classifier classifier;
  private LearnedClassifier learned;
  private TextEmbedder embedder;
  private Tokenizer tokenizer;
  private IssueText[] issues;
  private int next;

  @Setup
  public void setUp() {
    classifier = new Classifier(ClassifierConfig.defaults());
    learned = LearnedClassifier.shared();
    embedder = MiniLmEmbedder.shared();
    tokenizer = new Tokenizer();
    Random random = new Random(42);
    issues = new IssueText[64];
    for (int i = 0; i < issues.length; i++) {
      StringBuilder body = new StringBuilder(bytes + 200);
      while (body.length() < bytes * 3 / 4) {
        body.append(SENTENCES[random.nextInt(SENTENCES.length)]).append(' ');
      }
      StringBuilder comment = new StringBuilder();
      while (body.length() + comment.length() < bytes) {
        comment.append(SENTENCES[random.nextInt(SENTENCES.length)]).append(' ');
      }
      issues[i] =
          new IssueText(
              "deepspeedai/DeepSpeed",
              i,
              "[BUG] training run fails with zero 3 on multi node #" + i,
              body.toString(),
              List.of("bug"),
              List.of(new Comment("someone", false, comment.toString())),
              List.of(),
              "open");
    }
  }

  @Benchmark
  public Classification classify() {
    IssueText in = issues[next++ & 63];
    return classifier.classify(in);
  }

  /** The whole offline classifier: rules, text vector, learned layer, nearest labelled items. */
  @Benchmark
  public Classification classifyLearned() {
    IssueText in = issues[next++ & 63];
    return learned.classify(in);
  }

  /** The text vector alone, of the same text the learned layer encodes. */
  @Benchmark
  public float[] embedOnly() {
    IssueText in = issues[next++ & 63];
    return embedder.embed(FeatureExtractor.embeddingText(in));
  }

  @Benchmark
  public int tokenizeOnly() {
    IssueText in = issues[next++ & 63];
    int n = tokenizer.count(in.title()) + tokenizer.count(in.body());
    for (Comment c : in.comments()) {
      n += tokenizer.count(c.body());
    }
    return n;
  }
}
