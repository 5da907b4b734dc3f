package dev.faultline.stats.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.keys.AlertKeys;
import dev.faultline.stats.records.StatAlert;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The episode model alone: alerting ends in, episodes and revisions out (no Flink). */
class EpisodeModelTest {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final String HANG = AlertKeys.category(Dimension.SYMPTOM, "HANG");

  private final EpisodeModel model = new EpisodeModel(AlertModel.defaults(), 5);
  private final Map<Long, Map<String, StatAlert>> ends = new HashMap<>();

  private StatAlert alertAt(long end, long count) {
    StatAlert a = new StatAlert();
    a.framework = "vLLM";
    a.dimension = Dimension.SYMPTOM;
    a.category = "HANG";
    a.kind = AlertKind.SURGE;
    a.windowStart = (end - 3) * DAY;
    a.windowEnd = end * DAY;
    a.count = count;
    a.explanation = "seen " + count;
    ends.computeIfAbsent(end, e -> new HashMap<>()).put(HANG, a);
    return a;
  }

  @Test
  void alertingEndsLessThanAWindowApartAreOneEpisodeNamedByItsFirstEnd() throws Exception {
    alertAt(100, 3);
    alertAt(101, 4);
    alertAt(107, 5); // 6 days after the last: the same episode
    alertAt(115, 3); // 8 days after: a new one
    EpisodeModel.Revision r =
        model.reconcile(Set.of(HANG), 100, 115, ends::get, List.of(), Set.of(), Map.of());
    assertThat(r.withdrawn()).isEmpty();
    assertThat(r.emitted())
        .extracting(a -> a.id)
        .containsExactly(
            "vLLM/symptom/HANG/SURGE/1970-04-08", "vLLM/symptom/HANG/SURGE/1970-04-23");
    assertThat(r.emitted()).extracting(a -> a.count).containsExactly(3L, 3L);
  }

  @Test
  void anEpisodeInForceThatNoLongerExistsIsWithdrawnAndAnUnchangedOneIsNotReEmitted()
      throws Exception {
    StatAlert kept = alertAt(100, 3).copy();
    kept.id = EpisodeModel.idOf(kept);
    StatAlert gone = kept.copy();
    gone.windowStart = 107 * DAY;
    gone.windowEnd = 110 * DAY;
    gone.id = EpisodeModel.idOf(gone);
    Map<String, StatAlert> inForce = new LinkedHashMap<>();
    inForce.put(kept.id, kept);
    inForce.put(gone.id, gone);
    EpisodeModel.Revision r =
        model.reconcile(Set.of(HANG), 100, 110, ends::get, List.of(), Set.of(), inForce);
    assertThat(r.emitted()).isEmpty();
    assertThat(r.withdrawn()).extracting(a -> a.id).containsExactly(gone.id);
    assertThat(r.withdrawn().get(0).withdrawn).isTrue();
    assertThat(r.withdrawn().get(0).explanation).startsWith("Withdrawn:");
  }

  @Test
  void changedKeysAreTheAddedRemovedAndRevisedOnes() {
    StatAlert a = alertAt(100, 3);
    StatAlert b = a.copy();
    b.count = 4;
    b.explanation = "seen 4";
    String other = AlertKeys.category(Dimension.SYMPTOM, "CRASH");
    assertThat(EpisodeModel.changed(Map.of(HANG, a), Map.of(HANG, a.copy()))).isEmpty();
    assertThat(EpisodeModel.changed(Map.of(HANG, a), Map.of(HANG, b))).containsExactly(HANG);
    assertThat(EpisodeModel.changed(Map.of(HANG, a), Map.of(other, a)))
        .containsExactlyInAnyOrder(HANG, other);
  }

  private static StatAlert episode(
      Dimension dim,
      String category,
      long start,
      long end,
      double statistic,
      double adjustedP,
      String... issues) {
    StatAlert a = new StatAlert();
    a.framework = "DeepSpeed";
    a.dimension = dim;
    a.category = category;
    a.kind = AlertKind.SURGE;
    a.windowStart = start * DAY;
    a.windowEnd = end * DAY;
    a.raisedAt = a.windowEnd;
    a.count = issues.length;
    a.statistic = statistic;
    a.adjustedPValue = adjustedP;
    a.issueIds = issues;
    a.exampleIssueIds = issues;
    a.explanation =
        "DeepSpeed: "
            + issues.length
            + " issues of "
            + category
            + " in 3 days to x; about 0.5 expected at its share."
            + " Decided by a CUSUM "
            + category
            + ". Examples: "
            + String.join(", ", issues)
            + ".";
    a.id = EpisodeModel.idOf(a);
    return a;
  }

