package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.Kind;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Kind: what the report is (bug, question, request, documentation, other). Depends on no other
 * dimension.
 */
public final class KindRule {

  /** The kind of the report. */
  public Label<Kind> decide(Evidence c) {
    if (c.pr()) {
      return pullRequest(c.f());
    }
    Optional<Label<Kind>> template = template(c);
    if (template.isPresent()) {
      return template.get();
    }
    Signals s = Signals.of(c);
    return nearlyEmpty(c, s).or(() -> fromTitle(c.f(), s)).orElseGet(() -> fromReport(c.f(), s));
  }

  /** What the report's title and text say, read once for the decisions below. */
  private record Signals(
      int bodyTokens,
      boolean traceback,
      boolean errorInReport,
      boolean docTitle,
      boolean featureTitle,
      boolean questionTitle,
      boolean strongBug) {
    static Signals of(Evidence c) {
      Features f = c.f();
      String tag = c.tag();
      int bodyTokens = c.index().tokenCount(Zone.BODY);
      boolean traceback = f.any(Cue.TRACEBACK) || f.any(Cue.HARD_CRASH);
      double symptomEvidence = strongSymptomScore(f);
      boolean errorInReport = traceback || f.reporter(Cue.ERROR) > 0 || symptomEvidence > 0;
      boolean docTitle = f.in(Cue.DOC, Zone.TITLE) || Evidence.tagIs(tag, "doc");
      boolean featureTitle =
          Evidence.tagIs(tag, "feature", "request", "enhancement", "shardformer", "proposal")
              || (f.in(Cue.FEATURE, Zone.TITLE) && !f.in(Cue.ERROR, Zone.TITLE));
      boolean questionTitle =
          Evidence.tagIs(tag, "question", "help", "usage")
              || f.in(Cue.QUESTION, Zone.TITLE)
              || (c.in().title().trim().endsWith("?") && !Evidence.tagIs(tag, "bug"));
      boolean strongBug = traceback || symptomEvidence >= 3 || f.in(Cue.ERROR, Zone.TITLE);
      return new Signals(
          bodyTokens, traceback, errorInReport, docTitle, featureTitle, questionTitle, strongBug);
    }
  }

  /** A merged pull request describes a fix, unless its title is about docs and nothing broke. */
  private static Label<Kind> pullRequest(Features f) {
    boolean behaviourBroken =
        f.in(Cue.ERROR, Zone.PR_TITLE)
            || f.in(Cue.ERROR, Zone.PR_BODY)
            || f.in(Cue.INCORRECT, Zone.PR_BODY);
    if (f.in(Cue.DOC, Zone.PR_TITLE) && !behaviourBroken) {
      return Label.predicted(
          Kind.DOCUMENTATION, 0.7, "pull request title about docs: '" + f.phrase(Cue.DOC) + "'");
    }
    return Label.predicted(Kind.BUG, 0.6, "merged pull request: describes a fix");
  }

  /** An unfilled or empty issue template is OTHER. */
  private static Optional<Label<Kind>> template(Evidence c) {
    Features f = c.f();
    if (f.any(Cue.TEMPLATE_PLACEHOLDER) || placeholderTitle(c.in().title())) {
      return Optional.of(Label.predicted(Kind.OTHER, 0.8, "unfilled template placeholder"));
    }
    // codebook 9: an empty template is OTHER: a title that is only the template's tag over the
    // template's own text
    if (c.in().comments().isEmpty()
        && placeholderTitle(Evidence.TITLE_TAG.matcher(c.in().title()).replaceFirst(""))
        && f.count(Cue.TEMPLATE_BOILERPLATE, Zone.BODY) >= 3
        && c.index().tokenCount(Zone.BODY) < 150) {
      return Optional.of(
          Label.predicted(
              Kind.OTHER, 0.75, "template tag as title over the template's unedited text"));
    }
    return Optional.empty();
  }

  private static Optional<Label<Kind>> nearlyEmpty(Evidence c, Signals s) {
    if (s.bodyTokens() < 12
        && c.in().comments().isEmpty()
        && !s.errorInReport()
        && !s.docTitle()
        && !s.featureTitle()
        && !s.questionTitle()
        && c.in().title().length() < 40) {
      return Optional.of(
          Label.predicted(
              Kind.OTHER, 0.6, "nearly empty report (" + s.bodyTokens() + " words in the body)"));
    }
    return Optional.empty();
  }

