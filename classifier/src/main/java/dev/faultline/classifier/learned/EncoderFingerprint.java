package dev.faultline.classifier.learned;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The encoder's numeric fingerprint: a SHA-256 of its vectors of fixed synthetic probe texts,
 * rounded as the artefact stores text vectors ({@link Neighbours#quantise}: 1/254 steps). Recorded
 * in the artefact's report when it is trained ({@code report.encoderFingerprint}) and compared when
 * a {@link LearnedClassifier} is built: a different fingerprint means the encoder's arithmetic on
 * this machine (ONNX Runtime's CPU-dependent kernels, another ONNX Runtime or model file) differs
 * from the one the artefact was trained with, so the same text may get other labels than the
 * version promises. See docs/classifier.md, "What a version means".
 */
public final class EncoderFingerprint {

  /**
   * Probe texts: our own synthetic wording, short and long (past the 96 word pieces), prose, a
   * traceback, a version banner and a log line, so the fingerprint exercises every path the encoder
   * takes.
   */
  static final List<String> PROBES =
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
