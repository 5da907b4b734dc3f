package dev.faultline.classifier.learned;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether this machine's encoder reproduces the text vectors stored in the committed artefact (the
 * part of training that depends on the CPU; the rest, LIBLINEAR and calibration, is deterministic
 * given them): encodes every training item as {@code faultline train} does, rounds as the artefact
 * stores it, and counts the stored vectors that differ and by how many 1/254 steps. Reads the
 * training data at run time ({@code ../shared/train}); prints figures only. Run: {@code java -cp
 * ... dev.faultline.classifier.learned.ArtefactVectorCheck ../shared/train}.
 */
public final class ArtefactVectorCheck {

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/train");
    List<TrainingData.Item> items = new ArrayList<>();
    items.addAll(TrainingData.read(data.resolve("issues.jsonl")));
    items.addAll(TrainingData.read(data.resolve("changes.jsonl")));
    LearnedModel model = LearnedModel.bundled();
    Map<String, Integer> index = new HashMap<>();
    List<String> ids = model.neighbours().ids();
    for (int i = 0; i < ids.size(); i++) {
      index.put(ids.get(i), i);
    }
    MiniLmEmbedder e = MiniLmEmbedder.shared();
    int compared = 0;
    int differ = 0;
    int values = 0;
    int maxSteps = 0;
    int missing = 0;
    for (TrainingData.Item it : items) {
      Integer k = index.get(it.id());
      if (k == null) {
        missing++;
        continue;
      }
      byte[] here = Neighbours.quantise(e.embed(FeatureExtractor.embeddingText(it.text())));
      byte[] stored = model.neighbours().vectors()[k];
      compared++;
      boolean same = true;
      for (int d = 0; d < here.length; d++) {
        int steps = Math.abs(here[d] - stored[d]);
        if (steps > 0) {
          same = false;
          values++;
          maxSteps = Math.max(maxSteps, steps);
        }
      }
      differ += same ? 0 : 1;
    }
    System.out.printf(
        Locale.ROOT,
        "%d training items, %d compared with the artefact's stored vectors (%d not in it): %d vectors"
            + " differ, %d of %d values, at most %d steps of 1/254; encoder fingerprint here %s,"
            + " recorded %s%n",
        items.size(),
        compared,
        missing,
        differ,
        values,
        compared * 384,
        maxSteps,
        EncoderFingerprint.of(e),
        model.encoderFingerprint());
  }
}
