package dev.faultline.classifier.learned;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The encoder's numeric fingerprint: a SHA-256 of its vectors of 32 fixed synthetic probe texts,
 * rounded as the artefact stores text vectors ({@link Neighbours#quantise}: 1/254 steps). Recorded
 * in the artefact's report when it is trained ({@code report.encoderFingerprint}) and compared when
 * a {@link LearnedClassifier} is built: a different fingerprint means the encoder's arithmetic on
 * this machine (ONNX Runtime's CPU-dependent kernels, another ONNX Runtime or model file) differs
 * from the one the artefact was trained with, so the same text may get other labels than the
 * version promises. See docs/classifier.md, "What a version means".
 */
public final class EncoderFingerprint {

  /** Hand-written probes: short and long (past the 96 word pieces), prose, code, versions, logs. */
  private static final List<String> WRITTEN =
      List.of(
          "Training hangs in all_reduce after the first step on two nodes",
          "RuntimeError: CUDA out of memory while saving a checkpoint with stage 3 offload",
          "How do I set the micro batch size for pipeline parallel inference?",
          "Traceback (most recent call last):\n  File \"engine.py\", line 12, in step\n"
              + "RuntimeError: expected all tensors to be on the same device, but found cuda:0 and cpu",
          "deepspeed 0.14.2, torch 2.3.0+cu121, NCCL 2.18.1, Python 3.10.12, driver 535.104.05",
          "[rank3]: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE)",
          String.join(
              " ",
              java.util.Collections.nCopies(
                  40, "the loss becomes nan after resuming from the universal checkpoint")),
          "");

  /** Probes made of the written ones' words, shuffled with a fixed seed. */
  private static final int GENERATED = 24;

  /**
   * Probe texts: our own synthetic wording ({@value #GENERATED} more made from the written ones
   * with {@link java.util.Random}'s specified generator and a fixed seed, so every JVM builds the
   * same list). 32 probes: a machine whose arithmetic moves a fifth of all vectors by a rounding
   * step (as measured between two x86-64 machines, issue #26) keeps all 32 identical with a
   * probability of about 0.8^32, under 0.1%.
   */
  static final List<String> PROBES = probes();

  private static List<String> probes() {
    List<String> out = new java.util.ArrayList<>(WRITTEN);
    List<String> words = new java.util.ArrayList<>();
    for (String w : WRITTEN) {
      words.addAll(List.of(w.split("\\s+")));
    }
    words.removeIf(String::isEmpty);
    java.util.Random r = new java.util.Random(26);
    for (int i = 0; i < GENERATED; i++) {
      StringBuilder b = new StringBuilder();
      int n = 6 + r.nextInt(60);
      for (int k = 0; k < n; k++) {
        b.append(k == 0 ? "" : " ").append(words.get(r.nextInt(words.size())));
      }
      out.add(b.toString());
    }
    return List.copyOf(out);
  }

  private EncoderFingerprint() {}

  /**
   * The fingerprint of an encoder: {@code <name>:<first 16 hex digits of the SHA-256 of its rounded
   * probe vectors>}.
   */
  public static String of(TextEmbedder embedder) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      for (String p : PROBES) {
        d.update(Neighbours.quantise(embedder.embed(p)));
      }
      return embedder.name() + ":" + HexFormat.of().formatHex(d.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Checks an encoder against the fingerprint an artefact recorded (none recorded: nothing to
   * check). A mismatch throws unless {@code -Dfaultline.encoder.allowMismatch=true}, which labels
   * anyway (the labels are then not guaranteed to be the version's).
   *
   * @return the encoder's fingerprint
   * @throws IllegalStateException on a mismatch, naming both fingerprints and the way out
   */
  public static String check(TextEmbedder embedder, String recorded) {
    String actual = of(embedder);
    if (recorded == null || recorded.isEmpty() || recorded.equals(actual)) {
      return actual;
    }
    String message =
        "the text encoder computes differently here than where the learned model was trained"
            + " (fingerprint "
            + actual
            + ", the artefact recorded "
            + recorded
            + "): the same text may get other labels than this classifier version gives"
            + " elsewhere. Retrain the artefact on this machine (./faultline train), run on a CPU"
            + " of the training machine's kind, or accept the difference with"
            + " -Dfaultline.encoder.allowMismatch=true (docs/classifier.md, \"What a version"
            + " means\")";
    if (Boolean.getBoolean("faultline.encoder.allowMismatch")) {
      org.slf4j.LoggerFactory.getLogger(EncoderFingerprint.class).warn(message);
      return actual;
    }
    throw new IllegalStateException(message);
  }
}
