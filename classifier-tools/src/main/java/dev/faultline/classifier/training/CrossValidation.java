package dev.faultline.classifier.training;

import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * k-fold cross-validation of the learned layer, folds grouped (an issue and the changes that
 * reference it stay in one fold). Each fold's model is trained, calibrated and thresholded on the
 * other folds only (the held-back quarter for calibration comes from them), so every answer is
 * out-of-fold.
 */
public final class CrossValidation {

  /** One out-of-fold answer set. */
  public record Answered(Example example, Map<Target, Decision.Answer> answers) {}

  private CrossValidation() {}

  /** The fold of a group: a fixed function of the seed and the group. */
  public static int fold(String group, int k, long seed) {
    return new SplittableRandom(seed * 31 + group.hashCode()).nextInt(k);
  }

  /**
   * @param subsample share of each training fold's groups used (1.0: all), for the learning curve
   * @param progress told each finished fold
   */
  public static List<Answered> run(
      List<Example> all,
      int k,
      long seed,
      Predicate<String> keepFixed,
      double subsample,
      Consumer<Integer> progress) {
    return run(all, k, e -> fold(e.group(), k, seed), seed, keepFixed, subsample, progress);
  }

  /**
   * Leave one repository out: each repository's items are answered by a model trained on the other
   * repositories' (a harder test than grouping by issue: the model never saw that project's words,
   * paths or habits).
   */
  public static List<Answered> byRepository(
      List<Example> all, long seed, Predicate<String> keepFixed, Consumer<Integer> progress) {
    List<String> repos = all.stream().map(Example::repo).distinct().sorted().toList();
    return run(all, repos.size(), e -> repos.indexOf(e.repo()), seed, keepFixed, 1.0, progress);
  }

  /** Cross-validation over the folds {@code foldOf} assigns (0 to k-1). */
  public static List<Answered> run(
      List<Example> all,
      int k,
      java.util.function.ToIntFunction<Example> foldOf,
      long seed,
      Predicate<String> keepFixed,
      double subsample,
      Consumer<Integer> progress) {
    List<Answered> out = new ArrayList<>();
    for (int f = 0; f < k; f++) {
      List<Example> train = new ArrayList<>();
      List<Example> test = new ArrayList<>();
      for (Example e : all) {
        if (foldOf.applyAsInt(e) == f) {
          test.add(e);
        } else if (subsample >= 1.0
            || new SplittableRandom(seed * 17 + e.group().hashCode()).nextDouble() < subsample) {
          train.add(e);
        }
      }
      Trainer.Fitted m = new Trainer(seed, keepFixed).train(train);
      for (Example e : test) {
        out.add(new Answered(e, m.answer(e.raw())));
      }
      progress.accept(f + 1);
    }
    return out;
  }
}
