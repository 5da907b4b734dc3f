package dev.faultline.dashboard;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.IssueRow.ClassificationRow;
import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.graph.stats.AlertRow;
import dev.faultline.graph.stats.AlertWriter;
import dev.faultline.graph.testing.Codes;
import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;

/**
 * The small known graph of the dashboard tests, written with the production writers (so it is the
 * model of {@code graph-model/README.md} exactly): two frameworks, four releases, nine issues
 * (eight bug reports), four fixing PRs and two alerts. Every label has confidence {@link
 * #CONFIDENT} (above the default bar) except those of one bug report, PyTorch #204, whose labels
 * are all {@link #UNSURE} (below it): by default it is not counted, with all labels it is. The
 * expected figures the tests assert are worked out in the comments; they are the default ones (#204
 * left out) unless they say "all labels".
 *
 * <pre>
 * bugs per release: DeepSpeed@0.14.0 2 (#101, #102) · @0.14.1 2 (#103, #104) · @0.15.0 1 (#106) · PyTorch@2.3.0 2
 * distributed-specific (bugs): true #101 #102 #104 #201, false #103 #202, unknown #106 → 4/6 = 66.7%
 *   DeepSpeed 3/4 = 75%, PyTorch 1/2 = 50%
 * stage × symptom: COMMUNICATION×HANG 2, MEMORY×OUT_OF_MEMORY 2, FAULT_TOLERANCE×CHECKPOINT_FAILURE 1,
 *   INITIALIZATION×HANG 1, COMPUTATION×INCORRECT_OUTPUT 1
 * symptoms (bugs): HANG 3, OUT_OF_MEMORY 2, CHECKPOINT_FAILURE 1, INCORRECT_OUTPUT 1
 * fixes: merged PRs of sizes 4, 25, 4 → small-fix share 2/3; closed bugs take 10, 15, 4 days → median 10
 *   (PR #211, 40 lines, fixes #204, whose BUG label is below the bar: not a fix by default)
 * fix pattern per symptom: HANG×DISTRIBUTED_TUNING 1 (#110), HANG×VERSION_DEPENDENCY_MANAGEMENT 1 (#210),
 *   CHECKPOINT_FAILURE×CONDITIONAL_LOGIC 1 (#111); 4 fixes in scope, 3 labelled → 75%
 * coverage: 8 bug reports in scope, 7 confidently bugs → 88%; distributed-specific known 6 of 8 → 75%;
 *   trends by symptom 7 of 8 → 88%; stage × symptom 7 of 9 issues → 78%
 * all labels: 8 bugs; PyTorch@2.3.0 3 bugs; HANG 4 (#204 a HANG in COMMUNICATION); distributed-specific 5/7 = 71.4%;
 *   fix pattern per symptom HANG×DISTRIBUTED_TUNING 2 (#204, fixed by #211, is DISTRIBUTED_TUNING), 4 of 4 labelled
 * label sources: the rules ({@link #RULES_VERSION}) labelled DeepSpeed's issues but #102, labelled by a language
 *   model ({@link #LLM_SOURCE}, {@link #LLM_VERSION}, prompt {@link #PROMPT}); the learned layer
 *   ({@link #MODEL_VERSION}) PyTorch's; #202's stage label was kept from an older artefact
 *   ({@link #OLD_MODEL_VERSION}, given {@link #OLD_STAGE_AT}); the human-given labels (#101 symptom, #105 kind) are
 *   human's. Bug reports' symptom labels: model 3 (#201 #202 #204; 2 above the bar), rules 3 (#103 #104 #106),
 *   human 1, llm 1; their stage labels: rules 4, model 2 (#201 #204), llm 1, model (old) 1 (#202). Kind labels of
 *   every issue: rules 4, model 3, human 1, llm 1.
 * </pre>
 */
final class KnownGraph {
  static final String DS = "DeepSpeed";
  static final String PT = "PyTorch";
  static final String DS_REPO = "deepspeedai/DeepSpeed";
  static final String PT_REPO = "pytorch/pytorch";

  /** A title that looks like markup: the page must show it as text. */
  static final String SCRIPT_TITLE =
      "Checkpoint resume fails <script>window.__pwned=1</script><b>bold</b>";

  /** The confidence of every label but #204's. */
  static final double CONFIDENT = 0.95;

  /** The confidence of #204's labels: below the default bar. */
  static final double UNSURE = 0.5;

