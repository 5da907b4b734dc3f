package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReleaseAndTrendQueriesIT extends QueryITBase {

  private void releasesWithBugs() {
    graph.release("deepspeed", "0.14.0", "2024-01-01T00:00:00Z", false);
    graph.release("deepspeed", "0.14.1", "2024-02-01T00:00:00Z", false);
    graph.release("deepspeed", "0.15.0rc1", "2024-03-01T00:00:00Z", true);
    graph.release("megatron-lm", "0.5.0", "2024-01-15T00:00:00Z", false);
    graph.create(
        issue("deepspeedai/DeepSpeed#1").release("deepspeed@0.14.0"),
        issue("deepspeedai/DeepSpeed#2")
            .release("deepspeed@0.14.0")
            .closedAt("2024-01-20T00:00:00Z"),
        issue("deepspeedai/DeepSpeed#3").release("deepspeed@0.14.0").kind("QUESTION"),
        issue("deepspeedai/DeepSpeed#4").release("deepspeed@0.14.0").state("deleted"),
        issue("deepspeedai/DeepSpeed#5").release("deepspeed@0.14.1"),
        issue("NVIDIA/Megatron-LM#1").framework("megatron-lm").release("megatron-lm@0.5.0"));
  }

  @Test
  void givesItsEstimatorEveryReleaseWithTheIssuesFiledAgainstItOfAnyKind() {
    // the estimates and the counts of mode=confident: the estimate module's ViewQueriesIT
    releasesWithBugs();
    List<Map<String, Object>> rows = run("new-bugs-per-release");
    assertEquals(
        Map.of(
            "deepspeed@0.14.0",
            List.of(
                "deepspeedai/DeepSpeed#1", "deepspeedai/DeepSpeed#2", "deepspeedai/DeepSpeed#3"),
            "deepspeed@0.14.1",
            List.of("deepspeedai/DeepSpeed#5"),
            "deepspeed@0.15.0rc1",
            List.of(),
            "megatron-lm@0.5.0",
            List.of("NVIDIA/Megatron-LM#1")),
        members(rows, "release"));
    assertEquals(
        List.of("deepspeed@0.14.0", "deepspeed@0.14.1", "deepspeed@0.15.0rc1", "megatron-lm@0.5.0"),
        column(rows, "release").stream().distinct().toList(),
        "by framework, then date");
    Map<String, Object> rc =
        rows.stream()
            .filter(r -> r.get("release").equals("deepspeed@0.15.0rc1"))
            .findFirst()
            .orElseThrow();
    assertEquals("v0.15.0rc1", rc.get("tag"));
    assertEquals("2024-03-01T00:00:00Z", rc.get("publishedAt"));
    assertEquals(true, rc.get("prerelease"));
    assertEquals(
        List.of(true, false, true),
        rows.subList(0, 3).stream().map(r -> r.get("open")).toList(),
        "#2 is closed");
  }

  @Test
  void filtersReleasesByFrameworkDateAndPrerelease() {
    releasesWithBugs();
    List<Map<String, Object>> rows =
        run(
            "new-bugs-per-release",
            "framework",
            "deepspeed",
            "since",
            "2024-01-15",
            "includePrereleases",
            "false");
    assertEquals(List.of("deepspeed@0.14.1"), column(rows, "release"));
    assertEquals(
        List.of("deepspeed@0.14.0"),
        column(run("new-bugs-per-release", "framework", "deepspeed", "to", "2024-02-01"), "release")
            .stream()
            .distinct()
            .toList());
  }

  private void symptomsOverTime() {
    graph.create(
        issue("o/ds#1").createdAt("2024-01-03T10:00:00Z").symptom("HANG").distributedSpecific(true),
        issue("o/ds#2").createdAt("2024-01-20T10:00:00Z").symptom("HANG").distributedSpecific(true),
        issue("o/ds#3")
            .createdAt("2024-01-25T10:00:00Z")
            .symptom("OUT_OF_MEMORY")
            .distributedSpecific(false),
        issue("o/ds#4").createdAt("2024-02-05T10:00:00Z").symptom("HANG"),
        issue("o/ds#5").createdAt("2024-02-06T10:00:00Z"),
        issue("o/ds#6").createdAt("2024-02-07T10:00:00Z").kind("QUESTION").symptom("NONE"),
        issue("o/mg#1").framework("megatron-lm").createdAt("2024-02-08T10:00:00Z").symptom("HANG"));
  }

  @Test
  void trendsGiveTheirEstimatorOneRowPerIssueWithItsPeriod() {
    // the estimates themselves: the estimate module's CategoryTrendsIT
    symptomsOverTime();
    List<Map<String, Object>> rows = run("category-trends", "bucket", "week");
    assertEquals(7, rows.size(), "every issue, of any kind and framework");
    assertEquals(
        List.of("2024-01-01", "2024-01-15", "2024-01-22", "2024-02-05"),
        rows.stream().map(r -> String.valueOf(r.get("period"))).distinct().toList());
    Map<String, Object> first = rows.get(0);
    assertEquals("o/ds#1", first.get("id"));
    assertEquals("HANG", first.get("top"));
    assertEquals(true, first.get("passes"));
    assertEquals(true, first.get("samplePopulation"), "no sample serves the scope");
    assertEquals(false, first.get("sampleDrawn"));
  }

  @Test
  void rejectsADimensionOutsideTheWhitelistBeforeRunning() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> counts("category-trends", "dimension", "title"));
    assertTrue(e.getMessage().contains("use one of symptom, symptomClass"), e.getMessage());
  }

  @Test
  void bucketsOpenIssuesOfAnyKindByAgeAtAGivenInstantListingEmptyBuckets() {
    // the estimates and the counts of mode=confident: the estimate module's ViewQueriesIT
    graph.create(
        issue("o/ds#1").createdAt("2024-05-30T00:00:00Z"),
        issue("o/ds#2").createdAt("2024-05-10T00:00:00Z"),
        issue("o/ds#3").createdAt("2024-05-01T00:00:00Z"),
        issue("o/ds#4").createdAt("2023-01-01T00:00:00Z"),
        issue("o/ds#5").createdAt("2022-06-01T00:00:00Z"),
        issue("o/ds#6").createdAt("2024-01-01T00:00:00Z").closedAt("2024-02-01T00:00:00Z"),
        issue("o/ds#7").createdAt("2024-05-01T00:00:00Z").kind("QUESTION"),
        issue("o/ds#8").createdAt("2024-06-02T00:00:00Z"),
        issue("o/mg#1").framework("megatron-lm").createdAt("2024-05-31T00:00:00Z"));
    List<Map<String, Object>> rows = run("open-bugs-by-age", "asOf", "2024-06-01");
    Map<Object, List<Object>> expected = new java.util.LinkedHashMap<>();
    expected.put("under 1 week", List.of("o/ds#1", "o/mg#1"));
    expected.put("1-4 weeks", List.of("o/ds#2"));
    expected.put("1-3 months", List.of("o/ds#3", "o/ds#7"));
    expected.put("3-12 months", List.of());
    expected.put("over 1 year", List.of("o/ds#4", "o/ds#5"));
    Map<Object, List<Object>> got = members(rows, "bucket");
    got.values().forEach(ids -> ids.sort(java.util.Comparator.comparing(Object::toString)));
    assertEquals(expected, got);
    assertEquals(
        List.of(0L, 7L, 28L, 91L, 365L), column(rows, "fromDays").stream().distinct().toList());
    assertEquals(
        Arrays.asList(1, 1, 2, 0, 2),
        members(run("open-bugs-by-age", "asOf", "2024-06-01", "framework", "deepspeed"), "bucket")
            .values()
            .stream()
            .map(List::size)
            .toList());
  }

  private void alerts() {
    graph.create(issue("o/ds#1").title("NCCL hang"), issue("o/ds#2").title("Hang at barrier"));
    graph.alert(
        "a1",
        row(
            "raisedAt",
            "2024-03-01T00:00:00Z",
            "framework",
            "deepspeed",
            "dimension",
            "symptom",
            "category",
            "HANG",
            "kind",
            "SURGE",
            "windowStart",
            "2024-02-23T00:00:00Z",
            "windowEnd",
            "2024-03-01T00:00:00Z",
            "count",
            9L,
            "baseline",
            2.5,
            "score",
            4.0,
            "explanation",
            "9 HANG issues in 7 days against 2.5 expected"),
        List.of("o/ds#2", "o/ds#1"));
    graph.alert(
        "a2",
        row(
            "raisedAt",
            "2024-03-05T00:00:00Z",
            "framework",
            "megatron-lm",
            "dimension",
            "stage",
            "category",
            "MEMORY",
            "kind",
            "NEW_COMBINATION",
            "windowStart",
            "2024-02-05T00:00:00Z",
            "windowEnd",
            "2024-03-05T00:00:00Z",
            "count",
            3L,
            "baseline",
            0.0,
            "score",
            3.0,
            "explanation",
            "first MEMORY issues"),
        List.of());
    graph.alert(
        "a3",
        row(
            "raisedAt",
            "2024-02-01T00:00:00Z",
            "framework",
            "deepspeed",
            "dimension",
            "symptom",
            "category",
            "OUT_OF_MEMORY",
            "kind",
            "SURGE",
            "windowStart",
            "2024-01-25T00:00:00Z",
            "windowEnd",
            "2024-02-01T00:00:00Z",
            "count",
            5L,
            "baseline",
            1.0,
            "score",
            2.0,
            "explanation",
            "5 OUT_OF_MEMORY issues in 7 days against 1 expected"),
        List.of());
  }

  @Test
  void listsAlertsNewestFirstWithExplanationAndExampleIssues() {
    alerts();
    List<Map<String, Object>> rows = run("emerging-categories");
    assertEquals(List.of("a2", "a1", "a3"), column(rows, "id"));
    assertEquals(
        row(
            "id",
            "a1",
            "raisedAt",
            "2024-03-01T00:00:00Z",
            "updatedAt",
            "2024-03-01T00:00:00Z",
            "framework",
            "deepspeed",
            "dimension",
            "symptom",
            "category",
            "HANG",
            "kind",
            "SURGE",
            "windowStart",
            "2024-02-23T00:00:00Z",
            "windowEnd",
            "2024-03-01T00:00:00Z",
            "count",
            9L,
            "baseline",
            2.5,
            "score",
            4.0,
            "explanation",
            "9 HANG issues in 7 days against 2.5 expected",
            "moved",
            List.of(),
            "examples",
            List.of(
                row(
                    "id",
                    "o/ds#1",
                    "title",
                    "NCCL hang",
                    "url",
                    "https://github.com/o/ds/issues/1",
                    "state",
                    "open"),
                row(
                    "id",
                    "o/ds#2",
                    "title",
                    "Hang at barrier",
                    "url",
                    "https://github.com/o/ds/issues/2",
                    "state",
                    "open"))),
        rows.get(1));
    assertEquals(List.of(), rows.get(0).get("examples"));
  }

  @Test
  void filtersAlertsByFrameworkKindDimensionAndDate() {
    alerts();
    assertEquals(
        List.of("a1"),
        column(
            run(
                "emerging-categories",
                "framework",
                "deepspeed",
                "kind",
                "SURGE",
                "since",
                "2024-02-15"),
            "id"));
    assertEquals(List.of("a2"), column(run("emerging-categories", "dimension", "stage"), "id"));
    assertEquals(List.of("a2"), column(run("emerging-categories", "limit", "1"), "id"));
  }
}
