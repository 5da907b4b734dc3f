package dev.faultline.infra.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.testing.Poll;
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
 * A bounded soak of {@code faultline local} (a child process on loopback): signed deliveries at a
 * fixed rate for a fixed time, then a check that every delivery answered 2xx is in the graph once,
 * the answer-time percentiles, and the stack's memory sampled through the run: resident set every
 * 30 s, and every 2 minutes the live heap (heap used right after a full collection the soak asks
 * for with {@code jcmd}; each costs one short pause in the answer times). A JVM's resident set
 * grows until its heap is sized, so the live heap is what shows a leak: flat means none. Printed as
 * a report, never asserted.
 *
 * <p>{@code ./faultline bench --only soak} (200/s for 600 s; {@code --quick}: 100/s for 60 s), or
 * {@code java -cp <infra test classpath> dev.faultline.infra.bench.SoakBenchmark [rate=200]
 * [seconds=600] [issues=0]}; with {@code -Dfaultline.bench.out=FILE} the figures are also written
 * to FILE as JSON.
 *
 * <p>With {@code issues=0} every delivery opens a new issue, so the pipeline's keyed state (each
 * tracked issue's accumulated thread, kept for re-classification) grows with the run by design.
 * With {@code issues=N} the deliveries cycle over N issues, opening them and then editing them with
 * ever newer {@code updated_at}: the state is bounded, so a live heap that still grows would be a
 * leak. Then "nothing lost" means every issue shows the newest edit that was answered 2xx.
 */
