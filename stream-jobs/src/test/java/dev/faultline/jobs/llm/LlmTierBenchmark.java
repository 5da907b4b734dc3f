package dev.faultline.jobs.llm;

import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.llm.Budget;
import dev.faultline.classifier.llm.ChatClient;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.jobs.LlmFixtures;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Cost and throughput of the stream tier per 1,000 issues against the stub (tokens as the tier
 * counts them from the replies' {@code usage}: the stub counts characters / 4, close to what BPE
 * tokenizers give English text), then the same issues again (every answer cached). Printed, not
 * asserted; not part of {@code mvn verify}. Run:
 *
 * <pre>
 * mvn -B -o -q -pl stream-jobs test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test.cp
 * java -cp stream-jobs/target/test-classes:stream-jobs/target/classes:$(cat stream-jobs/target/test.cp) \
 *   dev.faultline.jobs.llm.LlmTierBenchmark [issues] [stub delay ms] [concurrency]
 * </pre>
 */
public final class LlmTierBenchmark {

  private LlmTierBenchmark() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long delay = args.length > 1 ? Long.parseLong(args[1]) : 0;
    int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    Taxonomy taxonomy = Taxonomy.load();
    try (StubChatServer stub =
        new StubChatServer().otherwise(StubChatServer.Reply.slow(LlmFixtures.ANSWER, delay))) {
      LlmConfig config =
          LlmConfig.from(
              LlmFixtures.settings(
                  stub, "FAULTLINE_LLM_CONCURRENCY", Integer.toString(concurrency)));
      LlmStats stats = new LlmStats();
      ChatClient client =
          new ChatClient(
              config,
              ChatClient.httpClient(config),
              new Budget(Long.MAX_VALUE, Long.MAX_VALUE, Clock.systemUTC()),
              stats);
      LlmUpgraderTest.MemoryStore store = new LlmUpgraderTest.MemoryStore();
      LlmUpgrader upgrader =
          new LlmUpgrader(config, taxonomy, new Prompt(taxonomy, 0), store, client, null);
      List<IssueText> items = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        items.add(
            new IssueText(
                "acme/bench",
                i,
                "Synthetic issue " + i + ": the loss diverges after step " + (i * 37 % 5000),
                ("Generated text for the benchmark, issue "
                        + i
                        + ". The run uses "
                        + (2 + i % 14)
                        + " nodes; the error "
                        + "appears after a restart from the latest checkpoint. ")
                    .repeat(1 + i % 6),
                List.of(),
                List.of(),
                List.of(),
                "open"));
      }
      ClassifiedIssueEvent offline = LlmUpgraderTest.offline(List.of());
      ExecutorService pool = Executors.newFixedThreadPool(concurrency);
      try {
        for (int pass = 1; pass <= 2; pass++) {
          long requests0 = stats.requests();
          long in0 = stats.promptTokens();
          long out0 = stats.completionTokens();
          long started = System.nanoTime();
          List<CompletableFuture<?>> all = new ArrayList<>();
          int[] cached = {0};
          for (IssueText t : items) {
            var hit = upgrader.fromStore(offline, t);
            if (hit.isPresent()) {
              cached[0]++;
              continue;
            }
            all.add(CompletableFuture.runAsync(() -> upgrader.ask(offline, t), pool));
          }
          CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
          double seconds = (System.nanoTime() - started) / 1e9;
          double per1k = 1000.0 / n;
          long in = stats.promptTokens() - in0;
          long out = stats.completionTokens() - out0;
          System.out.printf(
              Locale.ROOT,
              "pass %d: %d issues, %d cached, %d requests; per 1,000 issues: %.0f prompt + %.0f completion tokens;"
                  + " %.1f issues/s (stub delay %d ms, concurrency %d)%n",
              pass,
              n,
              cached[0],
              stats.requests() - requests0,
              in * per1k,
              out * per1k,
              n / seconds,
              delay,
              concurrency);
          System.out.printf(
              Locale.ROOT,
              "  cost per 1,000 issues at USD 0.15 / 1M prompt and 0.60 / 1M completion tokens: USD %.3f;"
                  + " at 2.50 / 10.00: USD %.2f%n",
              (in * 0.15 + out * 0.60) / 1e6 * per1k,
              (in * 2.50 + out * 10.00) / 1e6 * per1k);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
