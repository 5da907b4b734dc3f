package dev.faultline.classifier.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.classifier.rules.RulesCalibration.Part;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules' confusion is counted only on the other folds, and a group never splits. */
class RulesConfusionTest {

  private static final long SEED = 7;

  /** Rules that always answer stage MEMORY at 0.8 (every other dimension its first code). */
  private static RulesConfusion.Answered item(String group, String goldStage) {
    Map<Dimension, Label<?>> labels = new EnumMap<>(Dimension.class);
    Map<Dimension, String> gold = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.values()) {
      Object code = d.coded() ? d.parse(d.symbols().get(0)) : Boolean.TRUE;
      labels.put(d, Label.predicted(d == Dimension.STAGE ? d.parse("MEMORY") : code, 0.8, "r"));
      if (d.labelled()) {
        gold.put(d, Dimension.codeOf(code));
      }
    }
    gold.put(Dimension.STAGE, goldStage);
    return new RulesConfusion.Answered(
        group,
        false,
        new Classification(
            labels, Label.predicted("t", 1.0, "r"), Map.of(), Provenance.rules("rules-t")),
        gold);
  }

  private static List<RulesConfusion.Answered> corpus() {
    List<RulesConfusion.Answered> all = new ArrayList<>();
    for (int g = 0; g < 40; g++) {
      all.add(item("acme/t#" + g, g % 3 == 0 ? "COMPUTATION" : "MEMORY"));
      all.add(item("acme/t#" + g, "MEMORY")); // a second item of the same group (a fix of it)
    }
    return all;
  }

  private static double stageMemory(List<RulesConfusion.Answered> all, int i) {
    RulesConfusion.Candidate c = new RulesConfusion.Candidate(List.of(Part.ITEM), 2.0);
    return RulesConfusion.outOfFold(all, c, 5, SEED, "rules-t")
        .get(Dimension.STAGE)
        .get(i)
        .get("MEMORY");
  }

  @Test
  void anItemsDistributionNeverSeesItsOwnGoldNorItsGroups() {
    List<RulesConfusion.Answered> all = corpus();
    double before = stageMemory(all, 0);
    // flip the gold of item 0 and of the other item of its group: its out-of-fold row stays
    List<RulesConfusion.Answered> flipped = new ArrayList<>(all);
    flipped.set(0, item("acme/t#0", "SCHEDULING"));
    flipped.set(1, item("acme/t#0", "SCHEDULING"));
    assertEquals(before, stageMemory(flipped, 0), 1e-15);
    // flipping an item of another group in another fold moves it
    int other = -1;
    for (int i = 2; i < all.size() && other < 0; i++) {
      if (CrossValidation.fold(all.get(i).group(), 5, SEED)
          != CrossValidation.fold("acme/t#0", 5, SEED)) {
        other = i;
      }
    }
    flipped.set(other, item(all.get(other).group(), "SCHEDULING"));
    assertNotEquals(before, stageMemory(flipped, 0));
  }

  @Test
  void theChosenCandidateHasTheLowestMeanLogLoss() {
    List<RulesConfusion.Score> scores = RulesConfusion.select(corpus(), 5, SEED, "rules-t");
    assertEquals(RulesConfusion.CANDIDATES.size() * RulesConfusion.STRENGTHS.length, scores.size());
    RulesConfusion.Score best = RulesConfusion.best(scores);
    for (RulesConfusion.Score s : scores) {
      assertEquals(true, best.logLoss() <= s.logLoss(), s + " beats " + best);
    }
  }
}
