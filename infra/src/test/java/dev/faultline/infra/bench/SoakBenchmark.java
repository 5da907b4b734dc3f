package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.infra.local.LocalProcess;
import dev.faultline.infra.local.StackClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded soak of {@code faultline local} (a child process on loopback): signed deliveries at a fixed rate for a
 * fixed time, then a check that every delivery answered 2xx is in the graph once, the answer-time percentiles, and
 * the stack's resident memory sampled through the run (flat means no leak). Printed as a report, never asserted.
 *
 * <p>{@code java -cp <infra test classpath> dev.faultline.infra.bench.SoakBenchmark [rate=200] [seconds=600]}
 */
public final class SoakBenchmark {
  public static void main(String[] args) throws Exception {
    int rate = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    Path dir = Files.createTempDirectory("faultline-soak");
    ObjectMapper json = new ObjectMapper();
    SyntheticIssues text = new SyntheticIssues(3);
    String repo = "soak/run-" + UUID.randomUUID().toString().substring(0, 8);
    try (LocalProcess stack = new LocalProcess(dir.resolve("data"), dir.resolve("logs"))) {
      Process p = stack.launch("local.log");
      StackClient client = stack.client();
      StackClient.await(() -> healthy(client), Duration.ofSeconds(180), "local stack healthy");
      System.out.printf("soak: %d deliveries/s for %d s against faultline local (pid %d)%n", rate, seconds, p.pid());
      ConcurrentLinkedQueue<Long> answerMs = new ConcurrentLinkedQueue<>();
      AtomicInteger accepted = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      List<long[]> rss = new ArrayList<>();
      ExecutorService senders = Executors.newFixedThreadPool(32);
      int total = rate * seconds;
      long start = System.nanoTime();
      long interval = 1_000_000_000L / rate;
      long nextSample = start;
      for (int n = 1; n <= total; n++) {
        long wait = start + n * interval - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        if (System.nanoTime() >= nextSample) {
          long[] r = LocalProcess.rssMiB(p);
          rss.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, r[0]});
          System.out.printf("  t=%4ds sent=%,d accepted=%,d rss=%,d MiB%n", rss.get(rss.size() - 1)[0], n, accepted.get(), r[0]);
          nextSample += Duration.ofSeconds(30).toNanos();
        }
        ObjectNode payload = json.createObjectNode();
        payload.put("action", "opened");
        ObjectNode issue = payload.putObject("issue");
        issue.put("number", n);
        issue.put("title", text.title());
        issue.put("body", text.body(1_000));
        issue.put("state", "open");
        issue.put("created_at", "2024-05-01T00:00:00Z");
        issue.put("updated_at", "2024-05-01T00:00:00Z");
        payload.putObject("repository").put("full_name", repo);
        byte[] body = json.writeValueAsBytes(payload);
        senders.submit(
            () -> {
              long t = System.nanoTime();
              int status = client.deliver("issues", UUID.randomUUID().toString(), body).statusCode();
              answerMs.add((System.nanoTime() - t) / 1_000_000);
              (status / 100 == 2 ? accepted : refused).incrementAndGet();
              return status;
            });
      }
      senders.shutdown();
      senders.awaitTermination(5, TimeUnit.MINUTES);
      double sendSeconds = (System.nanoTime() - start) / 1e9;
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      long inGraph = 0;
      while (System.nanoTime() < deadline && (inGraph = count(client, repo)) < accepted.get()) {
        Thread.sleep(1_000);
      }
      List<Long> sorted = new ArrayList<>(answerMs);
      Collections.sort(sorted);
      long[] end = LocalProcess.rssMiB(p);
      System.out.println();
      System.out.println("soak report");
      System.out.printf("  sent %,d in %.0f s (%.0f/s offered %d/s); accepted %,d, refused %,d%n", total, sendSeconds, total / sendSeconds, rate, accepted.get(), refused.get());
      System.out.printf("  in the graph: %,d of %,d accepted (%s)%n", inGraph, accepted.get(), inGraph == accepted.get() ? "nothing lost" : "MISSING " + (accepted.get() - inGraph));
      System.out.printf("  answer time p50 %d ms, p99 %d ms, max %d ms%n", pct(sorted, 50), pct(sorted, 99), sorted.isEmpty() ? -1 : sorted.get(sorted.size() - 1));
      System.out.printf("  resident memory: first sample %,d MiB, last sample %,d MiB, peak %,d MiB%n", rss.get(0)[1], rss.get(rss.size() - 1)[1], end[1]);
    }
    System.exit(0);
  }

  private static long pct(List<Long> sorted, int p) {
    return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }

  private static boolean healthy(StackClient client) {
    try {
      return client.health().statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private static long count(StackClient client, String repo) {
    try {
      return client.count("MATCH (i:Issue {repo: $repo}) RETURN count(i)", Map.of("repo", repo));
    } catch (Exception e) {
      return -1;
    }
  }
}