  @Test
  void episodesSharingMostOfTheirIssuesAreOneAlertButAStageSharedByTwoEventsDoesNotChainThem() {
    // the strongest by the statistic the CUSUM decided on, not by the family-wise p (which sits
    // near the budget by construction): the stage leads the ranking, the symptom the family-wise p
    StatAlert symptom =
        episode(Dimension.SYMPTOM, "CHECKPOINT_FAILURE", 100, 103, 4.0, 0.001, "a", "b");
    StatAlert stage = episode(Dimension.STAGE, "FAULT_TOLERANCE", 101, 105, 6.0, 0.1, "b", "c");
    StatAlert crash = episode(Dimension.SYMPTOM_CLASS, "CRASH", 104, 106, 3.0, 0.01, "c", "d");
    StatAlert apart = episode(Dimension.SYMPTOM, "HANG", 100, 103, 5.0, 0.001, "x", "y");
    StatAlert later = episode(Dimension.SYMPTOM, "HANG", 120, 123, 5.0, 0.001, "a", "b");
    Map<String, StatAlert> groups =
        EpisodeModel.groups(List.of(crash, apart, symptom, later, stage));
    assertThat(groups.keySet()).containsExactlyInAnyOrder(symptom.id, apart.id, later.id, crash.id);
    StatAlert g = groups.get(symptom.id);
    assertThat(g.moved)
        .extracting(m -> m.category)
        .containsExactly("FAULT_TOLERANCE", "CHECKPOINT_FAILURE");
    assertThat(g.category).isEqualTo("FAULT_TOLERANCE");
    assertThat(g.explanation)
        .startsWith("DeepSpeed: 2 issues of FAULT_TOLERANCE")
        .contains(" Also: 2 issues of CHECKPOINT_FAILURE in 3 days")
        .doesNotContain("CRASH")
        .contains("Decided by a CUSUM FAULT_TOLERANCE.");
    assertThat(g.issueIds).containsExactly("a", "b", "c");
    assertThat(g.raisedAt).isEqualTo(105 * DAY); // its newest member's
    assertThat(groups.get(crash.id).moved).extracting(m -> m.category).containsExactly("CRASH");
    assertThat(groups.get(apart.id).moved).hasSize(1);
    assertThat(groups.get(apart.id).explanation).isEqualTo(apart.explanation);
    // the same groups whatever the order the episodes are listed in
    assertThat(EpisodeModel.groups(List.of(stage, later, symptom, apart, crash)).keySet())
        .isEqualTo(groups.keySet());
  }

  @Test
  void aCoarseEpisodeRaisedFirstDoesNotLeadTheFinerOnesItSharesIssuesWith() {
    StatAlert stage = episode(Dimension.STAGE, "COMMUNICATION", 98, 101, 9.0, 0.01, "b", "c");
    StatAlert hang = episode(Dimension.SYMPTOM, "HANG", 99, 103, 4.0, 0.01, "a", "b");
    StatAlert oom = episode(Dimension.SYMPTOM, "OUT_OF_MEMORY", 99, 104, 4.0, 0.01, "c", "d");
    Map<String, StatAlert> groups = EpisodeModel.groups(List.of(oom, stage, hang));
    // HANG leads (fine, raised before OUT_OF_MEMORY); the stage shares half of each symptom's
    // issues and joins the earlier leader only; the group keeps the id of its first raised member
    assertThat(groups.keySet()).containsExactlyInAnyOrder(stage.id, oom.id);
    assertThat(groups.get(stage.id).moved)
        .extracting(m -> m.category)
        .containsExactly("COMMUNICATION", "HANG");
    assertThat(groups.get(oom.id).moved)
        .extracting(m -> m.category)
        .containsExactly("OUT_OF_MEMORY");
  }

  @Test
  void episodesSharingLessThanHalfOfTheSmallerSetOfIssuesStayApart() {
    StatAlert hang = episode(Dimension.SYMPTOM, "HANG", 99, 103, 4.0, 0.01, "a", "b", "c");
    StatAlert cause =
        episode(Dimension.ROOT_CAUSE, "RACE_CONDITION", 99, 104, 4.0, 0.01, "c", "d", "e");
    assertThat(EpisodeModel.groups(List.of(hang, cause))).hasSize(2);
    StatAlert more = episode(Dimension.ROOT_CAUSE, "RACE_CONDITION", 99, 104, 4.0, 0.01, "b", "c");
    assertThat(EpisodeModel.groups(List.of(hang, more))).hasSize(1);
  }

  @Test
  void aGroupKeepsItsIdAndChangesItsTextAndTimeWhenAMemberJoins() {
    StatAlert hang = episode(Dimension.SYMPTOM, "HANG", 99, 103, 4.0, 0.01, "a", "b", "c");
    StatAlert stage = episode(Dimension.STAGE, "COMMUNICATION", 100, 106, 7.0, 0.01, "b", "c");
    StatAlert alone = EpisodeModel.groups(List.of(hang)).get(hang.id);
    StatAlert joined = EpisodeModel.groups(List.of(hang, stage)).get(hang.id);
    assertThat(joined).isNotNull();
    assertThat(joined.raisedAt).isGreaterThan(alone.raisedAt);
    assertThat(joined.explanation).isNotEqualTo(alone.explanation);
    assertThat(joined.sameAs(alone)).isFalse();
    assertThat(joined.moved).hasSize(2);
  }
}
