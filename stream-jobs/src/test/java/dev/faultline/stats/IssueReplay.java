package dev.faultline.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Taxonomy;
import dev.faultline.stats.AlertQualityBenchmark.Item;
import dev.faultline.stats.AlertQualityBenchmark.Outcome;
import dev.faultline.stats.detect.AlertModel;
import dev.faultline.stats.records.AlertMove;
import dev.faultline.stats.records.StatAlert;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The stationary replay of real issues (issue #32, item 8), printed, not asserted (not part of
 * {@code mvn verify}): every labelled issue of {@code ../shared/train/issues.jsonl} and {@code
 * ../shared/eval/dev.jsonl}, all frameworks together, each at an instant drawn uniformly over two
 * years (so the category mix and the volume are stationary and every alert of the background is a
 * false one), plus 12 planted DeepSpeed CHECKPOINT_FAILURE issues (labels of real DeepSpeed
 * CHECKPOINT_FAILURE issues, instants uniform in one week) for each of 8 planted weeks in the
 * second year; and once without a planted week. The job's own {@code EmergenceDetector} runs in
 * Flink's operator harness, fed in time order. Reads only the repositories and gold labels of the
 * issues (no text).
 *
 * <p>Per seed (the seed draws the background's instants, the planted issues' labels and instants):
 * for each planted week whether it was found within 7 days as one alert (delay = end of the first
 * alerting day of a CHECKPOINT_FAILURE member − start of the week; further alerts = alerts in force
 * other than that one whose issues are planted ones or that move the planted category), and the
 * alerts of the background: in force at the end and not about the planted issues, per month across
 * all frameworks. Any alert on phase, kind or a majority code is counted as a violation.
 *
 * <pre>
 * java ... dev.faultline.stats.IssueReplay [--issues a.jsonl,b.jsonl] [--seeds 11,12,...] [--show true]
 * </pre>
 */
public final class IssueReplay {
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final long H0 = Instant.parse("2030-01-05T00:00:00Z").toEpochMilli();
  private static final int HORIZON_DAYS = 730;
  private static final int PLANTED = 12;
  private static final int WEEKS = 8;

  /** The seeds the model's choices were tuned on; the default reports on others. */
  static final String TUNING_SEEDS = "1,2,3,4,5";

  static final String REPORT_SEEDS = "11,12,13,14,15,16,17,18,19,20";

