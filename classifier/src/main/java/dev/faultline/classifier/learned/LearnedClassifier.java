package dev.faultline.classifier.learned;

import dev.faultline.classifier.Calibrations;
import dev.faultline.classifier.ChangeDetails;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.LinkedPullRequest;
import dev.faultline.classifier.Provenance;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The offline default classifier: the rules, then a calibrated learned layer that reads the rules'
 * answers and cue counts, the encoder's vector of the text, words of title and text, GitHub labels,
 * and for merged changes their files and diff. Every label's confidence is the calibrated
 * probability that it is right; below its dimension's threshold a dimension answers UNKNOWN
 * (distributed-specific: cannot tell). The evidence names the features that weighed most and the
 * nearest labelled training items (ids and labels); each label's distribution is the layer's
 * calibrated probabilities ({@code cv:<version>}). People's GitHub labels still win (and condition
 * the dimensions only a bug report has: {@link Classification#conditionedOnPeople}), framework and
 * versions come from the rules, and a merged pull request linked to an issue lends the issue its
 * root cause and fix pattern when the model is surer of them from the change than from the issue.
 *
 * <p>Thread-safe; loads the artefact and the encoder once per JVM through {@link #shared()}.
 */
public final class LearnedClassifier implements DefectClassifier {

  /** The learned layer's own version; stored with the rules' version as the classifier version. */
  public static final String LAYER_VERSION = "learned-1.1";

  /** Nearest labelled items named in the evidence. */
  static final int NEIGHBOURS = 3;

  private final Classifier rules;
  private final TextEmbedder embedder;
  private final LearnedModel model;
  private final String version;
  private final String fingerprint;

  public LearnedClassifier(Classifier rules, TextEmbedder embedder, LearnedModel model) {
    this(rules, embedder, model, null);
  }

  /** With a fingerprint already checked ({@link #withVectorStore}), else checks the encoder's. */
  private LearnedClassifier(
      Classifier rules, TextEmbedder embedder, LearnedModel model, String fingerprint) {
    this.rules = Objects.requireNonNull(rules, "rules");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.model = Objects.requireNonNull(model, "model");
    if (!embedder.name().equals(model.encoder())) {
      throw new IllegalArgumentException(
          "the learned model was trained with encoder "
              + model.encoder()
              + ", not "
              + embedder.name());
    }
    this.version = model.version();
    this.fingerprint =
        fingerprint != null
            ? fingerprint
            : EncoderFingerprint.check(embedder, model.encoderFingerprint());
  }

  /**
   * The same classifier (rules, artefact, encoder, fingerprint) with its own memory of vectors in
   * front of a {@link VectorStore}: on a memory miss the store is asked for the vector under the
   * text's {@link StoredVectors#keyOf key} before the encoder is called. Labels are the same as
   * without the store as long as the store returns what it was given under each key.
   */
  public LearnedClassifier withVectorStore(VectorStore store) {
    TextEmbedder encoder = embedder;
    int capacity = VectorCache.CAPACITY;
    if (embedder instanceof VectorCache c) {
      encoder = c.inner();
      capacity = c.capacity();
    }
    if (encoder instanceof StoredVectors s) {
      encoder = s.encoder();
    }
    return new LearnedClassifier(
        rules,
        new VectorCache(new StoredVectors(encoder, fingerprint, store), capacity),
        model,
        fingerprint);
  }

  /** The encoder's numeric fingerprint on this machine ({@link EncoderFingerprint}). */
  public String encoderFingerprint() {
    return fingerprint;
  }

  /** The encoder chain (memory cache, store, encoder) this classifier reads vectors from. */
  public TextEmbedder embedder() {
    return embedder;
  }

  private static final class Holder {
    static final LearnedClassifier INSTANCE =
        warmedUp(
            new LearnedClassifier(
                new Classifier(ClassifierConfig.defaults()),
                new VectorCache(MiniLmEmbedder.shared(), VectorCache.CAPACITY),
                LearnedModel.bundled()));
  }

  /**
   * The JVM's one learned classifier over the default rules and the committed artefact, warmed up.
   */
  public static LearnedClassifier shared() {
    return Holder.INSTANCE;
  }

  /**
   * Synthetic issues of the warm-up (our own wording): short and long, with a traceback, a comment
   * and labels.
   */
  private static final String[] WARM_UP = {
    "Training hangs in all_reduce after the first step on two nodes",
    "RuntimeError: CUDA out of memory while saving a checkpoint with stage 3 offload",
    "How do I set the micro batch size for pipeline parallel inference?",
    "Loss is nan with bf16 and gradient accumulation; works in fp32.\nTraceback (most recent call last):\n"
        + "  File \"engine.py\", line 12, in step\nRuntimeError: expected all tensors to be on the same device",
  };

  /**
   * Classifies a few synthetic issues before the first real one: the encoder's first runs (ONNX
   * Runtime allocates its buffers and picks its kernels then) and the first compilations of the
   * rules and features take several times a warm call, and a stream's first deliveries would
   * otherwise queue behind them. About half a second, once per JVM.
   */
  static LearnedClassifier warmedUp(LearnedClassifier c) {
    for (int round = 0; round < 8; round++) {
      for (int i = 0; i < WARM_UP.length; i++) {
        String body =
            String.join(
                "\n",
                java.util.Collections.nCopies(round + 1, WARM_UP[(i + round) % WARM_UP.length]));
        c.classify(
            new IssueText(
                "warm-up/warm-up",
                i + 1,
                WARM_UP[i],
                body,
                List.of(round % 2 == 0 ? "bug" : "question"),
                List.of(
                    new dev.faultline.classifier.Comment(
                        "someone", false, WARM_UP[(i + 1) % WARM_UP.length])),
                List.of(),
                "open"));
      }
    }
    return c;
  }

  /** The classifier version of an artefact trained now. */
  public static String versionFor() {
    return LAYER_VERSION + "+" + Classifier.VERSION;
  }

  @Override
  public String version() {
    return version;
  }

  /** The artefact in use. */
  public LearnedModel model() {
    return model;
  }

  @Override
  public Classification classify(IssueText in) {
    return classify(in, ChangeDetails.NONE);
  }

  @Override
  public Classification classify(IssueText in, ChangeDetails change) {
    return classifyKeyed(in, change).classification();
  }

  /**
   * A classification with the text vector it used and that vector's stable key ({@link
   * StoredVectors#keyOf}: encoder name, fingerprint, the word pieces read): what a {@link
   * VectorStore} keeps.
   *
   * @param vector the issue text's vector (the caller's own copy)
   */
  public record Keyed(Classification classification, String vectorKey, float[] vector) {}

  /** As {@link #classify(IssueText, ChangeDetails)}, with the issue text's vector and its key. */
  public Keyed classifyKeyed(IssueText in, ChangeDetails change) {
    Classifier.Analysis a = rules.analyse(in);
    String text = FeatureExtractor.embeddingText(in);
    Object inputKey = embedder.inputKey(text);
    float[] v = embedder.embed(text, inputKey);
    String vectorKey = StoredVectors.keyOf(embedder.name(), fingerprint, inputKey);
    return new Keyed(classifyWith(in, change, a, v), vectorKey, v);
  }

  private Classification classifyWith(
      IssueText in, ChangeDetails change, Classifier.Analysis a, float[] v) {
    Scored s = score(FeatureExtractor.extract(in, change, a, v));
    List<Neighbours.Near> near = model.neighbours().nearest(v, NEIGHBOURS);
    Classification r = a.classification();

    Map<Dimension, Label<?>> labels = new LinkedHashMap<>();
    for (Target t : Target.values()) {
      labels.put(t.dimension, label(s, t, near, r.label(t.dimension)));
    }

    // A merged fix linked to the issue says how it was caused and fixed better than the issue's own
    // thread.
    for (LinkedPullRequest p : in.pullRequests()) {
      if (!p.merged() || in.isMergedPullRequest()) {
        continue;
      }
      IssueText pr =
          new IssueText(
              in.repo(), 0, p.title(), p.body(), List.of(), List.of(), List.of(), "merged");
      Classifier.Analysis pa = rules.analyse(pr);
      Scored ps =
          score(
              FeatureExtractor.extract(
                  pr, ChangeDetails.NONE, pa, embedder.embed(FeatureExtractor.embeddingText(pr))));
      for (Target t : List.of(Target.ROOT_CAUSE, Target.FIX_PATTERN)) {
        labels.put(t.dimension, fromFix(labels.get(t.dimension), ps, t, p));
      }
    }
    @SuppressWarnings("unchecked")
    Label<Symptom> symptom = (Label<Symptom>) labels.get(Dimension.SYMPTOM);
    labels.put(Dimension.SYMPTOM_CLASS, rules.symptomClass(symptom));
    return new Classification(labels, r.framework(), r.versions(), Provenance.learned(version))
        .conditionedOnPeople();
  }

  /** The answers and what decided them. */
  private record Scored(
      SparseVector x, Map<Target, Decision.Answer> answers, Map<Target, double[]> probabilities) {}

  private Scored score(RawFeatures raw) {
    SparseVector x = model.vectorizer().vectorize(raw);
    Map<Target, double[]> p = new java.util.TreeMap<>();
    model.models().forEach((t, m) -> p.put(t, m.probabilities(x)));
    return new Scored(x, Decision.decide(model.models(), p), p);
  }

  private Label<?> label(Scored s, Target t, List<Neighbours.Near> near, Label<?> rulesLabel) {
    if (rulesLabel.humanGiven()) {
      return rulesLabel;
    }
    Decision.Answer a = s.answers().get(t);
    return Label.<Object>predicted(
            t.dimension.parse(a.code()), a.confidence(), evidence(s, t, a, near))
        .withDistribution(distribution(s, t))
        .withCalibration(Calibrations.cv(version));
  }

  /**
   * The calibrated probability of every code of a target, also where the answer abstains; the
   * symptom's is P(bug) x P(symptom | bug), with NONE = 1 - P(bug) ({@link Decision}).
   */
  private Map<String, Double> distribution(Scored s, Target t) {
    DimensionModel m = model.models().get(t);
    double[] p = s.probabilities().get(t);
    if (t != Target.SYMPTOM) {
      return Distributions.ofClasses(t.dimension, m.classes(), p);
    }
    DimensionModel km = model.models().get(Target.KIND);
    double pBug =
        DimensionModel.probabilityOf(km.classes(), s.probabilities().get(Target.KIND), "BUG");
    double notNone = 1.0 - DimensionModel.probabilityOf(m.classes(), p, "NONE");
    double scale = notNone <= 1e-12 ? 0.0 : pBug / notNone;
    double[] q = new double[p.length];
    for (int k = 0; k < p.length; k++) {
      q[k] = "NONE".equals(m.classes().get(k)) ? 1.0 - pBug : p[k] * scale;
    }
    return Distributions.ofClasses(t.dimension, m.classes(), q);
  }

  private Label<?> fromFix(Label<?> own, Scored ps, Target t, LinkedPullRequest p) {
    Decision.Answer a = ps.answers().get(t);
    boolean known = !a.abstained() && !a.code().equals(t.abstain);
    boolean ownUnknown = own.value() == null || own.value().toString().equals(t.abstain);
    if (own.humanGiven() || !known || (!ownUnknown && a.confidence() <= own.confidence())) {
      return own;
    }
    String title = p.title().length() > 80 ? p.title().substring(0, 80) + "…" : p.title();
    return Label.<Object>predicted(
            t.dimension.parse(a.code()),
            a.confidence(),
            String.format(
                Locale.ROOT,
                "from the merged fix \"%s\": p=%.2f; %s",
                title,
                a.confidence(),
                topFeatures(ps.x(), t, a.code())))
        .withDistribution(distribution(ps, t))
        .withCalibration(Calibrations.cv(version));
  }

  private String evidence(Scored s, Target t, Decision.Answer a, List<Neighbours.Near> near) {
    StringBuilder b = new StringBuilder();
    DimensionModel m = model.models().get(t);
    if (a.abstained()) {
      b.append(
          String.format(
              Locale.ROOT, "below threshold %.2f: p=%.2f", m.threshold(), a.confidence()));
    } else {
      b.append(String.format(Locale.ROOT, "model p=%.2f", a.confidence()));
    }
    if (t == Target.SYMPTOM && "NONE".equals(a.code())) {
      b.append(" (not a bug report)");
    } else {
      b.append("; ").append(topFeatures(s.x(), t, a.code()));
    }
    if (!near.isEmpty()) {
      b.append("; nearest labelled: ");
      List<String> parts = new ArrayList<>();
      for (Neighbours.Near n : near) {
        parts.add(
            String.format(
                Locale.ROOT,
                "%s (%s, %.2f)",
                n.id(),
                n.labels().getOrDefault(t.field, "?"),
                n.similarity()));
      }
      b.append(String.join(", ", parts));
    }
    return b.toString();
  }

  /** The three features that added most to the answer's score, with their contributions. */
  private String topFeatures(SparseVector x, Target t, String code) {
    DimensionModel m = model.models().get(t);
    int k = m.classes().indexOf(code);
    if (k < 0) {
      return "no features (class unseen in training)";
    }
    float[] w = m.weights()[k];
    Map<String, Double> contrib = new HashMap<>();
    for (int i = 0; i < x.index().length; i++) {
      double c = w[x.index()[i]] * x.value()[i];
      contrib.merge(model.vectorizer().name(x.index()[i]), c, Double::sum);
    }
    List<Map.Entry<String, Double>> top =
        contrib.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .sorted(
                Map.Entry.<String, Double>comparingByValue()
                    .reversed()
                    .thenComparing(Map.Entry.comparingByKey()))
            .limit(3)
            .toList();
    if (top.isEmpty()) {
      return "no feature for it (prior)";
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Double> e : top) {
      parts.add(String.format(Locale.ROOT, "%s (+%.2f)", e.getKey(), e.getValue()));
    }
    return "features: " + String.join(", ", parts);
  }
}
