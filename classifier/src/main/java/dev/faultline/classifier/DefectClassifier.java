package dev.faultline.classifier;

/**
 * A classifier of issues and merged changes under the taxonomy: the rules ({@link
 * dev.faultline.classifier.rules.Classifier}) or the learned layer over them ({@link
 * dev.faultline.classifier.learned.LearnedClassifier}). Implementations are thread-safe.
 */
public interface DefectClassifier {

  /** Classifies an issue or a merged change. */
  Classification classify(IssueText in);

  /** Classifies a merged change whose files and diff are known (the rules read only its text). */
  default Classification classify(IssueText in, ChangeDetails change) {
    return classify(in);
  }

  /** The version stored with every label it gives. */
  String version();
}