  /** The rules' version, which gave every label but those below. */
  static final String RULES_VERSION = "rules-test";

  /** The learned layer's version, which labelled PyTorch's issues. */
  static final String MODEL_VERSION = "learned-test+rules-test";

  /** The older artefact #202's stage label was kept from. */
  static final String OLD_MODEL_VERSION = "learned-0.9+rules-test";

  /** When #202's stage label was given. */
  static final String OLD_STAGE_AT = "2024-05-11T00:00:00Z";

  /** The language model that labelled DeepSpeed #102, its prompt and its version. */
  static final String LLM_SOURCE = "llm:gpt-test";

  static final String PROMPT = "prompt-test";
  static final String LLM_VERSION = LLM_SOURCE + "/" + PROMPT;

  /**
   * The bodies of the issues the similar-issues tests read (the others are "body of N"): DeepSpeed
   * #101 and PyTorch #201 end in the same NCCL watchdog error, and #201 shares no word with #204.
   */
  static final Map<Integer, String> BODIES =
      Map.of(
          101,
          "Every rank waits in allgather until the NCCL watchdog fires.\n\n"
              + "Traceback (most recent call last):\n"
              + "  File \"engine.py\", line 10, in step\n"
              + "torch.distributed.DistBackendError: NCCL watchdog timeout: 1800000 ms elapsed",
          201,
          "DDP allreduce hangs once NCCL 2.20 is installed; the NCCL watchdog fires.\n\n"
              + "Traceback (most recent call last):\n"
              + "  File \"run_ddp.py\", line 5, in main\n"
              + "torch.distributed.DistBackendError: NCCL watchdog timeout: 1800000 ms elapsed",
          102,
          "CUDA out of memory on the host when offload_optimizer is on with ZeRO-2.");

  /** The maintainer's answer to DeepSpeed #102 (open, no fix): its resolution is "answered". */
  static final IssueRow.Answer ANSWER_102 =
      new IssueRow.Answer(
          "ds-maintainer",
          true,
          millis("2024-02-12T09:00:00Z"),
          "Set pin_memory to false under offload_optimizer: the pinned buffers take the host memory.");

  private final Driver driver;

  KnownGraph(Driver driver) {
    this.driver = driver;
  }

