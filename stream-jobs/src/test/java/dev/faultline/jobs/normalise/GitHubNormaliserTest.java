package dev.faultline.jobs.normalise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliverySource;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GitHubNormaliserTest {
  private final GitHubNormaliser normaliser = new GitHubNormaliser(new ObjectMapper());

  private static Delivery delivery(String event, String action, String payload) {
    return new Delivery(
        "d1", event, action, "acme/trainer", Instant.EPOCH, DeliverySource.WEBHOOK, payload);
  }

  private static String issue(String repo, String action, String extra) {
    return """
        {"action": "%s", "issue": {"number": 3, "title": "Hang at barrier", "state": "open", "body": "b",
         "labels": [{"name": "bug"}, {"name": "training"}], "comments": 2,
         "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z"}%s,
         "repository": {"full_name": "%s"}}
        """
        .formatted(action, extra, repo);
  }

  @Test
  void normalisesAnIssueEventWithItsKeyLabelsAndTimes() throws Exception {
    List<GitHubEvent> facts =
        normaliser.normalise(delivery("issues", "opened", issue("acme/trainer", "opened", "")));
    assertEquals(1, facts.size());
    GitHubEvent f = facts.get(0);
    assertEquals(GitHubEvent.Type.ISSUE, f.type);
    assertEquals("acme/trainer#3", f.key);
    assertEquals(List.of("bug", "training"), f.issue.labels);
    assertEquals(Instant.parse("2024-01-02T00:00:00Z").toEpochMilli(), f.issue.updatedAt);
    assertEquals(2, f.issue.comments);
  }

  @Test
  void marksDeletedAndTransferredIssues() throws Exception {
    assertEquals(
        "deleted",
        normaliser
            .normalise(delivery("issues", "deleted", issue("acme/trainer", "deleted", "")))
            .get(0)
            .issue
            .state);
    GitHubEvent moved =
        normaliser
            .normalise(
                delivery(
                    "issues",
                    "transferred",
                    issue(
                        "acme/trainer",
                        "transferred",
                        ", \"changes\": {\"new_issue\": {\"number\": 9}, \"new_repository\": {\"full_name\": \"acme/core\"}}")))
            .get(0);
    assertEquals("transferred", moved.issue.state);
    assertEquals("acme/core#9", moved.issue.transferredTo);
  }

  @Test
  void turnsAMergedPullRequestIntoItselfAndAFixLinkPerClosedIssue() throws Exception {
    String payload =
        """
        {"action": "closed", "number": 8, "pull_request": {"number": 8, "title": "Guard empty buckets", "body": "Fixes #3",
         "merged": true, "merged_at": "2024-01-05T00:00:00Z", "created_at": "2024-01-04T00:00:00Z",
         "updated_at": "2024-01-05T00:00:00Z", "additions": 4, "deletions": 1, "changed_files": 1},
         "repository": {"full_name": "acme/trainer"}}
        """;
    List<GitHubEvent> facts = normaliser.normalise(delivery("pull_request", "closed", payload));
    assertEquals(
        List.of(GitHubEvent.Type.PULL_REQUEST, GitHubEvent.Type.FIX_LINK),
        facts.stream().map(f -> f.type).toList());
    assertEquals("acme/trainer#3", facts.get(1).key);
    assertEquals("merged", facts.get(0).pullRequest.state);
  }

  @Test
  void readsReleaseVersionsWithoutTheLeadingV() {
    assertEquals("0.14.2", GitHubNormaliser.versionOf("v0.14.2"));
    assertEquals("0.9.0", GitHubNormaliser.versionOf("deepspeed-v0.9.0"));
    assertEquals("core_r0.8.0", GitHubNormaliser.versionOf("core_r0.8.0"));
    assertEquals("0.10.0", GitHubNormaliser.versionOf("core_v0.10.0"));
  }

  private static Delivery gitDelivery(String payload) {
    return new Delivery(
        "git-change-x",
        "pull_request",
        "closed",
        "acme/trainer",
        Instant.EPOCH,
        DeliverySource.GIT,
        payload);
  }

  @Test
  void readsAChangeFromGitHistoryWithItsSizeKindAndTheReaderClosingReferences() throws Exception {
    String payload =
        """
        {"action": "closed", "number": 45, "pull_request": {"number": 45, "title": "Raise the NCCL timeout",
         "body": "fix #13", "state": "closed", "merged": true, "merged_at": "2025-01-14T09:00:00Z",
         "created_at": "2025-01-13T09:00:00Z", "updated_at": "2025-01-14T09:00:00Z",
         "merge_commit_sha": "0123456789abcdef0123456789abcdef01234567", "user": {"login": "bob", "name": "Bob"},
         "additions": 3, "deletions": 0, "changed_files": 1},
         "repository": {"full_name": "acme/trainer"},
         "_backfill": {"change_kind": "MERGE", "closing_references": ["acme/trainer#13", "other/lib#7"],
          "diff_summary": "--- /dev/null\\n+++ b/src/timeout.py\\n+TIMEOUT = 1800\\n"}}
        """;
    List<GitHubEvent> facts = normaliser.normalise(gitDelivery(payload));
    assertEquals(
        List.of(
            GitHubEvent.Type.PULL_REQUEST, GitHubEvent.Type.FIX_LINK, GitHubEvent.Type.FIX_LINK),
        facts.stream().map(f -> f.type).toList());
    var pr = facts.get(0).pullRequest;
    assertEquals("acme/trainer#45", pr.id);
    assertEquals("MERGE", pr.changeKind);
    assertEquals("git", pr.source);
    assertEquals("bob", pr.author);
    assertTrue(pr.sizeKnown);
    assertEquals(3, pr.additions);
    assertEquals(List.of("acme/trainer#13", "other/lib#7"), pr.fixes);
    assertTrue(pr.diffSummary.contains("+TIMEOUT = 1800"));
  }

  @Test
  void marksAReleaseTagFromGitHistoryAsSuch() throws Exception {
    String payload =
        """
        {"action": "published", "release": {"tag_name": "core_v0.10.0", "published_at": "2025-01-14T09:00:00Z",
         "prerelease": false}, "repository": {"full_name": "acme/trainer"}}
        """;
    var release =
        normaliser
            .normalise(
                new Delivery(
                    "git-release-x",
                    "release",
                    "published",
                    "acme/trainer",
                    Instant.EPOCH,
                    DeliverySource.GIT,
                    payload))
            .get(0)
            .release;
    assertEquals("git", release.source);
    assertEquals("0.10.0", release.version);
    assertEquals(
        "github",
        normaliser.normalise(delivery("release", "published", payload)).get(0).release.source);
  }

  @Test
  void keysADirectCommitFromGitHistoryByItsSha() throws Exception {
    String payload =
        """
        {"action": "closed", "pull_request": {"title": "Bump version", "merged": true, "state": "closed",
         "merged_at": "2025-01-18T09:00:00Z", "created_at": "2025-01-18T09:00:00Z", "updated_at": "2025-01-18T09:00:00Z",
         "merge_commit_sha": "89abcdef0123456789abcdef0123456789abcdef", "additions": 1, "deletions": 0, "changed_files": 1},
         "repository": {"full_name": "acme/trainer"}, "_backfill": {"change_kind": "DIRECT"}}
        """;
    var pr = normaliser.normalise(gitDelivery(payload)).get(0).pullRequest;
    assertEquals("acme/trainer@89abcdef0123456789abcdef0123456789abcdef", pr.id);
    assertEquals(0, pr.number);
    assertEquals(
        "https://github.com/acme/trainer/commit/89abcdef0123456789abcdef0123456789abcdef", pr.url);
  }

  @Test
  void stillRefusesAPullRequestWithoutANumberFromGitHub() {
    String payload =
        """
        {"action": "closed", "pull_request": {"title": "x", "created_at": "2025-01-18T09:00:00Z",
         "merge_commit_sha": "89abcdef0123456789abcdef0123456789abcdef"}, "repository": {"full_name": "acme/trainer"}}
        """;
    assertThrows(
        PoisonRecordException.class,
        () -> normaliser.normalise(delivery("pull_request", "closed", payload)));
  }

  @Test
  void aPullRequestListingWithoutSizesSaysSo() throws Exception {
    String payload =
        """
        {"action": "closed", "number": 8, "pull_request": {"number": 8, "title": "t", "merged": true,
         "created_at": "2024-01-04T00:00:00Z", "updated_at": "2024-01-05T00:00:00Z"},
         "repository": {"full_name": "acme/trainer"}}
        """;
    assertEquals(
        false,
        normaliser
            .normalise(delivery("pull_request", "closed", payload))
            .get(0)
            .pullRequest
            .sizeKnown);
  }

  @Test
  void ignoresEventsThePipelineDoesNotUse() throws Exception {
    assertEquals(List.of(), normaliser.normalise(delivery("push", null, "{\"ref\": \"main\"}")));
    assertEquals(
        List.of(),
        normaliser.normalise(
            delivery("pull_request", "labeled", "{\"repository\": {\"full_name\": \"a/b\"}}")));
  }

  @Test
  void rejectsPayloadsThatCannotBeAnIssueWithTheReason() {
    PoisonRecordException notJson =
        assertThrows(
            PoisonRecordException.class,
            () -> normaliser.normalise(delivery("issues", "opened", "{not json")));
    assertTrue(notJson.getMessage().contains("not JSON"), notJson.getMessage());
    PoisonRecordException badRepo =
        assertThrows(
            PoisonRecordException.class,
            () ->
                normaliser.normalise(
                    delivery("issues", "opened", issue("x".repeat(500), "opened", ""))));
    assertTrue(badRepo.getMessage().contains("not owner/name"), badRepo.getMessage());
    PoisonRecordException noNumber =
        assertThrows(
            PoisonRecordException.class,
            () ->
                normaliser.normalise(
                    delivery(
                        "issues",
                        "opened",
                        issue("acme/trainer", "opened", "")
                            .replace("\"number\": 3", "\"number\": \"3\""))));
    assertTrue(noNumber.getMessage().contains("issue.number"), noNumber.getMessage());
  }
}
