package dev.faultline.classifier;

import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.CueMatcher;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.TextIndex;
import dev.faultline.classifier.internal.ToolReport;
import dev.faultline.classifier.internal.Tokenizer;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import dev.faultline.schemas.taxonomy.Taxonomy;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Explainable rule-based classifier of defect reports under taxonomy v1 (see the codebook). Every dimension gets a
 * code, a confidence and the evidence (rule and words) that decided it; below the configured threshold a dimension
 * answers {@code UNKNOWN}. Root cause and fix pattern are only assigned on explicit diagnosis or fix evidence. GitHub
 * labels configured in {@link ClassifierConfig#labelOverrides()} win over the rules and are marked human-given.
 *
 * <p>Thread-safe and free of I/O per call: all phrase tables are compiled in the constructor; each call builds its
 * own token index.
 */
public final class Classifier implements DefectClassifier {

  /** Version of the rules and taxonomy that produced a classification; stored with every label in the graph. */
  public static final String VERSION = "rules-1.3.1+taxonomy-v1";

  /** Frameworks used for training only: without inference words, their defects show in training. */
  private static final java.util.Set<String> TRAINING_FRAMEWORKS =
      java.util.Set.of("Megatron-LM", "Megatron-DeepSpeed", "Horovod", "NeMo");

  /** Frameworks that only serve models: without training words, their defects show in inference. */
  private static final java.util.Set<String> INFERENCE_FRAMEWORKS = java.util.Set.of("vLLM");

  /** "with commit [d64ba4c](…)", "at commit 1a2b3c4d": a hexadecimal commit id with letters and digits. */
  private static final Pattern MEGATRON_COMMIT =
      Pattern.compile("(?i)\\bcommit[ \\t]{1,4}\\[?`?((?=[0-9a-f]{0,39}[0-9])(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40})\\b");

  private static final Pattern TITLE_TAG = Pattern.compile("^\\s*[\\[【(]\\s*([^\\]】)]{1,40}?)\\s*[\\]】)]");

  private final ClassifierConfig config;
  private final Tokenizer tokenizer = new Tokenizer();
  private final CueMatcher matcher;
  private final VersionExtractor versions = new VersionExtractor();
  private final Frameworks frameworks = new Frameworks();
  private final Taxonomy taxonomy;

  public Classifier(ClassifierConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.matcher = new CueMatcher(tokenizer);
    this.taxonomy = Taxonomy.load();
  }

  /** Classifies one issue or pull request. */
  @Override
  public Classification classify(IssueText in) {
    return analyse(in).classification();
  }

  @Override
  public String version() {
    return VERSION;
  }

  /**
   * The rules' answer together with the cue counts they read: what the learned layer takes as features.
   *
   * @param classification the rules' labels
   * @param reporterCues cue name to its count in the title, opening post and pull-request text (non-zero only)
   * @param threadCues cue name to its count in the comments (non-zero only)
   */
  public record Analysis(
      Classification classification, Map<String, Integer> reporterCues, Map<String, Integer> threadCues) {}

  /** Classifies one issue or pull request and keeps the cue counts. */
  public Analysis analyse(IssueText in) {
    Objects.requireNonNull(in, "in");
    boolean pr = in.isMergedPullRequest();
    TextIndex index = new TextIndex();
    index.add(pr ? Zone.PR_TITLE : Zone.TITLE, in.title(), tokenizer);
    index.add(pr ? Zone.PR_BODY : Zone.BODY, ToolReport.withoutFixedLines(in.body()), tokenizer);
    StringBuilder all = new StringBuilder(in.title().length() + in.body().length() + 64);
    all.append(in.title()).append('\n').append(in.body());
    for (Comment c : in.comments()) {
      index.add(c.maintainer() ? Zone.MAINTAINER_COMMENT : Zone.COMMENT, ToolReport.withoutFixedLines(c.body()), tokenizer);
      all.append('\n').append(c.body());
    }
    boolean mergedFix = pr;
    for (LinkedPullRequest p : in.pullRequests()) {
      index.add(Zone.PR_TITLE, p.title(), tokenizer);
      index.add(Zone.PR_BODY, p.body(), tokenizer);
      mergedFix |= p.merged();
    }
    Features f = matcher.match(index);
    Ctx ctx = new Ctx(in, f, index, pr, mergedFix, titleTag(in.title()));

    Label<Kind> kind = kind(ctx);
    Label<Symptom> symptom = kind.value() == Kind.BUG ? symptom(ctx) : Label.predicted(Symptom.NONE, kind.confidence(),
        "not a defect report (" + kind.value() + ")");
    symptom = threshold(symptom, Symptom.UNKNOWN);
    Label<Stage> stage = threshold(stage(ctx, kind.value(), symptom.value()), Stage.UNKNOWN);
    String repoFramework = frameworks.ofRepo(in.repo()).orElse(null);
    Label<Phase> phase = threshold(phase(ctx, kind.value(), symptom.value(), repoFramework), Phase.UNKNOWN);
    Label<Boolean> distributed = distributed(ctx, kind.value(), symptom.value());
    Label<RootCause> rootCause = threshold(rootCause(ctx, kind.value(), symptom.value()), RootCause.UNKNOWN);
    Label<FixPattern> fix = threshold(fixPattern(ctx, kind.value(), symptom.value()), FixPattern.UNKNOWN);

    // people's labels win
    EnumMap<Dimension, Label<String>> human = humanLabels(in);
    if (human.containsKey(Dimension.KIND)) {
      kind = retype(human.get(Dimension.KIND), Kind::valueOf);
    }
    if (human.containsKey(Dimension.SYMPTOM)) {
      symptom = retype(human.get(Dimension.SYMPTOM), Symptom::valueOf);
    }
    if (human.containsKey(Dimension.STAGE)) {
      stage = retype(human.get(Dimension.STAGE), Stage::valueOf);
    }
    if (human.containsKey(Dimension.PHASE)) {
      phase = retype(human.get(Dimension.PHASE), Phase::valueOf);
    }
    Label<SymptomClass> symptomClass = symptomClass(symptom);

    Label<String> framework =
        frameworks
            .ofRepo(in.repo())
            .map(fw -> Label.predicted(fw, 1.0, "repository " + in.repo()))
            .orElseGet(
                () ->
                    frameworks
                        .ofText(all.toString().toLowerCase(Locale.ROOT))
                        .map(fw -> Label.predicted(fw, 0.6, "first framework named in the text"))
                        .orElse(Label.predicted((String) null, 0.0, "no known repository or framework name")));
    Map<String, String> found = versions.extract(all);
    if ("Megatron-LM".equals(repoFramework) && !found.containsKey("megatron-lm") && !found.containsKey("megatron-core")) {
      // Megatron-LM is mostly used from a checkout: its users name the commit they run
      Matcher commit = MEGATRON_COMMIT.matcher(in.title() + "\n" + in.body());
      if (commit.find()) {
        found.put("megatron-lm", commit.group(1));
      }
    }
    Map<String, Integer> reporterCues = new java.util.HashMap<>();
    Map<String, Integer> threadCues = new java.util.HashMap<>();
    for (Cue cue : Cue.values()) {
      int r = f.reporter(cue);
      int t = f.count(cue, Zone.COMMENT) + f.count(cue, Zone.MAINTAINER_COMMENT);
      if (r > 0) {
        reporterCues.put(cue.name(), r);
      }
      if (t > 0) {
        threadCues.put(cue.name(), t);
      }
    }
    return new Analysis(
        new Classification(
            kind, symptom, symptomClass, rootCause, fix, stage, phase, distributed, framework, found, VERSION),
        reporterCues,
        threadCues);
  }

  /** The confidence threshold in force. */
  public ClassifierConfig config() {
    return config;
  }

  // ------------------------------------------------------------------ context

  private record Ctx(
      IssueText in, Features f, TextIndex index, boolean pr, boolean mergedFix, String tag) {}

  private static String titleTag(String title) {
    Matcher m = TITLE_TAG.matcher(title);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
  }

  private static boolean tagIs(String tag, String... prefixes) {
    for (String p : prefixes) {
      if (tag.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ kind

  private Label<Kind> kind(Ctx c) {
    Features f = c.f();
    String tag = c.tag();
    if (c.pr()) {
      boolean behaviourBroken = f.in(Cue.ERROR, Zone.PR_TITLE) || f.in(Cue.ERROR, Zone.PR_BODY)
          || f.in(Cue.INCORRECT, Zone.PR_BODY);
      if (f.in(Cue.DOC, Zone.PR_TITLE) && !behaviourBroken) {
        return Label.predicted(Kind.DOCUMENTATION, 0.7, "pull request title about docs: '" + f.phrase(Cue.DOC) + "'");
      }
      return Label.predicted(Kind.BUG, 0.6, "merged pull request: describes a fix");
    }
    if (f.any(Cue.TEMPLATE_PLACEHOLDER) || placeholderTitle(c.in().title())) {
      return Label.predicted(Kind.OTHER, 0.8, "unfilled template placeholder");
    }
    // codebook 9: an empty template is OTHER: a title that is only the template's tag over the template's own text
    if (c.in().comments().isEmpty()
        && placeholderTitle(TITLE_TAG.matcher(c.in().title()).replaceFirst(""))
        && f.count(Cue.TEMPLATE_BOILERPLATE, Zone.BODY) >= 3
        && c.index().tokenCount(Zone.BODY) < 150) {
      return Label.predicted(Kind.OTHER, 0.75, "template tag as title over the template's unedited text");
    }
    int bodyTokens = c.index().tokenCount(Zone.BODY);
    boolean traceback = f.any(Cue.TRACEBACK) || f.any(Cue.HARD_CRASH);
    double symptomEvidence = strongSymptomScore(f);
    boolean errorInReport = traceback || f.reporter(Cue.ERROR) > 0 || symptomEvidence > 0;
    boolean docTitle = f.in(Cue.DOC, Zone.TITLE) || tagIs(tag, "doc");
    boolean featureTitle =
        tagIs(tag, "feature", "request", "enhancement", "shardformer", "proposal")
            || (f.in(Cue.FEATURE, Zone.TITLE) && !f.in(Cue.ERROR, Zone.TITLE));
    boolean questionTitle =
        tagIs(tag, "question", "help", "usage")
            || f.in(Cue.QUESTION, Zone.TITLE)
            || (c.in().title().trim().endsWith("?") && !tagIs(tag, "bug"));
    boolean strongBug = traceback || symptomEvidence >= 3 || f.in(Cue.ERROR, Zone.TITLE);
    if (bodyTokens < 12
        && c.in().comments().isEmpty()
        && !errorInReport
        && !docTitle
        && !featureTitle
        && !questionTitle
        && c.in().title().length() < 40) {
      return Label.predicted(Kind.OTHER, 0.6, "nearly empty report (" + bodyTokens + " words in the body)");
    }

    // "Spelling error in the README": the error is the text's, not the code's
    boolean docFault = docTitle && f.in(Cue.DOC_FAULT, Zone.TITLE) && !traceback;
    if (docTitle && (!strongBug || docFault)) {
      return Label.predicted(Kind.DOCUMENTATION, 0.7, "docs in the title ('" + f.phrase(Cue.DOC) + "'), no failure");
    }
    boolean failureInTitle = f.in(Cue.ERROR, Zone.TITLE) || f.in(Cue.IMPORT, Zone.TITLE) || f.in(Cue.OOM, Zone.TITLE);
    // codebook 9: a "[QUESTION]" whose post carries a traceback of the framework's code is a bug report
    boolean tracebackInPost = f.in(Cue.TRACEBACK, Zone.BODY);
    if (questionTitle && !failureInTitle && !tracebackInPost && !(traceback && f.reporter(Cue.ERROR) > 2)) {
      return Label.predicted(Kind.QUESTION, 0.65, "question in the title, no framework traceback");
    }
    if (featureTitle && !traceback) {
      return Label.predicted(Kind.FEATURE_REQUEST, 0.65, "request in the title ('" + f.phrase(Cue.FEATURE) + "')");
    }
    // a feature that silently misbehaves, or an incompatibility named in the title, is a reported failure too
    boolean quietFailure = f.reporter(Cue.MALFUNCTION) > 0 || f.in(Cue.VERSION_CAUSE, Zone.TITLE);
    if (!errorInReport && !quietFailure && f.reporter(Cue.QUESTION) > 0) {
      return Label.predicted(Kind.QUESTION, 0.5, "asks '" + f.phrase(Cue.QUESTION) + "', reports no failure");
    }
    if (!errorInReport && f.reporter(Cue.FEATURE) > 1) {
      return Label.predicted(Kind.FEATURE_REQUEST, 0.5, "asks for '" + f.phrase(Cue.FEATURE) + "', reports no failure");
    }
    if (!errorInReport && f.reporter(Cue.DOC) > 0) {
      return Label.predicted(Kind.DOCUMENTATION, 0.45, "about '" + f.phrase(Cue.DOC) + "', reports no failure");
    }
    String why = traceback ? "traceback or crash" : errorInReport ? "failure reported ('" + firstOf(f, Cue.ERROR) + "')"
        : "default: a report in an issue tracker of a framework";
    return Label.predicted(Kind.BUG, errorInReport ? 0.8 : 0.45, why);
  }

  private static final java.util.Set<String> PLACEHOLDER_TITLES = java.util.Set.of(
      "delete", "deleted", "del", "remove", "removed", "test", "testing", "none", "null", "na", "n/a", "spam", "-", ".",
      "title", "issue", "untitled", "ignore", "please delete");

  /** A title that only says the post was withdrawn or is a test: spam or an emptied report. */
  static boolean placeholderTitle(String title) {
    String t = title.trim().toLowerCase(Locale.ROOT);
    while (t.endsWith(".") || t.endsWith("!")) {
      t = t.substring(0, t.length() - 1).trim();
    }
    return t.isEmpty() || PLACEHOLDER_TITLES.contains(t);
  }

  private static String firstOf(Features f, Cue cue) {
    String p = f.phrase(cue);
    return p == null ? "symptom words" : p;
  }

  private static double strongSymptomScore(Features f) {
    return f.score(Cue.OOM) + f.score(Cue.HANG) + f.score(Cue.IMPORT) + f.score(Cue.BUILD_STRONG)
        + f.score(Cue.COMM_ERROR);
  }

  // ------------------------------------------------------------------ symptom

  /** Title cues in priority order: what a reader sees first decides. */
  private static final Cue[] TITLE_ORDER = {
    Cue.OOM, Cue.HANG, Cue.IMPORT, Cue.BUILD_STRONG, Cue.COMM_ERROR, Cue.CHECKPOINT, Cue.INCONSISTENT,
    Cue.MALFUNCTION, Cue.MEMORY_ANOMALY, Cue.INCORRECT, Cue.PERFORMANCE, Cue.SETUP, Cue.INSTALL
  };

  private Label<Symptom> symptom(Ctx c) {
    Features f = c.f();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    Zone body = c.pr() ? Zone.PR_BODY : Zone.BODY;
    if (c.pr() && f.in(Cue.CI, title)) {
      return Label.predicted(Symptom.CI_TEST_FAILURE, 0.7, "pull request fixes tests ('" + f.phrase(Cue.CI) + "')");
    }
    for (Cue cue : TITLE_ORDER) {
      if (!f.in(cue, title)) {
        continue;
      }
      if (cue == Cue.CHECKPOINT && f.count(Cue.ACT_CHECKPOINT, title) >= f.count(Cue.CHECKPOINT, title)) {
        continue;
      }
      if (cue == Cue.MEMORY_ANOMALY && f.any(Cue.OOM)) {
        return Label.predicted(Symptom.OUT_OF_MEMORY, 0.7, "memory growth in the title ends in an OOM");
      }
      if (cue == Cue.SETUP && !(f.any(Cue.ERROR) || f.any(Cue.TRACEBACK))) {
        continue;
      }
      Symptom s = symptomOf(cue);
      return Label.predicted(s, 0.8, "title says '" + f.phrase(cue) + "'");
    }
    // body: score each symptom, the reporter's own post counts most
    EnumMap<Symptom, Double> score = new EnumMap<>(Symptom.class);
    score.put(Symptom.OUT_OF_MEMORY, 3.0 * f.score(Cue.OOM));
    score.put(Symptom.HANG, 2.0 * f.score(Cue.HANG));
    score.put(Symptom.IMPORT_ERROR, 2.5 * f.score(Cue.IMPORT));
    score.put(Symptom.BUILD_INSTALL_FAILURE, 2.0 * f.score(Cue.BUILD_STRONG) + 0.5 * f.score(Cue.INSTALL));
    score.put(Symptom.COMMUNICATION_FAILURE, 2.5 * f.score(Cue.COMM_ERROR));
    score.put(Symptom.CHECKPOINT_FAILURE, 1.5 * Math.max(0, f.score(Cue.CHECKPOINT) - f.score(Cue.ACT_CHECKPOINT)));
    score.put(Symptom.OUTPUT_INCONSISTENCY_ACROSS_DEVICES, 2.5 * f.score(Cue.INCONSISTENT));
    score.put(Symptom.MEMORY_ANOMALY, f.any(Cue.OOM) ? 0 : 2.0 * f.score(Cue.MEMORY_ANOMALY));
    score.put(Symptom.PERFORMANCE_DEGRADATION, 1.2 * f.score(Cue.PERFORMANCE));
    score.put(Symptom.SETUP_FAILURE, 1.0 * f.score(Cue.SETUP) + 0.3 * f.score(Cue.SETUP_WEAK));
    score.put(Symptom.INCORRECT_OUTPUT, 1.2 * f.score(Cue.INCORRECT));
    score.put(Symptom.FEATURE_MALFUNCTION, 1.0 * f.score(Cue.MALFUNCTION));
    score.put(
        Symptom.RUNTIME_CRASH,
        (f.any(Cue.TRACEBACK) ? 3.0 : 0) + 1.5 * f.score(Cue.HARD_CRASH) + 0.5 * f.score(Cue.ERROR));
    Symptom best = null;
    double b = 0;
    double second = 0;
    for (Map.Entry<Symptom, Double> e : score.entrySet()) {
      if (e.getValue() > b) {
        second = b;
        b = e.getValue();
        best = e.getKey();
      } else if (e.getValue() > second) {
        second = e.getValue();
      }
    }
    if (best == null || b < 1.0) {
      if (!c.pr() && (f.any(Cue.ERROR) || f.any(Cue.NOT_WORKING))) {
        return Label.predicted(Symptom.RUNTIME_CRASH, 0.4, "a failure without a more specific symptom ('"
            + firstOf(f, f.any(Cue.ERROR) ? Cue.ERROR : Cue.NOT_WORKING) + "')");
      }
      return Label.predicted(Symptom.UNKNOWN, 0.3, "no observable symptom stated");
    }
    double conf = c.pr() ? 0.4 + 0.4 * (b - second) / b : 0.45 + 0.45 * (b - second) / b;
    Cue cue = cueOf(best);
    String phrase = cue == null ? null : f.phrase(cue);
    if (phrase == null && best == Symptom.BUILD_INSTALL_FAILURE) {
      phrase = f.phrase(Cue.INSTALL);
    }
    String words = phrase == null ? "" : " ('" + phrase + "')";
    return Label.predicted(best, conf, "body signals " + best + words + String.format(Locale.ROOT, " score %.1f vs %.1f", b, second));
  }

  private static Symptom symptomOf(Cue cue) {
    return switch (cue) {
      case OOM -> Symptom.OUT_OF_MEMORY;
      case HANG -> Symptom.HANG;
      case IMPORT -> Symptom.IMPORT_ERROR;
      case BUILD_STRONG, INSTALL -> Symptom.BUILD_INSTALL_FAILURE;
      case COMM_ERROR -> Symptom.COMMUNICATION_FAILURE;
      case CHECKPOINT -> Symptom.CHECKPOINT_FAILURE;
      case INCONSISTENT -> Symptom.OUTPUT_INCONSISTENCY_ACROSS_DEVICES;
      case MEMORY_ANOMALY -> Symptom.MEMORY_ANOMALY;
      case PERFORMANCE -> Symptom.PERFORMANCE_DEGRADATION;
      case SETUP -> Symptom.SETUP_FAILURE;
      case INCORRECT -> Symptom.INCORRECT_OUTPUT;
      case MALFUNCTION -> Symptom.FEATURE_MALFUNCTION;
      case CI -> Symptom.CI_TEST_FAILURE;
      default -> Symptom.RUNTIME_CRASH;
    };
  }

  private static Cue cueOf(Symptom s) {
    return switch (s) {
      case OUT_OF_MEMORY -> Cue.OOM;
      case HANG -> Cue.HANG;
      case IMPORT_ERROR -> Cue.IMPORT;
      case BUILD_INSTALL_FAILURE -> Cue.BUILD_STRONG;
      case COMMUNICATION_FAILURE -> Cue.COMM_ERROR;
      case CHECKPOINT_FAILURE -> Cue.CHECKPOINT;
      case OUTPUT_INCONSISTENCY_ACROSS_DEVICES -> Cue.INCONSISTENT;
      case MEMORY_ANOMALY -> Cue.MEMORY_ANOMALY;
      case PERFORMANCE_DEGRADATION -> Cue.PERFORMANCE;
      case SETUP_FAILURE -> Cue.SETUP;
      case INCORRECT_OUTPUT -> Cue.INCORRECT;
      case FEATURE_MALFUNCTION -> Cue.MALFUNCTION;
      case CI_TEST_FAILURE -> Cue.CI;
      case RUNTIME_CRASH -> Cue.ERROR;
      default -> null;
    };
  }

  /** The top-level class of a symptom label, with its confidence. */
  public Label<SymptomClass> symptomClass(Label<Symptom> s) {
    Symptom v = s.value();
    if (v == Symptom.NONE || v == Symptom.UNKNOWN) {
      return new Label<>(SymptomClass.valueOf(v.name()), s.confidence(), s.evidence(), s.humanGiven());
    }
    String cls = taxonomy.symptomClassOf(v.name()).orElse("UNKNOWN");
    return new Label<>(SymptomClass.valueOf(cls), s.confidence(), "class of " + v + " in " + taxonomy.version(),
        s.humanGiven());
  }

  // ------------------------------------------------------------------ stage

  private Label<Stage> stage(Ctx c, Kind kind, Symptom s) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(Stage.UNKNOWN, 0.8, "nothing reported (OTHER): no stage");
    }
    Zone titleZone = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (kind != Kind.OTHER
        && s != Symptom.BUILD_INSTALL_FAILURE
        && s != Symptom.IMPORT_ERROR
        && f.count(Cue.CHECKPOINT, titleZone) > f.count(Cue.ACT_CHECKPOINT, titleZone)) {
      return Label.predicted(Stage.FAULT_TOLERANCE, 0.75, "checkpoint in the title ('" + f.phrase(Cue.CHECKPOINT) + "')");
    }
    if (kind == Kind.BUG && f.in(Cue.ACT_CHECKPOINT, titleZone)) {
      return Label.predicted(Stage.MEMORY, 0.7, "activation checkpointing is a memory-stage feature");
    }
    switch (s) {
      case BUILD_INSTALL_FAILURE, IMPORT_ERROR, SETUP_FAILURE:
        return Label.predicted(Stage.INITIALIZATION, 0.85, s + " happens before the run starts");
      case CHECKPOINT_FAILURE:
        return Label.predicted(Stage.FAULT_TOLERANCE, 0.85, "checkpoint save/load/convert/resume");
      case OUT_OF_MEMORY, MEMORY_ANOMALY:
        return Label.predicted(Stage.MEMORY, 0.8, s + " is a memory-stage defect");
      case COMMUNICATION_FAILURE:
        return initOr(c, Stage.COMMUNICATION, "error raised by the communication library");
      case HANG:
        if (f.in(Cue.CHECKPOINT, c.pr() ? Zone.PR_TITLE : Zone.TITLE)) {
          return Label.predicted(Stage.FAULT_TOLERANCE, 0.7, "hang while saving or loading a checkpoint");
        }
        return initOr(c, Stage.COMMUNICATION, "hang during the run, in collectives");
      default:
        break;
    }
    EnumMap<Stage, Double> score = new EnumMap<>(Stage.class);
    score.put(Stage.SCHEDULING, 1.3 * f.score(Cue.SCHEDULING));
    // codebook 9: activation checkpointing is a memory-stage feature, whatever engine it runs in
    score.put(Stage.MEMORY, 1.0 * f.score(Cue.MEMORY) + 2.0 * f.score(Cue.ACT_CHECKPOINT));
    score.put(Stage.COMMUNICATION, 1.0 * f.score(Cue.COMMUNICATION));
    score.put(
        Stage.FAULT_TOLERANCE,
        1.2 * Math.max(0, f.score(Cue.CHECKPOINT) - f.score(Cue.ACT_CHECKPOINT)) + f.score(Cue.FAULT_TOLERANCE));
    // engine/model/process-group construction calls; for questions and requests, installing is start-up too
    double install = kind == Kind.BUG ? 0 : f.score(Cue.INSTALL) + f.score(Cue.BUILD_STRONG) + f.score(Cue.IMPORT);
    score.put(Stage.INITIALIZATION, 1.0 * f.score(Cue.INIT) + 3.0 * f.score(Cue.INIT_STRONG) + install
        + (kind == Kind.FEATURE_REQUEST ? 2.0 : 0));
    // wrong numbers (NaN, divergence, wrong gradients) show in the computation, whatever memory scheme runs,
    // unless the title blames a communication feature
    boolean numerics = s == Symptom.INCORRECT_OUTPUT && !f.in(Cue.COMMUNICATION, titleZone);
    score.put(Stage.COMPUTATION, 0.8 * f.score(Cue.COMPUTE) + (kind == Kind.BUG && !c.pr() ? 1.0 : 0)
        + (numerics ? 3.0 : 0));
    Stage best = Stage.UNKNOWN;
    double b = 0;
    double second = 0;
    for (Map.Entry<Stage, Double> e : score.entrySet()) {
      if (e.getValue() > b) {
        second = b;
        b = e.getValue();
        best = e.getKey();
      } else if (e.getValue() > second) {
        second = e.getValue();
      }
    }
    double min = c.pr() ? 4.0 : kind == Kind.BUG ? 1.0 : 2.0;
    if (b < min) {
      return Label.predicted(Stage.UNKNOWN, 0.3, "no stage words");
    }
    double conf = 0.4 + 0.5 * (b - second) / b;
    return Label.predicted(best, conf, String.format(Locale.ROOT, "stage words score %.1f vs %.1f", b, second));
  }

  private Label<Stage> initOr(Ctx c, Stage later, String why) {
    Features f = c.f();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (f.in(Cue.INIT, title) || f.in(Cue.INIT_STRONG, title) || f.count(Cue.INIT, Zone.BODY) >= 3) {
      return Label.predicted(Stage.INITIALIZATION, 0.65, "at start-up ('" + f.phrase(Cue.INIT) + "')");
    }
    return Label.predicted(later, 0.7, why);
  }

  // ------------------------------------------------------------------ phase

  private Label<Phase> phase(Ctx c, Kind kind, Symptom s, String framework) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(Phase.UNKNOWN, 0.8, "nothing reported (OTHER): no phase");
    }
    if (f.reporter(Cue.BOTH_PHASES) > 0) {
      return Label.predicted(Phase.BOTH, 0.6, "both phases ('" + f.phrase(Cue.BOTH_PHASES) + "')");
    }
    double tr = f.score(Cue.TRAINING);
    double inf = 1.3 * f.score(Cue.INFERENCE);
    if (tr < 1.0 && inf < 1.0) {
      if (framework != null
          && TRAINING_FRAMEWORKS.contains(framework)
          && (kind == Kind.BUG || kind == Kind.QUESTION || kind == Kind.FEATURE_REQUEST)
          && s != Symptom.BUILD_INSTALL_FAILURE
          && s != Symptom.IMPORT_ERROR) {
        return Label.predicted(Phase.TRAINING, 0.5, framework + " is a training framework; no inference words");
      }
      if (framework != null && INFERENCE_FRAMEWORKS.contains(framework) && kind == Kind.BUG) {
        return Label.predicted(Phase.INFERENCE, 0.5, framework + " is an inference engine; no training words");
      }
      return Label.predicted(Phase.UNKNOWN, 0.3, "text never says training or inference");
    }
    if (inf > tr) {
      return Label.predicted(
          Phase.INFERENCE, 0.5 + 0.4 * (inf - tr) / inf, "inference words ('" + f.phrase(Cue.INFERENCE) + "')");
    }
    return Label.predicted(Phase.TRAINING, 0.5 + 0.4 * (tr - inf) / tr, "training words ('" + f.phrase(Cue.TRAINING) + "')");
  }

  // ------------------------------------------------------------------ distributed-specific

  /** Distributed words needed (weighted, see {@link #distributed}) to call a defect distributed-specific. */
  private static final double DISTRIBUTED_MIN_SCORE = 3.0;

  private Label<Boolean> distributed(Ctx c, Kind kind, Symptom s) {
    if (kind != Kind.BUG) {
      return Label.predicted(null, 0.8, "no defect reported");
    }
    switch (s) {
      case SETUP_FAILURE, COMMUNICATION_FAILURE, OUTPUT_INCONSISTENCY_ACROSS_DEVICES, HANG:
        return Label.predicted(true, 0.85, s + " is distributed-specific");
      case BUILD_INSTALL_FAILURE, IMPORT_ERROR, CI_TEST_FAILURE:
        return Label.predicted(false, 0.85, s + " can happen on one device");
      default:
        break;
    }
    Features f = c.f();
    double d = f.score(Cue.DISTRIBUTED) + 0.4 * f.score(Cue.DISTRIBUTED_WEAK)
        + 2.0 * f.score(Cue.INIT_DISTRIBUTED);
    double single = f.score(Cue.SINGLE_DEVICE);
    if (d >= DISTRIBUTED_MIN_SCORE && single < d) {
      String p = f.phrase(Cue.DISTRIBUTED) != null ? f.phrase(Cue.DISTRIBUTED) : f.phrase(Cue.DISTRIBUTED_WEAK);
      return Label.predicted(true, Math.min(0.9, 0.5 + d / 20), "distributed words ('" + p + "')");
    }
    if (single > 0) {
      return Label.predicted(false, 0.5, "single-device words ('" + f.phrase(Cue.SINGLE_DEVICE) + "')");
    }
    if (!c.pr() && d == 0 && (s == Symptom.RUNTIME_CRASH || s == Symptom.FEATURE_MALFUNCTION)) {
      return Label.predicted(false, 0.4, "no distributed words at all");
    }
    return Label.predicted(null, 0.3, String.format(Locale.ROOT,
        "cannot tell whether it needs several devices (distributed words score %.1f, below %.0f)", d,
        DISTRIBUTED_MIN_SCORE));
  }

  // ------------------------------------------------------------------ root cause and fix

  /** Stated causes, most specific first: on a tie the earlier one wins. */
  private static final List<Map.Entry<Cue, RootCause>> CAUSES =
      List.of(
          Map.entry(Cue.CAUSE_COMMUNICATION, RootCause.DISTRIBUTED_COMMUNICATION_ERROR),
          Map.entry(Cue.CAUSE_CONCURRENCY, RootCause.CONCURRENCY_ERROR),
          Map.entry(Cue.CAUSE_DIST_TENSOR, RootCause.DISTRIBUTED_TENSOR_ERROR),
          Map.entry(Cue.CAUSE_EXCEPTION, RootCause.INCORRECT_EXCEPTION_HANDLING),
          Map.entry(Cue.CAUSE_DEPENDENCY, RootCause.DEPENDENT_MODULE_ISSUE),
          Map.entry(Cue.CAUSE_PRECONDITION, RootCause.PRECONDITION_MISSING),
          Map.entry(Cue.CAUSE_ASSIGNMENT, RootCause.INCORRECT_ASSIGNMENT),
          Map.entry(Cue.CAUSE_IMPLEMENTATION, RootCause.INCORRECT_IMPLEMENTATION),
          Map.entry(Cue.CAUSE_API_MISUSE, RootCause.API_MISUSE),
          Map.entry(Cue.CAUSE_CONFIG, RootCause.CONFIGURATION_ERROR));

  /** Stated fixes, most specific first. */
  private static final List<Map.Entry<Cue, FixPattern>> FIXES =
      List.of(
          Map.entry(Cue.FIX_VERSION_COMPAT, FixPattern.VERSION_COMPATIBILITY_HANDLING),
          Map.entry(Cue.FIX_CONDITION, FixPattern.CONDITIONAL_LOGIC),
          Map.entry(Cue.FIX_PARAMETER, FixPattern.PARAMETER_HANDLING),
          Map.entry(Cue.FIX_REWRITE, FixPattern.LOGIC_REWRITE));

  /** The table entry whose cue is stated most often (the first on ties, so the table's order is its priority). */
  private <T> Map.Entry<Cue, T> mostStated(Ctx c, List<Map.Entry<Cue, T>> table) {
    Map.Entry<Cue, T> best = null;
    int bestN = 0;
    for (Map.Entry<Cue, T> entry : table) {
      int n = stated(c, entry.getKey());
      if (n > bestN) {
        bestN = n;
        best = entry;
      }
    }
    return best;
  }

  /**
   * How often a cue occurs where the codebook accepts a diagnosis or a fix: a pull request's own title and
   * description, maintainers' comments, other comments of a thread that states a diagnosis or a resolution, and the
   * reporter's post when it carries an explicit code-level diagnosis.
   */
  private static int stated(Ctx c, Cue cue) {
    Features f = c.f();
    int n = f.count(cue, Zone.PR_TITLE) + f.count(cue, Zone.PR_BODY) + f.count(cue, Zone.MAINTAINER_COMMENT);
    if (f.in(Cue.DIAGNOSIS, Zone.COMMENT) || f.in(Cue.RESOLVED, Zone.COMMENT)
        || f.in(Cue.DIAGNOSIS, Zone.MAINTAINER_COMMENT) || f.in(Cue.RESOLVED, Zone.MAINTAINER_COMMENT)) {
      n += f.count(cue, Zone.COMMENT);
    }
    if (f.in(Cue.DIAGNOSIS, Zone.BODY)) {
      n += f.count(cue, Zone.BODY) + f.count(cue, Zone.TITLE);
    }
    return n;
  }

  private Label<RootCause> rootCause(Ctx c, Kind kind, Symptom s) {
    Features f = c.f();
    if (kind != Kind.BUG) {
      return Label.predicted(RootCause.UNKNOWN, 0.9, "no defect");
    }
    for (String label : c.in().labels()) {
      if (label.toLowerCase(Locale.ROOT).contains("upstream")) {
        return Label.predicted(RootCause.DEPENDENT_MODULE_ISSUE, 0.6, "GitHub label '" + label + "': bug in a dependency");
      }
    }
    Map.Entry<Cue, RootCause> cause = mostStated(c, CAUSES);
    if (cause != null) {
      return Label.predicted(cause.getValue(), 0.55, "stated cause ('" + f.phrase(cause.getKey()) + "')");
    }
    boolean resolved = f.count(Cue.RESOLVED, Zone.COMMENT) + f.count(Cue.RESOLVED, Zone.MAINTAINER_COMMENT) > 0
        || c.mergedFix();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (f.in(Cue.VERSION_CAUSE, title)) {
      return Label.predicted(
          RootCause.VERSION_INCOMPATIBILITY, 0.6, "title names a version incompatibility ('" + f.phrase(Cue.VERSION_CAUSE) + "')");
    }
    int versionWords = f.total(Cue.VERSION_CAUSE) - f.count(Cue.VERSION_CAUSE, Zone.TITLE);
    if (resolved && versionWords > 0 && f.total(Cue.VERSION_FIX) > 0) {
      return Label.predicted(RootCause.VERSION_INCOMPATIBILITY, 0.55,
          "resolution by a version change ('" + f.phrase(Cue.VERSION_FIX) + "', '" + f.phrase(Cue.VERSION_CAUSE) + "')");
    }
    if (s == Symptom.IMPORT_ERROR && !c.pr() && f.reporter(Cue.API_MOVED) > 0
        && f.count(Cue.VERSION_CAUSE, Zone.COMMENT) + f.count(Cue.VERSION_CAUSE, Zone.MAINTAINER_COMMENT)
            + f.count(Cue.INSTALL_ADVICE, Zone.COMMENT) + f.count(Cue.INSTALL_ADVICE, Zone.MAINTAINER_COMMENT) > 0) {
      return Label.predicted(RootCause.VERSION_INCOMPATIBILITY, 0.5,
          "a name the installed version does not export ('" + f.phrase(Cue.API_MOVED) + "'), replies point at versions");
    }
    if (f.any(Cue.CAUSE_ENVIRONMENT)) {
      return Label.predicted(RootCause.ENVIRONMENT_INCOMPATIBILITY, 0.5,
          "the error names an unsupported environment ('" + f.phrase(Cue.CAUSE_ENVIRONMENT) + "')");
    }
    return Label.predicted(RootCause.UNKNOWN, 0.8, "no diagnosis stated");
  }

  private Label<FixPattern> fixPattern(Ctx c, Kind kind, Symptom symptom) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(FixPattern.UNKNOWN, 0.8, "no defect");
    }
    int resolvedInThread = f.count(Cue.RESOLVED, Zone.COMMENT) + f.count(Cue.RESOLVED, Zone.MAINTAINER_COMMENT);
    int versionFixInThread = f.count(Cue.VERSION_FIX, Zone.COMMENT) + f.count(Cue.VERSION_FIX, Zone.MAINTAINER_COMMENT)
        + f.count(Cue.VERSION_FIX, Zone.PR_TITLE);
    if (resolvedInThread > 0 && versionFixInThread > 0) {
      return Label.predicted(FixPattern.VERSION_DEPENDENCY_MANAGEMENT, 0.55,
          "thread reports it resolved by '" + f.phrase(Cue.VERSION_FIX) + "'");
    }
    boolean installSymptom = symptom == Symptom.BUILD_INSTALL_FAILURE || symptom == Symptom.IMPORT_ERROR;
    if (installSymptom && !c.pr() && f.count(Cue.INSTALL_ADVICE, Zone.COMMENT) + f.count(Cue.INSTALL_ADVICE,
        Zone.MAINTAINER_COMMENT) > 0) {
      return Label.predicted(FixPattern.VERSION_DEPENDENCY_MANAGEMENT, 0.5,
          "a reply to a build/import failure says how to install ('" + f.phrase(Cue.INSTALL_ADVICE) + "')");
    }
    if (addsConditionInPatch(c.in())) {
      return Label.predicted(FixPattern.CONDITIONAL_LOGIC, 0.55, "a patch in the thread adds an if-branch");
    }
    Map.Entry<Cue, FixPattern> fix = mostStated(c, FIXES);
    if (fix != null) {
      return Label.predicted(fix.getValue(), 0.5, "stated fix ('" + f.phrase(fix.getKey()) + "')");
    }
    return Label.predicted(FixPattern.UNKNOWN, 0.8, "no resolution visible");
  }

  /** A unified diff in the body or a comment whose added lines open an {@code if}. Linear scan, no regex. */
  static boolean addsConditionInPatch(IssueText in) {
    if (addsCondition(in.body())) {
      return true;
    }
    for (Comment cm : in.comments()) {
      if (addsCondition(cm.body())) {
        return true;
      }
    }
    return false;
  }

  private static boolean addsCondition(String t) {
    if (t == null || t.indexOf("@@") < 0) {
      return false;
    }
    int i = t.indexOf("\n+");
    while (i >= 0) {
      int j = i + 2;
      while (j < t.length() && (t.charAt(j) == ' ' || t.charAt(j) == '\t')) {
        j++;
      }
      if (j > i + 2 && t.startsWith("if ", j)) {
        return true;
      }
      i = t.indexOf("\n+", i + 2);
    }
    return false;
  }

  // ------------------------------------------------------------------ helpers

  private <T extends Enum<T>> Label<T> threshold(Label<T> l, T unknown) {
    if (l.value() == unknown || l.confidence() >= config.confidenceThreshold()) {
      return l;
    }
    return Label.predicted(unknown, l.confidence(),
        String.format(Locale.ROOT, "below threshold %.2f: %s (%s)", config.confidenceThreshold(), l.value(), l.evidence()));
  }

  private EnumMap<Dimension, Label<String>> humanLabels(IssueText in) {
    EnumMap<Dimension, Label<String>> out = new EnumMap<>(Dimension.class);
    for (String label : in.labels()) {
      ClassifierConfig.LabelOverride o = config.labelOverrides().get(label.toLowerCase(Locale.ROOT));
      if (o != null && !out.containsKey(o.dimension())) {
        out.put(o.dimension(), Label.human(o.code(), "GitHub label '" + label + "'"));
      }
    }
    return out;
  }

  private static <T> Label<T> retype(Label<String> l, java.util.function.Function<String, T> parse) {
    return new Label<>(parse.apply(l.value()), l.confidence(), l.evidence(), true);
  }
}