  /** Empties the graph (taxonomy and migration nodes kept) and writes the known graph. */
  void reset() {
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      session.executeWrite(
          tx ->
              tx.run(
                      "MATCH (n) WHERE n:Issue OR n:PullRequest OR n:Release OR n:Alert OR n:Framework OR n:Repository"
                          + " OR n:Label OR n:Version OR n:CategoryCount DETACH DELETE n")
                  .consume());
    }
    new ReleaseWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                release(DS, DS_REPO, "0.14.0", "2024-01-10T00:00:00Z"),
                release(DS, DS_REPO, "0.14.1", "2024-03-01T00:00:00Z"),
                release(DS, DS_REPO, "0.15.0", "2024-05-01T00:00:00Z"),
                release(PT, PT_REPO, "2.3.0", "2024-04-24T00:00:00Z")));
    new IssueWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                bug(
                    DS_REPO,
                    DS,
                    101,
                    "NCCL watchdog timeout in ZeRO-3 allgather",
                    "2024-01-15T09:00:00Z",
                    "2024-01-25T09:00:00Z",
                    "HANG",
                    "HANG",
                    "DISTRIBUTED_COMMUNICATION_ERROR",
                    "DISTRIBUTED_TUNING",
                    "COMMUNICATION",
                    "TRAINING",
                    true,
                    List.of("bug", "hang"),
                    List.of("symptom")),
                bug(
                    DS_REPO,
                    DS,
                    102,
                    "OOM when offloading optimizer states",
                    "2024-02-10T09:00:00Z",
                    null,
                    "OUT_OF_MEMORY",
                    "CRASH",
                    "ALLOCATION_STRATEGY_ERROR",
                    "UNKNOWN",
                    "MEMORY",
                    "TRAINING",
                    true,
                    List.of("bug"),
                    List.of()),
                bug(
                    DS_REPO,
                    DS,
                    103,
                    SCRIPT_TITLE,
                    "2024-03-05T09:00:00Z",
                    "2024-03-20T09:00:00Z",
                    "CHECKPOINT_FAILURE",
                    "CRASH",
                    "INCORRECT_IMPLEMENTATION",
                    "CONDITIONAL_LOGIC",
                    "FAULT_TOLERANCE",
                    "TRAINING",
                    false,
                    List.of("bug"),
                    List.of()),
                bug(
                    DS_REPO,
                    DS,
                    104,
                    "Hang at init_process_group with 2 nodes",
                    "2024-03-10T09:00:00Z",
                    null,
                    "HANG",
                    "HANG",
                    "CONFIGURATION_ERROR",
                    "UNKNOWN",
                    "INITIALIZATION",
                    "TRAINING",
                    true,
                    List.of("bug"),
                    List.of()),
                issue(
                    DS_REPO,
                    DS,
                    105,
                    "Support FP8 training",
                    "2024-03-12T09:00:00Z",
                    null,
                    "FEATURE_REQUEST",
                    "NONE",
                    "NONE",
                    "UNKNOWN",
                    "UNKNOWN",
                    "UNKNOWN",
                    "UNKNOWN",
                    null,
                    List.of("enhancement"),
                    List.of("kind"),
                    CONFIDENT),
                bug(
                    DS_REPO,
                    DS,
                    106,
                    "Wrong loss with pipeline parallel",
                    "2024-05-05T09:00:00Z",
                    null,
                    "INCORRECT_OUTPUT",
                    "INCORRECT_FUNCTIONALITY",
                    "UNKNOWN",
                    "UNKNOWN",
                    "COMPUTATION",
                    "INFERENCE",
                    null,
                    List.of(),
                    List.of()),
                bug(
                    PT_REPO,
                    PT,
                    201,
                    "DDP allreduce hangs with NCCL 2.20",
                    "2024-04-28T09:00:00Z",
                    "2024-05-02T09:00:00Z",
                    "HANG",
                    "HANG",
                    "DISTRIBUTED_COMMUNICATION_ERROR",
                    "VERSION_DEPENDENCY_MANAGEMENT",
                    "COMMUNICATION",
                    "BOTH",
                    true,
                    List.of("oncall: distributed"),
                    List.of()),
                bug(
                    PT_REPO,
                    PT,
                    202,
                    "FSDP OOM with large model",
                    "2024-05-10T09:00:00Z",
                    null,
                    "OUT_OF_MEMORY",
                    "CRASH",
                    "UNKNOWN",
                    "UNKNOWN",
                    "MEMORY",
                    "UNKNOWN",
                    false,
                    List.of(),
                    List.of()),
                issue(
                    PT_REPO,
                    PT,
                    204,
                    "Training stalls sometimes after a few steps",
                    "2024-05-01T09:00:00Z",
                    null,
                    "BUG",
                    "HANG",
                    "HANG",
                    "UNKNOWN",
                    "DISTRIBUTED_TUNING",
                    "COMMUNICATION",
                    "TRAINING",
                    true,
                    List.of(),
                    List.of(),
                    UNSURE)));
    // #202's stage label kept from an older artefact, as the upsert records a label's own version
    // and
    // time (<key>Version, <key>LabelledAt) from #26 on.
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      session.executeWrite(
          tx ->
              tx.run(
                      "MATCH (i:Issue {id: $id}) SET i[$version] = $old, i[$at] = datetime($when)",
                      Map.of(
                          "id",
                          PT_REPO + "#202",
                          "version",
                          Dimension.STAGE.versionProperty(),
                          "at",
                          Dimension.STAGE.labelledAtProperty(),
                          "old",
                          OLD_MODEL_VERSION,
                          "when",
                          OLD_STAGE_AT))
                  .consume());
    }
    new PullRequestWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                pr(
                    DS_REPO,
                    DS,
                    110,
                    "Raise the allgather timeout for ZeRO-3",
                    "2024-01-25T08:00:00Z",
                    3,
                    1,
                    List.of(DS_REPO + "#101")),
                pr(
                    DS_REPO,
                    DS,
                    111,
                    "Guard checkpoint path handling",
                    "2024-03-20T08:00:00Z",
                    20,
                    5,
                    List.of(DS_REPO + "#103")),
                pr(
                    PT_REPO,
                    PT,
                    210,
                    "Pin NCCL to 2.19 for DDP",
                    "2024-05-02T08:00:00Z",
                    2,
                    2,
                    List.of(PT_REPO + "#201")),
                pr(
                    PT_REPO,
                    PT,
                    211,
                    "Lengthen the NCCL heartbeat",
                    "2024-05-06T08:00:00Z",
                    30,
                    10,
                    List.of(PT_REPO + "#204"))));
    new AlertWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                new AlertRow(
                    "alert-hang-ds",
                    DS,
                    "symptom",
                    "HANG",
                    null,
                    "SURGE",
                    millis("2024-03-04T00:00:00Z"),
                    millis("2024-03-11T00:00:00Z"),
                    2,
                    0.3,
                    4.2,
                    "HANG in DeepSpeed: 2 issues this week against 0.3 expected",
                    millis("2024-03-11T00:00:00Z"),
                    List.of(DS_REPO + "#101", DS_REPO + "#104"),
                    false,
                    List.of(
                        "DeepSpeed: 2 issues of symptom hang in 7 days; about 0.3 expected",
                        "DeepSpeed: 2 issues of stage communication in 7 days; about 0.6 expected")),
                new AlertRow(
                    "alert-oom-pt",
                    PT,
                    "symptom",
                    "OUT_OF_MEMORY",
                    "MEMORY",
                    "NEW_COMBINATION",
                    millis("2024-05-04T00:00:00Z"),
                    millis("2024-05-11T00:00:00Z"),
                    1,
                    0.0,
                    1.0,
                    "OUT_OF_MEMORY in stage MEMORY is new for PyTorch",
                    millis("2024-05-11T00:00:00Z"),
                    List.of(PT_REPO + "#202"))));
    pointMasses();
  }

  /**
   * Each classified issue's label of every dimension as a point-mass distribution marked calibrated
   * out of fold ({@code cv:known-graph}): so an estimate of this graph sums exactly its labels
   * (every label, whatever its confidence), and a count of labels above the bar stays apart from
   * it. The production writer leaves the marker to the classifier's tiers (#31).
   */
  private void pointMasses() {
    List<Map<String, Object>> dims = new ArrayList<>();
    for (Dimension d : Dimension.values()) {
      if (d != Dimension.SYMPTOM_CLASS) {
        dims.add(
            Map.of(
                "key", d.key(),
                "p", d.probabilitiesProperty(),
                "marker", d.calibrationProperty(),
                "codes", d.distributionCodes()));
      }
    }
    try (var session = driver.session(SessionConfig.forDatabase(SharedNeo4j.DATABASE))) {
      session.executeWrite(
          tx ->
              tx.run(
                      """
                      MATCH (i:Issue) WHERE i.kind IS NOT NULL
                      UNWIND $dims AS d
                      WITH i, d, coalesce(toString(i[d.key]), 'null') AS code
                      SET i[d.p] = [c IN d.codes | CASE WHEN c = code THEN 1.0 ELSE 0.0 END],
                          i[d.marker] = 'cv:known-graph'
                      """,
                      Map.of("dims", dims))
                  .consume());
    }
  }

  /**
   * Writes DeepSpeed's HANG alert again under its id, as the statistics job does when a member
   * joins or leaves the group: another text, other members, raised at its newest member's time.
   */
  void reviseHangAlert(String explanation, List<String> moved, String raisedAt) {
    new AlertWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                new AlertRow(
                    "alert-hang-ds",
                    DS,
                    "symptom",
                    "HANG",
                    null,
                    "SURGE",
                    millis("2024-03-04T00:00:00Z"),
                    millis(raisedAt),
                    2,
                    0.3,
                    4.2,
                    explanation,
                    millis(raisedAt),
                    List.of(DS_REPO + "#101", DS_REPO + "#104"),
                    false,
                    moved)));
  }

  /** Writes one more bug report, as the pipeline would when a delivery lands. */
  void addBug(String repo, String framework, int number, String title, String createdAt) {
    addBugRow(repo, framework, number, title, createdAt);
    pointMasses();
  }

  private void addBugRow(
      String repo, String framework, int number, String title, String createdAt) {
    new IssueWriter(driver, SharedNeo4j.DATABASE)
        .write(
            List.of(
                bug(
                    repo,
                    framework,
                    number,
                    title,
                    createdAt,
                    null,
                    "HANG",
                    "HANG",
                    "UNKNOWN",
                    "UNKNOWN",
                    "COMMUNICATION",
                    "TRAINING",
                    true,
                    List.of(),
                    List.of())));
  }

  /** Writes one more release, as the release listener would. */
  void addRelease(String framework, String repo, String version, String publishedAt) {
    new ReleaseWriter(driver, SharedNeo4j.DATABASE)
        .write(List.of(release(framework, repo, version, publishedAt)));
  }

  static long millis(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private static ReleaseRow release(String framework, String repo, String version, String at) {
    return new ReleaseRow(
        framework,
        repo,
        version,
        "v" + version,
        "https://github.com/" + repo + "/releases/tag/v" + version,
        millis(at),
        false,
        false);
  }

  private static IssueRow bug(
      String repo,
      String framework,
      int number,
      String title,
      String created,
      String closed,
      String symptom,
      String symptomClass,
      String rootCause,
      String fixPattern,
      String stage,
      String phase,
      Boolean distributed,
      List<String> labels,
      List<String> humanGiven) {
    return issue(
        repo,
        framework,
        number,
        title,
        created,
        closed,
        "BUG",
        symptom,
        symptomClass,
        rootCause,
        fixPattern,
        stage,
        phase,
        distributed,
        labels,
        humanGiven,
        CONFIDENT);
  }

  private static IssueRow issue(
      String repo,
      String framework,
      int number,
      String title,
      String created,
      String closed,
      String kind,
      String symptom,
      String symptomClass,
      String rootCause,
      String fixPattern,
      String stage,
      String phase,
      Boolean distributed,
      List<String> labels,
      List<String> humanGiven,
      double labelConfidence) {
    long createdAt = millis(created);
    Long closedAt = closed == null ? null : millis(closed);
    long updated = closedAt == null ? createdAt : closedAt;
    Map<Dimension, Double> confidence = new HashMap<>();
    Map<Dimension, String> evidence = new HashMap<>();
    for (Dimension d : Dimension.values()) {
      if (d != Dimension.SYMPTOM_CLASS) {
        confidence.put(d, labelConfidence);
        evidence.put(d, "rule " + d.key() + ": words in the title");
      }
    }
    evidence.put(Dimension.SYMPTOM, "title says '" + title.split(" ")[0] + "'");
    ClassificationRow classification =
        new ClassificationRow(
            Codes.of(
                Kind.valueOf(kind),
                Symptom.valueOf(symptom),
                SymptomClass.valueOf(symptomClass),
                RootCause.valueOf(rootCause),
                FixPattern.valueOf(fixPattern),
                Stage.valueOf(stage),
                Phase.valueOf(phase),
                distributed),
            null,
            Map.of(),
            confidence,
            evidence,
            humanGiven.stream().map(h -> Dimension.ofKey(h).orElseThrow()).toList(),
            number == 102 ? LLM_VERSION : framework.equals(PT) ? MODEL_VERSION : RULES_VERSION,
            updated,
            number == 102
                ? LLM_SOURCE
                : framework.equals(PT)
                    ? dev.faultline.graph.LabelSource.MODEL
                    : dev.faultline.graph.LabelSource.RULES,
            number == 102 ? PROMPT : null);
    String body = BODIES.getOrDefault(number, "body of " + number);
    return new IssueRow(
        repo + "#" + number,
        repo,
        framework,
        number,
        title,
        body,
        closed == null ? "open" : "closed",
        "https://github.com/" + repo + "/issues/" + number,
        "someone",
        new ArrayList<>(labels),
        createdAt,
        updated,
        closedAt,
        updated,
        1,
        null,
        classification,
        // the vector the stand-in encoder gives the text the pipeline encodes (title, body)
        new IssueRow.TextVector(
            "test:" + repo + "#" + number, WordVectors.INSTANCE.encode(title + "\n" + body)),
        null,
        number == 102 && repo.equals(DS_REPO) ? ANSWER_102 : null);
  }

  private static PullRequestRow pr(
      String repo,
      String framework,
      int number,
      String title,
      String mergedAt,
      int additions,
      int deletions,
      List<String> fixes) {
    long merged = millis(mergedAt);
    // As GitHub's payloads give it: sizes known, not read from git history, not classified.
    return new PullRequestRow(
        repo + "#" + number,
        repo,
        framework,
        number,
        title,
        "https://github.com/" + repo + "/pull/" + number,
        "closed",
        true,
        merged,
        merged - 3_600_000,
        merged,
        additions,
        deletions,
        1,
        fixes,
        true,
        null,
        null,
        null,
        null,
        null);
  }
}
