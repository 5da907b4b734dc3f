package dev.faultline.classifier.rules;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.classifier.internal.CueMatcher;
import dev.faultline.classifier.internal.Tokenizer;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Explainable rule-based classifier of defect reports under taxonomy v1 (see the codebook). Every
 * dimension gets a code, a confidence and the evidence (rule and words) that decided it; below the
 * configured threshold a dimension answers {@code UNKNOWN}. Root cause and fix pattern are only
 * assigned on explicit diagnosis or fix evidence. GitHub labels configured in {@link
 * ClassifierConfig#labelOverrides()} win over the rules and are marked human-given.
 *
 * <p>This class only orchestrates: each dimension's rules are one class in {@link
 * dev.faultline.classifier.rules}, taking the shared {@link Evidence} and the labels it depends on
 * as arguments, called in the order of {@link #analyse}: kind; symptom (bug reports only); stage,
 * phase, distributed-specific, root cause and fix pattern (each from the kind and the thresholded
 * symptom); people's labels; symptom class (from the final symptom); framework and versions.
 *
 * <p>{@link #classify} gives each label the probabilities of {@link RulesCalibration} (the rules'
 * cross-validated confusion: its confidence becomes the probability that its answer is right) and
 * conditions the bug-only dimensions on people's labels ({@link
 * Classification#conditionedOnPeople}); {@link #analyse} keeps the rules' own confidences, which
 * the learned layer reads as features.
 *
 * <p>Thread-safe and free of I/O per call: all phrase tables are compiled in the constructor; each
 * call builds its own token index.
 */
public final class Classifier implements DefectClassifier {

  /**
   * Version of the rules and taxonomy that produced a classification; stored with every label in
   * the graph.
   */
  public static final String VERSION = "rules-1.3.1+taxonomy-v1";

  private final ClassifierConfig config;
  private final RulesCalibration calibration;
  private final Tokenizer tokenizer = new Tokenizer();
  private final CueMatcher matcher;
  private final KindRule kindRule = new KindRule();
  private final SymptomRule symptomRule = new SymptomRule();
  private final StageRule stageRule = new StageRule();
  private final PhaseRule phaseRule = new PhaseRule();
  private final DistributedSpecificRule distributedRule = new DistributedSpecificRule();
  private final RootCauseRule rootCauseRule = new RootCauseRule();
  private final FixPatternRule fixPatternRule = new FixPatternRule();
  private final SymptomClassRule symptomClassRule;
  private final FrameworkRule frameworkRule = new FrameworkRule();

  /** The rules with the shipped confusion ({@link RulesCalibration#bundled()}). */
  public Classifier(ClassifierConfig config) {
    this(config, RulesCalibration.bundled());
  }

  public Classifier(ClassifierConfig config, RulesCalibration calibration) {
    this.config = Objects.requireNonNull(config, "config");
    this.calibration = Objects.requireNonNull(calibration, "calibration");
    this.matcher = new CueMatcher(tokenizer);
    this.symptomClassRule = new SymptomClassRule(Taxonomy.load());
  }

  /**
   * Classifies one issue or pull request: the rules' labels with their calibrated probabilities,
   * conditioned on people's labels.
   */
  @Override
  public Classification classify(IssueText in) {
    return calibrated(analyse(in).classification(), in.isMergedPullRequest());
  }

  /**
   * The rules' labels of {@link #analyse} with the probabilities of their confusion rows ({@link
   * RulesCalibration#calibrate}), the symptom class summing its symptoms', and the bug-only
   * dimensions conditioned on people's labels.
   *
   * @param change whether the item is a merged change (its rows differ from an issue's)
   */
  public Classification calibrated(Classification rules, boolean change) {
    Classification c =
        rules.mapLabels((d, l) -> d.labelled() ? calibration.calibrate(d, l, change) : l);
    return c.with(Dimension.SYMPTOM_CLASS, l -> symptomClass(c.symptom())).conditionedOnPeople();
  }

  /** The rules' confusion in use. */
  public RulesCalibration calibration() {
    return calibration;
  }

  @Override
  public String version() {
    return VERSION;
  }

  /**
   * The rules' answer together with the cue counts they read: what the learned layer takes as
   * features.
   *
   * @param classification the rules' labels
   * @param reporterCues cue name to its count in the title, opening post and pull-request text
   *     (non-zero only)
   * @param threadCues cue name to its count in the comments (non-zero only)
   */
  public record Analysis(
      Classification classification,
      Map<String, Integer> reporterCues,
      Map<String, Integer> threadCues) {}

  /** Classifies one issue or pull request and keeps the cue counts. */
  public Analysis analyse(IssueText in) {
    Objects.requireNonNull(in, "in");
    Evidence e = Evidence.gather(in, tokenizer, matcher);
    String repoFramework = frameworkRule.ofRepository(e);

    // 1. kind, from the evidence alone
    Label<Kind> kind = kindRule.decide(e);
    // 2. symptom: bug reports only; every later rule reads the symptom after the threshold
    Label<Symptom> symptom =
        kind.value() == Kind.BUG
            ? symptomRule.decide(e)
            : Label.predicted(
                Symptom.NONE, kind.confidence(), "not a defect report (" + kind.value() + ")");
    symptom = threshold(symptom, Symptom.UNKNOWN);
    // 3. the dimensions that depend on the kind and the symptom (the rules' own, before people's
    // labels)
    Label<Stage> stage =
        threshold(stageRule.decide(e, kind.value(), symptom.value()), Stage.UNKNOWN);
    Label<Phase> phase =
        threshold(phaseRule.decide(e, kind.value(), symptom.value(), repoFramework), Phase.UNKNOWN);
    Label<Boolean> distributed = distributedRule.decide(e, kind.value(), symptom.value());
    Label<RootCause> rootCause =
        threshold(rootCauseRule.decide(e, kind.value(), symptom.value()), RootCause.UNKNOWN);
    Label<FixPattern> fix =
        threshold(fixPatternRule.decide(e, kind.value(), symptom.value()), FixPattern.UNKNOWN);

    // 4. people's labels win
    HumanLabels human = HumanLabels.of(config, in);
    kind = human.or(Dimension.KIND, kind, Kind::valueOf);
    symptom = human.or(Dimension.SYMPTOM, symptom, Symptom::valueOf);
    stage = human.or(Dimension.STAGE, stage, Stage::valueOf);
    phase = human.or(Dimension.PHASE, phase, Phase::valueOf);
    // 5. the class of the final symptom (probabilities come with classify())
    Label<SymptomClass> symptomClass = symptomClass(symptom);
    // 6. framework and versions
    Label<String> framework = frameworkRule.decide(e, repoFramework);
    Map<String, String> found = frameworkRule.versions(e, repoFramework);
    return new Analysis(
        new Classification(
            Map.of(
                Dimension.KIND, kind,
                Dimension.SYMPTOM, symptom,
                Dimension.SYMPTOM_CLASS, symptomClass,
                Dimension.ROOT_CAUSE, rootCause,
                Dimension.FIX_PATTERN, fix,
                Dimension.STAGE, stage,
                Dimension.PHASE, phase,
                Dimension.DISTRIBUTED_SPECIFIC, distributed),
            framework,
            found,
            Provenance.rules(VERSION)),
        e.reporterCues(),
        e.threadCues());
  }

  /** The confidence threshold in force. */
  public ClassifierConfig config() {
    return config;
  }

  /** The top-level class of a symptom label, with its confidence. */
  public Label<SymptomClass> symptomClass(Label<Symptom> s) {
    return symptomClassRule.decide(s);
  }

  /**
   * Below the threshold a label answers its dimension's {@code unknown}, keeping the rules' answer
   * as evidence.
   */
  private <T extends Enum<T>> Label<T> threshold(Label<T> l, T unknown) {
    if (l.value() == unknown || l.confidence() >= config.confidenceThreshold()) {
      return l;
    }
    return Label.predicted(
        unknown,
        l.confidence(),
        String.format(
            Locale.ROOT,
            "below threshold %.2f: %s (%s)",
            config.confidenceThreshold(),
            l.value(),
            l.evidence()));
  }
}