  private IssueReplay() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    AlertModel model = AlertModel.defaults();
    if (a.containsKey("full-budget-issues")) {
      model = model.withFullBudgetIssues(Double.parseDouble(a.get("full-budget-issues")));
    }
    main(a, model);
  }

  static void main(Map<String, String> a, AlertModel model) throws Exception {
    List<Item> issues = new ArrayList<>();
    for (String f :
        a.getOrDefault("issues", "../../shared/train/issues.jsonl,../../shared/eval/dev.jsonl")
            .split(",")) {
      issues.addAll(read(Path.of(f.trim())));
    }
    String seedList =
        a.getOrDefault("seeds", a.getOrDefault("seed", REPORT_SEEDS))
            .replace("tuning", TUNING_SEEDS);
    boolean show = Boolean.parseBoolean(a.getOrDefault("show", "true"));
    Map<String, Long> perFramework = new TreeMap<>();
    issues.forEach(i -> perFramework.merge(i.framework(), 1L, Long::sum));
    List<Item> checkpoint =
        issues.stream()
            .filter(
                i -> i.framework().equals("DeepSpeed") && i.symptom().equals("CHECKPOINT_FAILURE"))
            .toList();
    System.out.printf(
        Locale.ROOT,
        "ISSUE REPLAY: %d real issues %s, instants uniform over %d days; %d planted DeepSpeed"
            + " CHECKPOINT_FAILURE issues (labels of its %d real ones) in one week; %d planted"
            + " weeks; model %s%n",
        issues.size(),
        perFramework,
        HORIZON_DAYS,
        PLANTED,
        checkpoint.size(),
        WEEKS,
        model);
    System.out.println(
        "| seed | planted weeks found within 7 days as one alert | delays (days) | further alerts"
            + " on the planted issues | background alerts (no planted week) | per month | other"
            + " alerts per month, runs with a planted week (mean) |");
    System.out.println("|---|---|---|---|---|---|---|");
    double months = HORIZON_DAYS / 30.44;
    int found = 0;
    int runs = 0;
    long background = 0;
    double othersWithPlant = 0;
    int seeds = 0;
    for (String seedText : seedList.split(",")) {
      long seed = Long.parseLong(seedText.trim());
      seeds++;
      Random r = new Random(seed);
      List<Item> stream = new ArrayList<>();
      for (Item i : issues) {
        stream.add(i.at(i.id(), i.framework(), H0 + (long) (r.nextDouble() * HORIZON_DAYS * DAY)));
      }
      List<String> delays = new ArrayList<>();
      int foundHere = 0;
      int further = 0;
      double others = 0;
      for (int w = 0; w < WEEKS; w++) {
        long start = H0 + (400 + w * 40L) * DAY;
        List<Item> planted = new ArrayList<>(stream);
        Set<String> ids = new HashSet<>();
        for (int k = 0; k < PLANTED; k++) {
          Item labels = checkpoint.get(r.nextInt(checkpoint.size()));
          String id = "planted/DeepSpeed#" + w + "-" + k;
          ids.add(id);
          planted.add(labels.at(id, "DeepSpeed", start + (long) (r.nextDouble() * 7 * DAY)));
        }
        Outcome o =
            AlertQualityBenchmark.run(
                planted, model, r, "DeepSpeed", "CHECKPOINT_FAILURE", start, 7, ids);
        runs++;
        boolean one = o.delayDays() >= 0 && o.delayDays() <= 7 && o.coAlerts() == 0;
        foundHere += one ? 1 : 0;
        further += o.coAlerts();
        delays.add(o.delayDays() >= 0 ? Long.toString(o.delayDays()) : "-");
        if (show && !one) {
          System.out.printf(
              Locale.ROOT, "  planted week %s, its alerts:%n", LocalDate.ofEpochDay(start / DAY));
          o.planted().forEach(x -> System.out.println("  * " + describe(x)));
        }
        others += o.falseAlerts().size() / months;
      }
      Outcome none =
          AlertQualityBenchmark.run(new ArrayList<>(stream), model, r, "-", "-", 0, 0, Set.of());
      found += foundHere;
      background += none.falseAlerts().size();
      othersWithPlant += others / WEEKS;
      System.out.printf(
          Locale.ROOT,
          "| %d | %d of %d | %s | %d | %d | %.2f | %.2f |%n",
          seed,
          foundHere,
          WEEKS,
          String.join(", ", delays),
          further,
          none.falseAlerts().size(),
          none.falseAlerts().size() / months,
          others / WEEKS);
      if (show) {
        for (StatAlert x : none.falseAlerts()) {
          System.out.println("  - " + describe(x));
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "seeds %s: planted week found within 7 days as one alert in %d of %d runs; background"
            + " alerts %d in %d seeds × %.1f months = %.3f a month across all frameworks (runs"
            + " with a planted week: %.3f); alerts on phase, kind or a majority code: %d%s%n",
        seedList,
        found,
        runs,
        background,
        seeds,
        months,
        background / (seeds * months),
        othersWithPlant / seeds,
        AlertQualityBenchmark.QUIET_VIOLATIONS.size(),
        AlertQualityBenchmark.QUIET_VIOLATIONS.isEmpty()
            ? ""
            : " " + AlertQualityBenchmark.QUIET_VIOLATIONS);
  }

  /** An alert in one line: its members and the first member's sentence. */
  static String describe(StatAlert a) {
    StringBuilder b = new StringBuilder();
    b.append(a.framework)
        .append(' ')
        .append(LocalDate.ofEpochDay(Math.floorDiv(a.windowStart, DAY)))
        .append("..")
        .append(LocalDate.ofEpochDay(Math.floorDiv(a.windowEnd, DAY)))
        .append(" [");
    for (AlertMove m : a.moved) {
      b.append(' ')
          .append(m.kind)
          .append(' ')
          .append(m.dimension)
          .append(' ')
          .append(m.category)
          .append(m.stage == null ? "" : "×" + m.stage)
          .append(" n=")
          .append(m.count)
          .append(String.format(Locale.ROOT, " exp=%.2f stat=%.2f;", m.expected, m.statistic));
    }
    b.append(" ] ").append(dev.faultline.stats.domain.Explanations.firstSentence(a.explanation));
    return b.toString();
  }

  /** The labelled issues of a file: framework from the gold label, no dates (they are drawn). */
  static List<Item> read(Path file) throws Exception {
    Taxonomy taxonomy = Taxonomy.load();
    ObjectMapper json = new ObjectMapper();
    List<Item> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        JsonNode n = json.readTree(line);
        JsonNode g = n.path("gold");
        String framework = g.path("framework").asText("");
        if (framework.isBlank()) {
          continue;
        }
        String symptom = AlertQualityBenchmark.code(g, "symptom");
        JsonNode ds = g.path("distributed_specific");
        out.add(
            new Item(
                n.path("repo").asText() + "#" + n.path("number").asLong(),
                framework,
                0,
                symptom,
                taxonomy.symptomClassOf(symptom).orElse(symptom),
                AlertQualityBenchmark.code(g, "root_cause"),
                AlertQualityBenchmark.code(g, "fix_pattern"),
                AlertQualityBenchmark.code(g, "stage"),
                AlertQualityBenchmark.code(g, "phase"),
                ds.isBoolean() ? (ds.asBoolean() ? "TRUE" : "FALSE") : "UNKNOWN"));
      }
    }
    return out;
  }
}
