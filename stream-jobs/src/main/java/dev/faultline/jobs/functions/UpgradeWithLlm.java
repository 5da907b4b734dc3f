package dev.faultline.jobs.functions;

import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.llm.Budget;
import dev.faultline.classifier.llm.ChatClient;
import dev.faultline.classifier.llm.ExampleSet;
import dev.faultline.classifier.llm.LlmConfig;
import dev.faultline.classifier.llm.LlmStats;
import dev.faultline.classifier.llm.Prompt;
import dev.faultline.jobs.classify.IssueClassification;
import dev.faultline.jobs.llm.AnswerStore;
import dev.faultline.jobs.llm.LlmRequest;
import dev.faultline.jobs.llm.LlmSettings;
import dev.faultline.jobs.llm.LlmUpgrader;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink async I/O adapter of {@link LlmUpgrader}: emits an issue's classification upgraded with the
 * language model's answer, or nothing (the offline classification, already emitted, stays). A
 * stored answer is used at once, in the caller's thread; otherwise the request runs on this
 * subtask's pool of {@link LlmConfig#concurrency()} threads. At most {@link
 * LlmSettings#maxWaiting()} items wait for the endpoint; an item that finds them all taken keeps
 * its offline label at once ("shed"), so the async operator never fills its capacity and never
 * backs the pipeline up, however slow or dead the endpoint. Timeouts, failures and invalid answers
 * are counted and logged, never thrown.
 *
 * <p>Metrics (group {@code llm}): counters {@code cacheHits}, {@code upgrades}, {@code failures}
 * (no reply), {@code invalidAnswers}, {@code timeouts}, {@code shed}, {@code olderItemAnswers}
 * (items whose issue's batch answer was made for an older state, so the endpoint is asked); gauges
 * {@code requests} (HTTP attempts, retries included), {@code retries}, {@code promptTokens}, {@code
 * completionTokens} (as the endpoint counts them), {@code waiting}, {@code cachedAnswers};
 * histogram {@code latencyMs} of items sent to the endpoint.
 */
public final class UpgradeWithLlm extends RichAsyncFunction<LlmRequest, ClassifiedIssueEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(UpgradeWithLlm.class);

  private final LlmSettings settings;
  private final AnswerStore.Factory stores;

  private transient AnswerStore store;
  private transient LlmUpgrader upgrader;
  private transient ExecutorService pool;
  private transient Semaphore waiting;
  private transient LlmStats stats;
  private transient Counter cacheHits;
  private transient Counter upgrades;
  private transient Counter failures;
  private transient Counter invalidAnswers;
  private transient Counter timeouts;
  private transient Counter shed;
  private transient Counter olderItemAnswers;
  private transient Histogram latency;

  public UpgradeWithLlm(LlmSettings settings, AnswerStore.Factory stores) {
    if (!settings.enabled()) {
      throw new IllegalArgumentException(
          "the language-model tier is off: set " + LlmConfig.PREFIX + "ENDPOINT");
    }
    this.settings = settings;
    this.stores = stores;
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    LlmConfig config = settings.config();
    int subtasks = Math.max(1, getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
    // The daily budget is the job's: each subtask spends its share.
    Budget budget =
        new Budget(
            share(config.maxRequestsPerDay(), subtasks),
            share(config.maxTokensPerDay(), subtasks),
            Clock.systemUTC());
    stats = new LlmStats();
    ChatClient client = new ChatClient(config, ChatClient.httpClient(config), budget, stats);
    Taxonomy taxonomy = Taxonomy.load();
    Prompt prompt = new Prompt(taxonomy, config.examples() == null ? 0 : config.k());
    Supplier<ExampleSet> examples = prompt.k() > 0 ? examples(config) : null;
    store = stores.open();
    upgrader = new LlmUpgrader(config, taxonomy, prompt, store, client, examples);
    AtomicInteger n = new AtomicInteger();
    pool =
        Executors.newFixedThreadPool(
            config.concurrency(),
            r -> {
              Thread t = new Thread(r, "llm-upgrade-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    waiting = new Semaphore(settings.maxWaiting());
    MetricGroup g = getRuntimeContext().getMetricGroup().addGroup("llm");
    cacheHits = g.counter("cacheHits");
    upgrades = g.counter("upgrades");
    failures = g.counter("failures");
    invalidAnswers = g.counter("invalidAnswers");
    timeouts = g.counter("timeouts");
    shed = g.counter("shed");
    olderItemAnswers = g.counter("olderItemAnswers");
    latency = g.histogram("latencyMs", new DescriptiveStatisticsHistogram(1_000));
    LlmStats s = stats;
    g.gauge("requests", (Gauge<Long>) s::requests);
    g.gauge("retries", (Gauge<Long>) s::retries);
    g.gauge("promptTokens", (Gauge<Long>) s::promptTokens);
    g.gauge("completionTokens", (Gauge<Long>) s::completionTokens);
    g.gauge("waiting", (Gauge<Integer>) () -> settings.maxWaiting() - waiting.availablePermits());
    AnswerStore st = store;
    g.gauge("cachedAnswers", (Gauge<Long>) st::size);
    LOG.info(
        "language-model tier on: {}, prompt {}, {} answers known",
        config,
        upgrader.promptVersion(),
        store.size());
  }

  private static long share(long perDay, int subtasks) {
    return perDay == 0 ? 0 : Math.max(1, perDay / subtasks);
  }

  private static Supplier<ExampleSet> examples(LlmConfig config) {
    ExampleSet set;
    try {
      set = ExampleSet.load(config.examples(), MiniLmEmbedder.shared());
    } catch (TrainingData.BadInput e) {
      throw new IllegalArgumentException(
          "example set " + config.examples() + ": " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the example set " + config.examples(), e);
    }
    return () -> set;
  }

  @Override
  public void asyncInvoke(LlmRequest request, ResultFuture<ClassifiedIssueEvent> result) {
    ClassifiedIssueEvent offline = request.offline;
    IssueText text = IssueClassification.textOf(request.issue);
    LlmUpgrader.Lookup stored = upgrader.lookup(offline, text);
    if (stored.stored().isPresent()) {
      cacheHits.inc();
      upgrades.inc();
      result.complete(List.of(stored.stored().get().event()));
      return;
    }
    // An issue changed since its batch answer was made: asked like any other, the reason goes in
    // the evidence of the new answer.
    String why = stored.passedOver();
    if (why != null) {
      olderItemAnswers.inc();
    }
    if (!waiting.tryAcquire()) {
      shed.inc();
      LOG.debug(
          "{} keeps its offline labels: {} items already wait for the endpoint",
          offline.issue.id,
          settings.maxWaiting());
      result.complete(List.of());
      return;
    }
    long started = System.nanoTime();
    try {
      CompletableFuture.supplyAsync(() -> upgrader.ask(offline, text, why), pool)
          .whenComplete(
              (outcome, error) -> {
                waiting.release();
                latency.update((System.nanoTime() - started) / 1_000_000);
                if (error != null) {
                  failures.inc();
                  LOG.warn("{} keeps its offline labels: {}", offline.issue.id, error.toString());
                  result.complete(List.of());
                } else if (outcome instanceof LlmUpgrader.Upgraded u) {
                  upgrades.inc();
                  result.complete(List.of(u.event()));
                } else {
                  LlmUpgrader.NotUpgraded no = (LlmUpgrader.NotUpgraded) outcome;
                  ("invalid".equals(no.cause()) ? invalidAnswers : failures).inc();
                  LOG.warn(
                      "{} keeps its offline labels: {}; {}",
                      offline.issue.id,
                      no.reason(),
                      why == null ? "no batch answer for the item" : why);
                  result.complete(List.of());
                }
              });
    } catch (RejectedExecutionException e) {
      waiting.release(); // closing: the item keeps its offline labels
      result.complete(List.of());
    }
  }

  @Override
  public void timeout(LlmRequest request, ResultFuture<ClassifiedIssueEvent> result) {
    timeouts.inc();
    LOG.warn(
        "{} keeps its offline labels: no answer within {} ms",
        request.offline.issue.id,
        settings.asyncTimeout().toMillis());
    result.complete(List.of());
  }

  @Override
  public void close() throws Exception {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (store != null) {
      store.close();
    }
  }
}
