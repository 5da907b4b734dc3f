package dev.faultline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Aggregates raw benchmark results into {@code report.md} and one PNG chart per section and unit.
 *
 * <p>Input: a directory of {@code <stage>-<repeat>.json} files, each a flat JSON object of numbers
 * (what one repeat of one stage measured), and an optional {@code machine.json} (cores, load
 * averages, date, commit, mode). Each figure of {@link FigureSpec#ALL} is reported as its median
 * over repeats with min–max, beside its baseline, and as the ratio figure/baseline computed per
 * repeat (so a noisy neighbour that slows both in one repeat cancels out) with its own min–max.
 * Keys no figure names are listed in a table of their own.
 *
 * <p>{@code java dev.faultline.bench.BenchReport RAW_DIR OUT_DIR}
 */
public final class BenchReport {
  private static final Pattern QUERY_LATENCY = Pattern.compile("query_p(50|95)_ms_(.+)");
  private static final Pattern RAW_FILE = Pattern.compile("([a-z][a-z0-9_]*)-(\\d+)\\.json");

  /** What one repeat of one stage measured. */
  public record Run(String stage, int repeat, Map<String, Double> values) {}

  /** One figure, aggregated over the repeats that measured it. */
  public record Row(
      FigureSpec spec, Spread value, Optional<Spread> baseline, Optional<Spread> ratio) {}

  /** A raw key outside {@link FigureSpec#ALL}, aggregated. */
  public record Extra(String stage, String key, Spread value) {}

  /** The aggregated report. */
  public record Report(
      Map<String, Object> machine, List<Row> rows, List<Extra> extras, Set<String> stagesRun) {}

  private final List<FigureSpec> specs;

  public BenchReport(List<FigureSpec> specs) {
    this.specs = List.copyOf(specs);
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("Usage: BenchReport RAW_DIR OUT_DIR");
      System.exit(2);
    }
    List<Path> written = new BenchReport(FigureSpec.ALL).write(Path.of(args[0]), Path.of(args[1]));
    written.forEach(p -> System.out.println("wrote " + p));
  }

  /**
   * Reads {@code rawDir}, writes report.md and the charts into {@code outDir}; returns the files
   * written.
   */
  public List<Path> write(Path rawDir, Path outDir) throws IOException {
    Report report = aggregate(readMachine(rawDir), readRuns(rawDir));
    Files.createDirectories(outDir);
    List<Path> written = new ArrayList<>();
    Map<String, String> charts = new LinkedHashMap<>();
    for (Map.Entry<String, List<Row>> chart : chartGroups(report.rows()).entrySet()) {
      String file = chart.getKey() + ".png";
      Path png = outDir.resolve(file);
      ImageIO.write(
          BenchChart.draw(chartTitle(chart.getValue()), chart.getValue()), "png", png.toFile());
      charts.put(chart.getKey(), file);
      written.add(png);
    }
    Path md = outDir.resolve("report.md");
    Files.writeString(md, markdown(report, charts));
    written.add(0, md);
    return written;
  }

  /**
   * The raw results of {@code rawDir}, ordered by stage and repeat; files that are not raw results
   * are ignored.
   */
  public static List<Run> readRuns(Path rawDir) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Run> runs = new ArrayList<>();
    try (Stream<Path> files = Files.list(rawDir)) {
      for (Path file : files.sorted().toList()) {
        Matcher m = RAW_FILE.matcher(file.getFileName().toString());
        if (!m.matches()) {
          continue;
        }
        JsonNode node = json.readTree(file.toFile());
        Map<String, Double> values = new TreeMap<>();
        node.fields()
            .forEachRemaining(
                e -> {
                  if (e.getValue().isNumber()) {
                    values.put(e.getKey(), e.getValue().asDouble());
                  }
                });
        runs.add(new Run(m.group(1), Integer.parseInt(m.group(2)), values));
      }
    }
    return runs;
  }

  /** {@code machine.json} of {@code rawDir}, or an empty map. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> readMachine(Path rawDir) throws IOException {
    Path file = rawDir.resolve("machine.json");
    return Files.exists(file)
        ? new ObjectMapper().readValue(file.toFile(), LinkedHashMap.class)
        : Map.of();
  }

  /** Aggregates {@code runs} figure by figure. */
  public Report aggregate(Map<String, Object> machine, List<Run> runs) {
    List<Row> rows = new ArrayList<>();
    Set<String> covered = new LinkedHashSet<>();
    for (FigureSpec spec : specs) {
      List<Double> values = new ArrayList<>();
      List<Double> baselines = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      for (Run run : runs) {
        if (!run.stage().equals(spec.stage())) {
          continue;
        }
        Double value = usable(run.values().get(spec.key()));
        Double baseline = spec.hasBaseline() ? usable(run.values().get(spec.baselineKey())) : null;
        if (value != null) {
          values.add(value);
        }
        if (baseline != null) {
          baselines.add(baseline);
        }
        if (value != null && baseline != null && baseline != 0) {
          ratios.add(value / baseline);
        }
      }
      covered.add(spec.stage() + "/" + spec.key());
      if (spec.hasBaseline()) {
        covered.add(spec.stage() + "/" + spec.baselineKey());
      }
      if (!values.isEmpty()) {
        rows.add(
            new Row(
                spec,
                Spread.of(values),
                baselines.isEmpty() ? Optional.empty() : Optional.of(Spread.of(baselines)),
                ratios.isEmpty() ? Optional.empty() : Optional.of(Spread.of(ratios))));
      }
    }
    Map<String, List<Double>> rest = new TreeMap<>();
    Set<String> stages = new TreeSet<>();
    for (Run run : runs) {
      stages.add(run.stage());
      run.values()
          .forEach(
              (key, value) -> {
                if (!covered.contains(run.stage() + "/" + key) && usable(value) != null) {
                  rest.computeIfAbsent(run.stage() + "/" + key, k -> new ArrayList<>()).add(value);
                }
              });
    }
    List<Extra> extras = new ArrayList<>();
    rest.forEach(
        (k, v) ->
            extras.add(
                new Extra(
                    k.substring(0, k.indexOf('/')),
                    k.substring(k.indexOf('/') + 1),
                    Spread.of(v))));
    return new Report(machine, rows, extras, stages);
  }

  /**
   * Negative values mark "not measured" in the raw files (for example a latency with no delivery
   * seen).
   */
  private static Double usable(Double value) {
    return value == null || value.isNaN() || value.isInfinite() || value < 0 ? null : value;
  }

  /** Rows grouped into charts: one per section and unit, named {@code <section>-<unit slug>}. */
  static Map<String, List<Row>> chartGroups(List<Row> rows) {
    Map<String, List<Row>> groups = new LinkedHashMap<>();
    for (Row row : rows) {
      String slug =
          row.spec()
              .unit()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^a-z0-9]+", "-")
              .replaceAll("(^-|-$)", "");
      groups.computeIfAbsent(row.spec().section() + "-" + slug, k -> new ArrayList<>()).add(row);
    }
    return groups;
  }

  private static String chartTitle(List<Row> rows) {
    FigureSpec first = rows.get(0).spec();
    int repeats = rows.stream().mapToInt(r -> r.value().n()).max().orElse(0);
    return String.format(
        Locale.ROOT,
        "%s (%s; median of %d, whiskers min–max; %s)",
        first.section(),
        first.unit(),
        repeats,
        first.higherIsBetter() ? "higher is better" : "lower is better");
  }

  /**
   * The markdown of {@code report}; {@code charts} maps chart names to their files beside the
   * report.
   */
  public String markdown(Report report, Map<String, String> charts) {
    StringBuilder b = new StringBuilder();
    Map<String, Object> m = report.machine();
    b.append("# faultline benchmark report\n\n");
    b.append("| | |\n|---|---|\n");
    row(b, "date (UTC)", m.get("date"));
    row(b, "git commit", m.get("commit"));
    row(b, "mode", m.get("mode") + ", repeats: " + m.get("repeats"));
    row(b, "cores", m.get("cores"));
    row(b, "load average at start (1/5/15 min)", m.get("loadStart"));
    row(b, "load average at end (1/5/15 min)", m.get("loadEnd"));
    row(b, "Java", m.get("java"));
    row(b, "OS", m.get("os"));
    row(b, "total time", m.get("elapsed"));
    b.append(
        "\nEach figure is the median over repeats with [min–max]; its baseline was measured in the same repeat of the "
            + "same run. The ratio is figure ÷ baseline, computed per repeat, then summarised the same way. "
            + "Throughputs: higher is better; latencies and memory: lower is better.\n");
    Object failures = m.get("failures");
    if (failures instanceof List<?> list && !list.isEmpty()) {
      b.append("\n**Not measured** (stage failed or timed out; see `logs/`): ")
          .append(String.join(", ", list.stream().map(String::valueOf).toList()))
          .append("\n");
    }
    Map<String, List<Row>> bySection = new LinkedHashMap<>();
    report
        .rows()
        .forEach(r -> bySection.computeIfAbsent(r.spec().section(), k -> new ArrayList<>()).add(r));
    for (Map.Entry<String, List<Row>> section : bySection.entrySet()) {
      b.append("\n## ").append(section.getKey()).append("\n\n");
      b.append(
          "| figure | value | baseline | baseline value | ratio |\n|---|---:|---|---:|---:|\n");
      for (Row r : section.getValue()) {
        b.append("| ")
            .append(r.spec().label())
            .append(" | ")
            .append(spread(r.value(), r.spec().unit()))
            .append(" | ");
        if (r.spec().hasBaseline()) {
          b.append(r.spec().baselineLabel())
              .append(" | ")
              .append(r.baseline().map(s -> spread(s, r.spec().unit())).orElse("not measured"))
              .append(" | ")
              .append(r.ratio().map(BenchReport::ratio).orElse("—"));
        } else {
          b.append("— | — | —");
        }
        b.append(" |\n");
      }
      charts.forEach(
          (name, file) -> {
            if (name.startsWith(section.getKey() + "-")) {
              b.append("\n![").append(name).append("](").append(file).append(")\n");
            }
          });
    }
    queryLatencies(b, report.extras());
    List<Extra> others =
        report.extras().stream().filter(e -> !QUERY_LATENCY.matcher(e.key()).matches()).toList();
    if (!others.isEmpty()) {
      b.append(
          "\n## other measurements\n\nRaw keys without a baseline of their own (units in the key's name).\n\n");
      b.append("| stage | key | median | min | max | repeats |\n|---|---|---:|---:|---:|---:|\n");
      for (Extra e : others) {
        b.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %d |%n",
                e.stage(),
                e.key(),
                number(e.value().median()),
                number(e.value().min()),
                number(e.value().max()),
                e.value().n()));
      }
    }
    return b.toString();
  }

  /**
   * The library queries' p50/p95 (keys {@code query_p50_ms_<name>}, {@code query_p95_ms_<name>}),
   * one row a query.
   */
  private static void queryLatencies(StringBuilder b, List<Extra> extras) {
    Map<String, Spread[]> byQuery = new TreeMap<>();
    for (Extra e : extras) {
      Matcher m = QUERY_LATENCY.matcher(e.key());
      if (m.matches()) {
        byQuery.computeIfAbsent(m.group(2), k -> new Spread[2])[m.group(1).equals("50") ? 0 : 1] =
            e.value();
      }
    }
    if (byQuery.isEmpty()) {
      return;
    }
    b.append(
        "\n## query latency\n\nEach library query on the synthetic graph of the query stage (no baseline: absolute).\n\n");
    b.append("| query | p50 | p95 |\n|---|---:|---:|\n");
    byQuery.forEach(
        (name, s) ->
            b.append("| ")
                .append(name)
                .append(" | ")
                .append(s[0] == null ? "—" : spread(s[0], "ms"))
                .append(" | ")
                .append(s[1] == null ? "—" : spread(s[1], "ms"))
                .append(" |\n"));
  }

  private static void row(StringBuilder b, String name, Object value) {
    b.append("| ")
        .append(name)
        .append(" | ")
        .append(value == null ? "unknown" : value)
        .append(" |\n");
  }

  /** {@code 1,234 req/s [1,100–1,300]} */
  static String spread(Spread s, String unit) {
    String range = s.n() > 1 ? " [" + number(s.min()) + "–" + number(s.max()) + "]" : "";
    return number(s.median()) + " " + unit + range;
  }

  /** {@code 0.82× [0.80–0.85]} */
  static String ratio(Spread s) {
    String range = s.n() > 1 ? String.format(Locale.ROOT, " [%.2f–%.2f]", s.min(), s.max()) : "";
    return String.format(Locale.ROOT, "%.2f×", s.median()) + range;
  }

  /** Thousands grouped, digits enough for small values. */
  static String number(double v) {
    if (v == 0) {
      return "0";
    }
    double a = Math.abs(v);
    String pattern = a >= 100 ? "%,.0f" : a >= 10 ? "%,.1f" : "%,.2f";
    return String.format(Locale.ROOT, pattern, v);
  }
}