public final class SoakBenchmark {
  public static void main(String[] args) throws Exception {
    int rate = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    int issues = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    Path dir = Files.createTempDirectory("faultline-soak");
    ObjectMapper json = new ObjectMapper();
    SyntheticIssues text = new SyntheticIssues(3);
    Map<String, Double> results = new java.util.TreeMap<>();
    String repo = "soak/run-" + UUID.randomUUID().toString().substring(0, 8);
    try (LocalProcess stack = new LocalProcess(dir.resolve("data"), dir.resolve("logs"))) {
      Process p = stack.launch("local.log");
      StackClient client = stack.client();
      Poll.until(Duration.ofSeconds(180), "local stack healthy", () -> healthy(client));
      System.out.printf(
          "soak: %d deliveries/s for %d s against faultline local (pid %d), %s%n",
          rate,
          seconds,
          p.pid(),
          issues == 0
              ? "each delivery a new issue"
              : "cycling over " + issues + " issues (opened, then edited)");
      java.util.concurrent.atomic.AtomicIntegerArray newestAccepted =
          new java.util.concurrent.atomic.AtomicIntegerArray(Math.max(1, issues) + 1);
      ConcurrentLinkedQueue<Long> answerMs = new ConcurrentLinkedQueue<>();
      AtomicInteger accepted = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      List<long[]> rss = new ArrayList<>();
      List<long[]> live = new ArrayList<>();
      long nextLive = System.nanoTime() + Duration.ofSeconds(60).toNanos();
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
          System.out.printf(
              "  t=%4ds sent=%,d accepted=%,d rss=%,d MiB%n",
              rss.get(rss.size() - 1)[0], n, accepted.get(), r[0]);
          nextSample += Duration.ofSeconds(30).toNanos();
        }
        if (System.nanoTime() >= nextLive) {
          long mib = liveHeapMiB(p.pid());
          live.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, mib});
          System.out.printf(
              "  t=%4ds live heap after full GC %,d MiB%n", live.get(live.size() - 1)[0], mib);
          nextLive += Duration.ofSeconds(120).toNanos();
        }
        int number = issues == 0 ? n : (n - 1) % issues + 1;
        int sequence = n;
        ObjectNode payload = json.createObjectNode();
        payload.put("action", issues == 0 || n <= issues ? "opened" : "edited");
        ObjectNode issue = payload.putObject("issue");
        issue.put("number", number);
        issue.put("title", title(sequence, text.title()));
        issue.put("body", text.body(1_000));
        issue.put("state", "open");
        issue.put("created_at", "2024-05-01T00:00:00Z");
        issue.put(
            "updated_at",
            java.time.Instant.parse("2024-05-01T00:00:00Z").plusSeconds(n).toString());
        payload.putObject("repository").put("full_name", repo);
        byte[] body = json.writeValueAsBytes(payload);
        senders.submit(
            () -> {
              long t = System.nanoTime();
              int status =
                  client.deliver("issues", UUID.randomUUID().toString(), body).statusCode();
              answerMs.add((System.nanoTime() - t) / 1_000_000);
              (status / 100 == 2 ? accepted : refused).incrementAndGet();
              if (issues > 0 && status / 100 == 2) {
                newestAccepted.accumulateAndGet(number, sequence, Math::max);
              }
              return status;
            });
      }
      senders.shutdown();
      senders.awaitTermination(5, TimeUnit.MINUTES);
      double sendSeconds = (System.nanoTime() - start) / 1e9;
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      long inGraph = 0;
      long expected;
      if (issues == 0) {
        expected = accepted.get();
        while (System.nanoTime() < deadline && (inGraph = count(client, repo)) < expected) {
          Thread.sleep(1_000);
        }
      } else {
        // Every issue in the state of the newest edit answered 2xx: its title carries that edit's
        // sequence number.
        List<Map<String, Object>> newest = new ArrayList<>();
        for (int k = 1; k <= issues; k++) {
          if (newestAccepted.get(k) > 0) {
            newest.add(Map.of("id", repo + "#" + k, "prefix", title(newestAccepted.get(k), "")));
          }
        }
        expected = newest.size();
        while (System.nanoTime() < deadline && (inGraph = newestState(client, newest)) < expected) {
          Thread.sleep(1_000);
        }
      }
      List<Long> sorted = new ArrayList<>(answerMs);
      Collections.sort(sorted);
      long[] end = LocalProcess.rssMiB(p);
      live.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, liveHeapMiB(p.pid())});
      System.out.println();
      System.out.println("soak report");
      System.out.printf(
          "  sent %,d in %.0f s (%.0f/s offered %d/s); accepted %,d, refused %,d%n",
          total, sendSeconds, total / sendSeconds, rate, accepted.get(), refused.get());
      System.out.printf(
          "  in the graph: %,d of %,d %s (%s)%n",
          inGraph,
          expected,
          issues == 0 ? "accepted deliveries' issues" : "issues in their newest accepted state",
          inGraph == expected ? "nothing lost" : "MISSING " + (expected - inGraph));
      System.out.printf(
          "  answer time p50 %d ms, p99 %d ms, max %d ms%n",
          pct(sorted, 50), pct(sorted, 99), sorted.isEmpty() ? -1 : sorted.get(sorted.size() - 1));
      System.out.printf(
          "  resident memory: first sample %,d MiB, last sample %,d MiB, peak %,d MiB%n",
          rss.get(0)[1], rss.get(rss.size() - 1)[1], end[1]);
      StringBuilder liveLine = new StringBuilder();
      live.forEach(l -> liveLine.append(String.format(" %ds:%,d", l[0], l[1])));
      System.out.printf("  live heap after full GC (MiB):%s%n", liveLine);
      if (live.size() >= 2) {
        long[] first = live.get(0);
        long[] last = live.get(live.size() - 1);
        double perMinute = (last[1] - first[1]) / Math.max(1.0, (last[0] - first[0]) / 60.0);
        System.out.printf(
            "  live heap from %ds to %ds: %+,d MiB (%+.1f MiB/min)%n",
            first[0], last[0], last[1] - first[1], perMinute);
        results.put("soak_live_heap_first_mib", (double) first[1]);
        results.put("soak_live_heap_last_mib", (double) last[1]);
        results.put("soak_live_heap_mib_per_min", perMinute);
      }
      results.put("soak_rate_per_s", (double) rate);
      results.put("soak_seconds", (double) seconds);
      results.put("soak_sent", (double) total);
      results.put("soak_accepted", (double) accepted.get());
      results.put("soak_refused", (double) refused.get());
      results.put("soak_in_graph", (double) inGraph);
      results.put("soak_lost", (double) (expected - inGraph));
      results.put("soak_issues", (double) (issues == 0 ? accepted.get() : issues));
      results.put("soak_answer_p50_ms", (double) pct(sorted, 50));
      results.put("soak_answer_p99_ms", (double) pct(sorted, 99));
      results.put(
          "soak_answer_max_ms", sorted.isEmpty() ? -1.0 : (double) sorted.get(sorted.size() - 1));
      results.put("soak_rss_first_mib", (double) rss.get(0)[1]);
      results.put("soak_rss_last_mib", (double) rss.get(rss.size() - 1)[1]);
      results.put("soak_rss_peak_mib", (double) end[1]);
      String out = System.getProperty("faultline.bench.out");
      if (out != null) {
        Files.writeString(
            Path.of(out), json.writerWithDefaultPrettyPrinter().writeValueAsString(results));
      }
    }
    System.exit(0);
  }

  /**
   * Heap used right after a full collection of the process {@code pid}, in MiB (-1 when jcmd cannot
   * tell).
   */
  static long liveHeapMiB(long pid) {
    try {
      Path jcmd =
          Path.of(ProcessHandle.current().info().command().orElse("java")).resolveSibling("jcmd");
      run(jcmd.toString(), Long.toString(pid), "GC.run");
      String info = run(jcmd.toString(), Long.toString(pid), "GC.heap_info");
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(info);
      return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
    } catch (Exception e) {
      return -1;
    }
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return out;
  }

  /**
   * A title that carries the delivery's sequence number, so the stored state tells which edit it
   * is.
   */
  private static String title(int sequence, String text) {
    return "[soak " + sequence + "] " + text;
  }

  private static long newestState(StackClient client, List<Map<String, Object>> newest) {
    try {
      return client.count(
          "UNWIND $newest AS e MATCH (i:Issue {id: e.id}) WHERE i.title STARTS WITH e.prefix RETURN count(i)",
          Map.of("newest", newest));
    } catch (Exception e) {
      return -1;
    }
  }

  private static long pct(List<Long> sorted, int p) {
    return sorted.isEmpty()
        ? -1
        : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
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
