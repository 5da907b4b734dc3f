package dev.faultline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class DeliveryKeyTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static final String REPO = "\"repository\":{\"full_name\":\"acme/trainer\"}";

  @Test
  void issueEventsAreKeyedByTheirIssue() throws Exception {
    JsonNode issue = json("{\"action\":\"opened\",\"issue\":{\"number\":7}," + REPO + "}");
    assertEquals("acme/trainer#7", DeliveryKey.of("issues", issue));
    assertEquals("acme/trainer#7", DeliveryKey.of("issue_comment", issue));
  }

  @Test
  void pullRequestEventsAreKeyedByTheirPullRequest() throws Exception {
    JsonNode nested = json("{\"pull_request\":{\"number\":12},\"number\":99," + REPO + "}");
    JsonNode topLevel = json("{\"number\":13," + REPO + "}");
    assertEquals("acme/trainer#12", DeliveryKey.of("pull_request", nested));
    assertEquals("acme/trainer#13", DeliveryKey.of("pull_request", topLevel));
  }

  @Test
  void releasesAreRepositoryWideEvenWithANumberInThePayload() throws Exception {
    JsonNode release = json("{\"number\":5,\"issue\":{\"number\":6}," + REPO + "}");
    assertEquals("acme/trainer", DeliveryKey.of("release", release));
  }

  @Test
  void unusedReviewsStayWithTheirPullRequestOtherUnusedEventsAreRepositoryWide() throws Exception {
    JsonNode review =
        json("{\"pull_request\":{\"number\":21},\"issue\":{\"number\":3}," + REPO + "}");
    assertEquals("acme/trainer#21", DeliveryKey.of("pull_request_review", review));
    assertEquals("acme/trainer#21", DeliveryKey.of("pull_request_review_comment", review));
    assertEquals("acme/trainer", DeliveryKey.of("label", review));
    assertEquals("acme/trainer", DeliveryKey.of("pull_request_review_thread", review));
  }

  @Test
  void withoutARepositoryTheEventAloneIsTheKey() throws Exception {
    assertEquals("ping", DeliveryKey.of("ping", json("{\"zen\":\"x\",\"hook_id\":1}")));
  }

  @Test
  void aNumberThatIsNotAnIntegerIsNoNumber() throws Exception {
    assertEquals(
        "acme/trainer",
        DeliveryKey.of("issues", json("{\"issue\":{\"number\":\"7\"}," + REPO + "}")));
    assertEquals(
        "acme/trainer",
        DeliveryKey.of("issues", json("{\"issue\":{\"number\":7.5}," + REPO + "}")));
  }
}