  /** Docs, a question or a request named in the title, unless a failure outweighs it. */
  private static Optional<Label<Kind>> fromTitle(Features f, Signals s) {
    // "Spelling error in the README": the error is the text's, not the code's
    boolean docFault = s.docTitle() && f.in(Cue.DOC_FAULT, Zone.TITLE) && !s.traceback();
    if (s.docTitle() && (!s.strongBug() || docFault)) {
      return Optional.of(
          Label.predicted(
              Kind.DOCUMENTATION,
              0.7,
              "docs in the title ('" + f.phrase(Cue.DOC) + "'), no failure"));
    }
    boolean failureInTitle =
        f.in(Cue.ERROR, Zone.TITLE) || f.in(Cue.IMPORT, Zone.TITLE) || f.in(Cue.OOM, Zone.TITLE);
    // codebook 9: a "[QUESTION]" whose post carries a traceback of the framework's code is a bug
    // report
    boolean tracebackInPost = f.in(Cue.TRACEBACK, Zone.BODY);
    if (s.questionTitle()
        && !failureInTitle
        && !tracebackInPost
        && !(s.traceback() && f.reporter(Cue.ERROR) > 2)) {
      return Optional.of(
          Label.predicted(Kind.QUESTION, 0.65, "question in the title, no framework traceback"));
    }
    if (s.featureTitle() && !s.traceback()) {
      return Optional.of(
          Label.predicted(
              Kind.FEATURE_REQUEST,
              0.65,
              "request in the title ('" + f.phrase(Cue.FEATURE) + "')"));
    }
    return Optional.empty();
  }

  /** From the reporter's text: a question, request or docs without a failure, else a bug. */
  private static Label<Kind> fromReport(Features f, Signals s) {
    boolean errorInReport = s.errorInReport();
    // a feature that silently misbehaves, or an incompatibility named in the title, is a reported
    // failure too
    boolean quietFailure = f.reporter(Cue.MALFUNCTION) > 0 || f.in(Cue.VERSION_CAUSE, Zone.TITLE);
    if (!errorInReport && !quietFailure && f.reporter(Cue.QUESTION) > 0) {
      return Label.predicted(
          Kind.QUESTION, 0.5, "asks '" + f.phrase(Cue.QUESTION) + "', reports no failure");
    }
    if (!errorInReport && f.reporter(Cue.FEATURE) > 1) {
      return Label.predicted(
          Kind.FEATURE_REQUEST,
          0.5,
          "asks for '" + f.phrase(Cue.FEATURE) + "', reports no failure");
    }
    if (!errorInReport && f.reporter(Cue.DOC) > 0) {
      return Label.predicted(
          Kind.DOCUMENTATION, 0.45, "about '" + f.phrase(Cue.DOC) + "', reports no failure");
    }
    String why =
        s.traceback()
            ? "traceback or crash"
            : errorInReport
                ? "failure reported ('" + Evidence.firstOf(f, Cue.ERROR) + "')"
                : "default: a report in an issue tracker of a framework";
    return Label.predicted(Kind.BUG, errorInReport ? 0.8 : 0.45, why);
  }

  private static final Set<String> PLACEHOLDER_TITLES =
      Set.of(
          "delete",
          "deleted",
          "del",
          "remove",
          "removed",
          "test",
          "testing",
          "none",
          "null",
          "na",
          "n/a",
          "spam",
          "-",
          ".",
          "title",
          "issue",
          "untitled",
          "ignore",
          "please delete");

  /** A title that only says the post was withdrawn or is a test: spam or an emptied report. */
  static boolean placeholderTitle(String title) {
    String t = title.trim().toLowerCase(Locale.ROOT);
    while (t.endsWith(".") || t.endsWith("!")) {
      t = t.substring(0, t.length() - 1).trim();
    }
    return t.isEmpty() || PLACEHOLDER_TITLES.contains(t);
  }

  private static double strongSymptomScore(Features f) {
    return f.score(Cue.OOM)
        + f.score(Cue.HANG)
        + f.score(Cue.IMPORT)
        + f.score(Cue.BUILD_STRONG)
        + f.score(Cue.COMM_ERROR);
  }
}
