package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.common.JobArgs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayResumeTest {

  @Test
  void theOffsetsTravelAsAJobFlagAndSayWhatWasHandled() {
    ReplayResume r = new ReplayResume(Map.of(1, 98L, 0, 120L));
    assertEquals(List.of("--replay-resume", "0:120,1:98"), r.toArgs());
    assertEquals(r, ReplayResume.fromArgs(JobArgs.parse(r.toArgs().toArray(String[]::new))));
    assertTrue(r.handled(0, 119));
    assertFalse(r.handled(0, 120), "the committed offset is the next one to read");
    assertFalse(r.handled(2, 0), "a partition with nothing committed");
    assertEquals(218, r.handledCount());
    assertEquals(List.of(), ReplayResume.NONE.toArgs());
    assertTrue(ReplayResume.fromArgs(JobArgs.parse(new String[0])).isNone());
  }

  @Test
  void theLaterAttemptWinsPartitionByPartition() {
    ReplayResume killedOnce = new ReplayResume(Map.of(0, 120L, 1, 98L));
    // a resumed attempt killed while refolding commits offsets below where it started
    ReplayResume killedAgain = new ReplayResume(Map.of(0, 40L, 1, 130L));
    assertEquals(new ReplayResume(Map.of(0, 120L, 1, 130L)), killedOnce.max(killedAgain));
  }

  @Test
  void aBadFlagSaysWhatItExpects() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ReplayResume.fromArgs(JobArgs.parse(new String[] {"--replay-resume", "0=12"})));
    assertTrue(e.getMessage().contains("PARTITION:OFFSET"), e.getMessage());
  }
}
