package dev.faultline.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {
  @TempDir Path raw;
  @TempDir Path out;

  private void fixtures() throws Exception {
    // Three repeats of the receiver: ratios 0.5, 0.25, 0.4 (median 0.4); values 100, 50, 80;
    // baselines 200, 200, 200.
    Files.writeString(
        raw.resolve("receiver-1.json"),
        "{\"receiver_req_per_s\": 100, \"bare_producer_req_per_s\": 200, \"receiver_p50_ms\": 4.0, \"bare_producer_p50_ms\": 1.0}");
    Files.writeString(
        raw.resolve("receiver-2.json"),
        "{\"receiver_req_per_s\": 50, \"bare_producer_req_per_s\": 200, \"receiver_p50_ms\": 6.0, \"bare_producer_p50_ms\": 2.0}");
    Files.writeString(
        raw.resolve("receiver-3.json"),
        "{\"receiver_req_per_s\": 80, \"bare_producer_req_per_s\": 200, \"receiver_p50_ms\": 3.0, \"bare_producer_p50_ms\": 3.0}");
    // One repeat of the statistics job, one of the pipeline with a latency nobody saw (-1 marks
    // "not measured").
    Files.writeString(
        raw.resolve("stats-1.json"),
        "{\"stats_events_per_s\": 30000, \"passthrough_events_per_s\": 120000}");
    Files.writeString(
        raw.resolve("pipeline-1.json"),
        "{\"latency_p50_ms_at_10\": 250, \"latency_p50_ms_at_500\": -1, \"local_idle_rss_mib\": 900, \"local_peak_rss_mib\": 1350}");
    Files.writeString(
        raw.resolve("query-1.json"), "{\"query_p50_ms_top_symptoms\": 12.5, \"issues\": 2000}");
    Files.writeString(raw.resolve("notes.txt"), "not a raw result");
    Files.writeString(
        raw.resolve("machine.json"),
        "{\"date\": \"2026-11-22T01:30:00Z\", \"commit\": \"abc1234\", \"cores\": 2, \"mode\": \"default\", \"repeats\": 3,"
            + " \"loadStart\": \"2.10 3.00 4.00\", \"loadEnd\": \"2.50 3.10 4.00\", \"failures\": [\"classifier\"]}");
  }

  private static BenchReport.Row row(
      BenchReport.Report report, String section, String key, String baselineKey) {
    return report.rows().stream()
        .filter(
            r ->
                r.spec().section().equals(section)
                    && r.spec().key().equals(key)
                    && java.util.Objects.equals(r.spec().baselineKey(), baselineKey))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + section + "/" + key));
  }

  @Test
  void computesMedianSpreadAndPerRepeatRatio() throws Exception {
    fixtures();
    BenchReport report = new BenchReport(FigureSpec.ALL);
    BenchReport.Report r =
        report.aggregate(BenchReport.readMachine(raw), BenchReport.readRuns(raw));

    BenchReport.Row receiver = row(r, "receiver", "receiver_req_per_s", "bare_producer_req_per_s");
    assertEquals(new Spread(50, 80, 100, 3), receiver.value());
    assertEquals(new Spread(200, 200, 200, 3), receiver.baseline().orElseThrow());
    Spread ratio = receiver.ratio().orElseThrow();
    assertEquals(0.25, ratio.min(), 1e-9);
    assertEquals(0.40, ratio.median(), 1e-9);
    assertEquals(0.50, ratio.max(), 1e-9);

    // Per-repeat ratios 4/1, 6/2, 3/3: median 3.0, not the ratio of the medians (4.0 / 2.0).
    Spread latencyRatio =
        row(r, "receiver", "receiver_p50_ms", "bare_producer_p50_ms").ratio().orElseThrow();
    assertEquals(new Spread(1.0, 3.0, 4.0, 3), latencyRatio);

    assertEquals(
        0.25,
        row(r, "stats", "stats_events_per_s", "passthrough_events_per_s")
            .ratio()
            .orElseThrow()
            .median(),
        1e-9);
    assertEquals(
        1.5,
        row(r, "memory", "local_peak_rss_mib", "local_idle_rss_mib").ratio().orElseThrow().median(),
        1e-9);
    // A figure measured only as "not measured" (-1) has no row; its baseline's own figure still
    // does.
    assertTrue(r.rows().stream().noneMatch(x -> x.spec().key().equals("latency_p50_ms_at_500")));
    assertEquals(250, row(r, "latency", "latency_p50_ms_at_10", null).value().median());
    // Keys outside the catalogue are kept.
    assertEquals(
        List.of(
            new BenchReport.Extra("query", "issues", new Spread(2000, 2000, 2000, 1)),
            new BenchReport.Extra(
                "query", "query_p50_ms_top_symptoms", new Spread(12.5, 12.5, 12.5, 1))),
        r.extras());
  }

  @Test
  void writesReportAndDecodablePngCharts() throws Exception {
    fixtures();
    List<Path> written = new BenchReport(FigureSpec.ALL).write(raw, out);

    Path md = out.resolve("report.md");
    assertEquals(md, written.get(0));
    String text = Files.readString(md);
    assertTrue(text.contains("| cores | 2 |"), text);
    assertTrue(text.contains("| load average at start (1/5/15 min) | 2.10 3.00 4.00 |"), text);
    assertTrue(text.contains("| git commit | abc1234 |"), text);
    assertTrue(
        text.contains(
            "| receiver: signed 12 KB POST → Kafka acks=all | 80.0 req/s [50.0–100] | bare KafkaProducer acks=all "
                + "| 200 req/s [200–200] | 0.40× [0.25–0.50] |"),
        text);
    assertTrue(
        text.contains(
            "| category statistics job, one slot | 30,000 events/s | pass-through job | 120,000 events/s | 0.25× |"),
        text);
    assertTrue(text.contains("**Not measured**") && text.contains("classifier"), text);
    assertTrue(text.contains("| top_symptoms | 12.5 ms | — |"), text);
    assertTrue(text.contains("| query | issues | 2,000 | 2,000 | 2,000 | 1 |"), text);
    assertTrue(text.contains("![receiver-req-s](receiver-req-s.png)"), text);

    List<Path> pngs = written.stream().filter(p -> p.toString().endsWith(".png")).toList();
    assertEquals(
        List.of(
            "receiver-req-s.png",
            "receiver-ms.png",
            "latency-ms.png",
            "memory-mib.png",
            "stats-events-s.png"),
        pngs.stream().map(p -> p.getFileName().toString()).toList());
    for (Path png : pngs) {
      assertTrue(Files.size(png) > 1000, png + " is " + Files.size(png) + " bytes");
      BufferedImage image = ImageIO.read(png.toFile());
      assertNotNull(image, png + " does not decode as an image");
      assertTrue(
          image.getWidth() >= 720 && image.getHeight() > 300,
          png + " is " + image.getWidth() + "x" + image.getHeight());
      assertTrue(containsColour(image, BenchChart.FIGURE.getRGB()), png + " has no figure bar");
    }
    // Charts with a baseline draw its bar too.
    assertTrue(
        containsColour(
            ImageIO.read(out.resolve("receiver-req-s.png").toFile()),
            BenchChart.BASELINE.getRGB()));
  }

  @Test
  void ticksAreRoundAndCoverTheTop() {
    assertArrayEquals(new double[] {0, 20, 40, 60, 80, 100}, BenchChart.ticks(100));
    assertArrayEquals(new double[] {0, 500, 1000, 1500}, BenchChart.ticks(1234));
    assertArrayEquals(new double[] {0, 1}, BenchChart.ticks(0));
  }

  @Test
  void readsOnlyRawResultFiles() throws Exception {
    fixtures();
    List<BenchReport.Run> runs = BenchReport.readRuns(raw);
    assertEquals(
        List.of("pipeline", "query", "receiver", "receiver", "receiver", "stats"),
        runs.stream().map(BenchReport.Run::stage).toList());
    assertEquals(
        Map.of("stats_events_per_s", 30000.0, "passthrough_events_per_s", 120000.0),
        runs.get(5).values());
    assertFalse(runs.stream().anyMatch(x -> x.stage().equals("notes")));
  }

  private static boolean containsColour(BufferedImage image, int rgb) {
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xffffff) == (rgb & 0xffffff)) {
          return true;
        }
      }
    }
    return false;
  }
}
