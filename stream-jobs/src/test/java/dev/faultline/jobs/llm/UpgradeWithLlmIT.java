package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.jobs.LlmFixtures;
import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.functions.UpgradeWithLlm;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Phase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The async upgrade alone on a Flink MiniCluster against the real-HTTP stub: answers, timeouts, bad
 * replies.
 */
class UpgradeWithLlmIT {

  static LlmRequest request(int n, String title) {
    IssueAccumulator acc = new IssueAccumulator();
    IssueEvent i = new IssueEvent();
    i.id = "acme/async#" + n;
    i.repo = "acme/async";
    i.number = n;
    i.title = title;
    i.body = "Written for this test: step " + n + " of the schedule misbehaves.";
    i.state = "open";
    i.updatedAt = 1_000L + n;
    acc.issue = i;
    acc.stateVersion = i.updatedAt;
    return new LlmRequest(
        OfflineEvents.event(
            i.id,
            title,
            i.body,
            i.updatedAt,
            dev.faultline.classifier.Provenance.learned("learned-2"),
            Phase.TRAINING,
            List.of()),
        acc);
  }

  private static List<ClassifiedIssueEvent> run(
      StubChatServer stub, Path cache, List<LlmRequest> in) throws Exception {
    LlmSettings settings =
        LlmSettings.of(
            LlmFixtures.settings(
                stub,
                "FAULTLINE_LLM_MAX_RETRIES",
                "0",
                "FAULTLINE_LLM_TIMEOUT_MS",
                "30000",
                "FAULTLINE_LLM_CONCURRENCY",
                "2",
                "FAULTLINE_LLM_ASYNC_TIMEOUT_MS",
                "1500",
                "FAULTLINE_LLM_ASYNC_CAPACITY",
                "20"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
    DataStream<ClassifiedIssueEvent> out =
        AsyncDataStream.unorderedWait(
            env.fromData(in).returns(LlmRequest.class),
            new UpgradeWithLlm(settings, DirectoryAnswerStore.at(cache.toString())),
            settings.asyncTimeout().toMillis(),
            TimeUnit.MILLISECONDS,
            settings.capacity());
    List<ClassifiedIssueEvent> result = new ArrayList<>();
    try (CloseableIterator<ClassifiedIssueEvent> it = out.executeAndCollect()) {
      it.forEachRemaining(result::add);
    }
    return result;
  }

  @Test
  void upgradesWhatTheEndpointAnswersAndLetsTimeoutsAndBadRepliesPass(@TempDir Path cache)
      throws Exception {
    try (StubChatServer stub = new StubChatServer()) {
      // two workers take the requests in order: ok, slow (past the async timeout), invalid, broken,
      // ok
      stub.then(
          StubChatServer.Reply.answer(LlmFixtures.ANSWER),
          StubChatServer.Reply.slow(LlmFixtures.ANSWER, 5_000),
          StubChatServer.Reply.answer("I think it is a hang."),
          StubChatServer.Reply.brokenBody());
      stub.otherwise(StubChatServer.Reply.answer(LlmFixtures.ANSWER));
      List<LlmRequest> in = new ArrayList<>();
      for (int n = 1; n <= 5; n++) {
        in.add(request(n, "Scheduler step " + n + " skips the warmup"));
      }
      List<ClassifiedIssueEvent> out = run(stub, cache, in);
      assertEquals(5, stub.requests().size());
      // the slow, the invalid and the broken reply upgrade nothing; the job ends normally
      assertEquals(2, out.size(), "upgrades: " + out.stream().map(e -> e.issue.id).toList());
      out.forEach(
          e -> assertEquals("llm:" + LlmFixtures.MODEL, OfflineEvents.row(e).labelSource()));

      // The same items again: answered ones come from the cache, the others are asked again.
      int before = stub.requests().size();
      List<ClassifiedIssueEvent> again = run(stub, cache, in);
      assertTrue(again.size() >= 2, "cached upgrades: " + again.size());
      assertEquals(
          before + 3, stub.requests().size(), "only the items without a stored answer are asked");
      assertTrue(
          again.stream()
                  .filter(
                      e ->
                          OfflineEvents.row(e)
                              .evidence()
                              .get(Dimension.SYMPTOM)
                              .endsWith("(cached answer)"))
                  .count()
              >= 2);
    }
  }
}
