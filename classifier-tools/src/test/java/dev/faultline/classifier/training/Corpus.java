package dev.faultline.classifier.training;

import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A small labelled corpus the tests write themselves: hangs, crashes and questions in varied words.
 */
final class Corpus {
  private Corpus() {}

  private static final String[][] HANG = {
    {
      "Training hangs at allreduce",
      "NCCL watchdog timeout after 1800 seconds, all ranks stuck in the collective"
    },
    {
      "Job stuck in barrier",
      "the run makes no progress, processes wait forever in dist.barrier on 8 nodes"
    },
    {
      "Deadlock during all_gather", "rank 3 never returns from all_gather, the other ranks time out"
    },
  };
  private static final String[][] CRASH = {
    {
      "RuntimeError in optimizer step",
      "Traceback (most recent call last): RuntimeError: expected tensor on cuda"
    },
    {
      "AttributeError when saving",
      "Traceback: AttributeError: 'NoneType' object has no attribute 'shape'"
    },
    {
      "KeyError on engine init",
      "Traceback (most recent call last): KeyError: 'optimizer' raised in the engine"
    },
  };
  private static final String[][] QUESTION = {
    {
      "How do I set the bucket size?",
      "Is there a way to configure the reduce bucket size for my model? Thanks"
    },
    {
      "Question about offload",
      "How can I enable CPU offload, which option should I use, any example?"
    },
    {
      "Which launcher to use?",
      "What is the recommended way to launch on a cluster, is there documentation?"
    },
  };

  static List<TrainingData.Item> items(int perClass, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<TrainingData.Item> out = new ArrayList<>();
    int n = 0;
    for (int i = 0; i < perClass; i++) {
      out.add(item(++n, HANG[r.nextInt(HANG.length)], r, "BUG", "HANG", "COMMUNICATION", "true"));
      out.add(
          item(
              ++n,
              CRASH[r.nextInt(CRASH.length)],
              r,
              "BUG",
              "RUNTIME_CRASH",
              "COMPUTATION",
              "false"));
      out.add(
          item(
              ++n, QUESTION[r.nextInt(QUESTION.length)], r, "QUESTION", "NONE", "UNKNOWN", "null"));
    }
    return out;
  }

  private static TrainingData.Item item(
      int n,
      String[] text,
      SplittableRandom r,
      String kind,
      String symptom,
      String stage,
      String distributed) {
    String filler = " run " + r.nextInt(1000) + " on node" + r.nextInt(50);
    IssueText t = IssueText.of("acme/trainer", n, text[0], text[1] + filler);
    Map<Target, String> gold = new TreeMap<>();
    gold.put(Target.KIND, kind);
    gold.put(Target.SYMPTOM, symptom);
    gold.put(Target.ROOT_CAUSE, "UNKNOWN");
    gold.put(Target.FIX_PATTERN, "UNKNOWN");
    gold.put(Target.of(Dimension.STAGE), stage);
    gold.put(Target.of(Dimension.PHASE), "TRAINING");
    gold.put(Target.of(Dimension.DISTRIBUTED_SPECIFIC), distributed);
    return new TrainingData.Item(
        "acme/trainer#" + n, "acme/trainer", n, false, t, ChangeDetails.NONE, gold);
  }
}
