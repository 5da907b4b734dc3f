package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.common.JobArgs;
import dev.faultline.jobs.records.CommentEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayScopeTest {
  private static final long MARCH_1 = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli();

  private static IssueAccumulator issue(String repo, String title, long createdAt) {
    IssueEvent i = new IssueEvent();
    i.id = repo + "#1";
    i.repo = repo;
    i.number = 1;
    i.title = title;
    i.body = "";
    i.state = "open";
    i.createdAt = createdAt;
    i.updatedAt = createdAt;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(e);
    return acc;
  }

  @Test
  void coversTheFrameworkAndTheHalfOpenCreationInterval() {
    ReplayScope scope =
        new ReplayScope(
            Instant.parse("2024-03-01T00:00:00Z"), Instant.parse("2024-04-01T00:00:00Z"), "NCCL");
    assertTrue(scope.coversIssue(issue("NVIDIA/nccl", "hang", MARCH_1)), "since is inclusive");
    assertFalse(scope.coversIssue(issue("NVIDIA/nccl", "hang", MARCH_1 - 1)), "before since");
    assertFalse(
        scope.coversIssue(
            issue("NVIDIA/nccl", "hang", Instant.parse("2024-04-01T00:00:00Z").toEpochMilli())),
        "until is exclusive");
    assertFalse(scope.coversIssue(issue("pytorch/pytorch", "hang", MARCH_1)), "other framework");
    assertFalse(scope.coversIssue(new IssueAccumulator()), "no issue state yet");
    assertTrue(ReplayScope.ALL.coversIssue(issue("pytorch/pytorch", "hang", 0)));
    assertFalse(ReplayScope.ALL.coversIssue(new IssueAccumulator()));
  }

  @Test
  void anIssueOfAnUnknownRepositoryHasTheFrameworkItsTextNamesFirstAsTheClassifierGivesIt() {
    ReplayScope deepSpeed = new ReplayScope(null, null, "DeepSpeed");
    IssueAccumulator acc = issue("someone/trainer", "Crash in deepspeed launcher with nccl", 0);
    assertTrue(deepSpeed.coversIssue(acc));
    assertFalse(new ReplayScope(null, null, "NCCL").coversIssue(acc));
    // a comment can name it too
    IssueAccumulator quiet = issue("someone/trainer", "Crash at step 3", 0);
    assertFalse(new ReplayScope(null, null, "Horovod").coversIssue(quiet));
    GitHubEvent c = new GitHubEvent();
    c.type = GitHubEvent.Type.COMMENT;
    c.key = quiet.issue.id;
    c.comment = new CommentEvent();
    c.comment.commentId = 7;
    c.comment.body = "Same with horovod 0.28";
    quiet.fold(c);
    assertTrue(new ReplayScope(null, null, "Horovod").coversIssue(quiet));
    // no name at all: the repository itself, as the pipeline writes it
    assertTrue(
        new ReplayScope(null, null, "someone/other").coversIssue(issue("someone/other", "x", 0)));
  }

  @Test
  void pullRequestsByTheirRepositorysFrameworkAndCreationTime() {
    PullRequestEvent p = new PullRequestEvent();
    p.repo = "deepspeedai/DeepSpeed";
    p.createdAt = MARCH_1;
    assertTrue(
        new ReplayScope(Instant.ofEpochMilli(MARCH_1), null, "DeepSpeed").coversPullRequest(p));
    assertFalse(new ReplayScope(null, null, "PyTorch").coversPullRequest(p));
    assertFalse(new ReplayScope(null, Instant.ofEpochMilli(MARCH_1), null).coversPullRequest(p));
  }

  @Test
  void travelsAsJobFlagsAndBack() {
    ReplayScope scope =
        new ReplayScope(
            Instant.parse("2024-03-01T00:00:00Z"), Instant.parse("2025-01-01T12:00:00Z"), "vLLM");
    List<String> args = scope.toArgs();
    assertEquals(
        List.of(
            "--replay-since",
            "2024-03-01T00:00:00Z",
            "--replay-until",
            "2025-01-01T12:00:00Z",
            "--replay-framework",
            "vLLM"),
        args);
    assertEquals(scope, ReplayScope.fromArgs(JobArgs.parse(args.toArray(String[]::new))));
    assertEquals(
        Instant.parse("2024-03-01T00:00:00Z"),
        ReplayScope.fromArgs(JobArgs.parse(new String[] {"--replay-since", "2024-03-01"})).since());
    assertEquals(ReplayScope.ALL, ReplayScope.fromArgs(JobArgs.parse(new String[0])));
    assertTrue(ReplayScope.ALL.toArgs().isEmpty());
    assertEquals(
        Replay.of(ReplayScope.ALL),
        Replay.fromArgs(JobArgs.parse(new String[] {"--replay", "true"})));
    assertEquals(Replay.LIVE, Replay.fromArgs(JobArgs.parse(new String[] {"--group-id", "g"})));
    assertThrows(
        IllegalArgumentException.class,
        () -> ReplayScope.fromArgs(JobArgs.parse(new String[] {"--replay-until", "March"})));
  }

  @Test
  void theLiveJobTakesNoScope() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Replay(false, new ReplayScope(null, null, "NCCL"), false));
    assertTrue(e.getMessage().contains("--replay true"), e.getMessage());
  }

  @Test
  void aReplaysFlagsGiveItsScopeAndStoredVectors() {
    JobConfig config =
        JobConfig.fromArgs(
            new String[] {
              "--neo4j-password", "p", "--replay", "true", "--replay-framework", "NCCL"
            },
            java.util.Map.of());
    assertEquals(new Replay(true, new ReplayScope(null, null, "NCCL"), true), config.replay());
    assertEquals(
        config.io().graph(), config.pipelineSettings(null).storedVectors(), "a replay reads them");
    assertNull(JobConfig.live(config.io()).pipelineSettings(null).storedVectors());
  }
}
