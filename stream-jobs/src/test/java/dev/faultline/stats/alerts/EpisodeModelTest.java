package dev.faultline.stats.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.detect.AlertKeys;
import dev.faultline.stats.detect.AlertModel;
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
}
