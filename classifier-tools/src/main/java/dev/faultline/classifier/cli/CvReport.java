package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.classifier.learned.Target;
import java.io.PrintStream;
import java.util.Locale;

/** Prints the cross-validated figures that {@code train} stored in the learned model's report. */
final class CvReport {
  private CvReport() {}

  static void print(JsonNode report, PrintStream out) {
    JsonNode cv = report.path("crossValidation");
    if (cv.isMissingNode()) {
      out.println();
      out.println("The learned model carries no cross-validated figures (trained with --no-cv).");
      return;
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "Learned layer, %d-fold cross-validation on its training corpus (%d items; folds grouped by"
            + " issue; every answer from a model that did not see it):%n",
        report.path("folds").asInt(),
        report.path("items").asInt());
    for (String part : new String[] {"all", "issues", "changes", "byRepository"}) {
      if (cv.has(part)) {
        printPart(cv, part, out);
      }
    }
    printAblation(cv, out);
    printCalibration(report.path("calibration"), out);
  }

  /** One part of the cross-validation (all items, issues, changes, by repository): figures. */
  private static void printPart(JsonNode cv, String part, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "-- %s --%n",
        part.equals("byRepository")
            ? "leave one repository out (each repository answered by a model trained on the others)"
            : part);
    out.printf(
        Locale.ROOT,
        "%-22s %-8s %8s %-13s %6s %6s %6s %6s %6s%n",
        "dimension",
        "answers",
        "macroF1",
        "bootstrap CI",
        "top30",
        "top50",
        "top70",
        "all",
        "ECE");
    for (Target t : Target.values()) {
      for (String who : new String[] {"rules", "learned"}) {
        JsonNode f = cv.path(part).path(t.field).path(who);
        if (f.isMissingNode()) {
          continue;
        }
        out.printf(
            Locale.ROOT,
            "%-22s %-8s %8.3f %-13s %6.3f %6.3f %6.3f %6.3f %6.3f%n",
            t.field,
            who,
            f.path("macroF1").asDouble(),
            f.has("macroF1Low")
                ? String.format(
                    Locale.ROOT,
                    "[%.2f–%.2f]",
                    f.path("macroF1Low").asDouble(),
                    f.path("macroF1High").asDouble())
                : "",
            f.path("top30").asDouble(),
            f.path("top50").asDouble(),
            f.path("top70").asDouble(),
            f.path("accuracy").asDouble(),
            f.path("ece").asDouble());
      }
    }
  }

  private static void printAblation(JsonNode cv, PrintStream out) {
    JsonNode alone = cv.path("modelAlone");
    JsonNode curve = cv.path("learningCurve");
    out.println(
        "-- ablation (macro-F1): rules alone, model alone (no rule features), both; learning curve of both"
            + " at 25/50/100% of each training fold --");
    out.printf(
        Locale.ROOT,
        "%-22s %7s %7s %7s   %7s %7s %7s%n",
        "dimension",
        "rules",
        "model",
        "both",
        "25%",
        "50%",
        "100%");
    for (Target t : Target.values()) {
      out.printf(
          Locale.ROOT,
          "%-22s %7.3f %7.3f %7.3f   %7.3f %7.3f %7.3f%n",
          t.field,
          cv.path("all").path(t.field).path("rules").path("macroF1").asDouble(Double.NaN),
          alone.path(t.field).path("model").path("macroF1").asDouble(Double.NaN),
          cv.path("all").path(t.field).path("learned").path("macroF1").asDouble(Double.NaN),
          curve.path(t.field).path("25").asDouble(Double.NaN),
          curve.path(t.field).path("50").asDouble(Double.NaN),
          curve.path(t.field).path("100").asDouble(Double.NaN));
    }
  }

  private static void printCalibration(JsonNode cal, PrintStream out) {
    out.println(
        "-- calibration: softmax temperature and abstention threshold (fitted on a held-back quarter), and the"
            + " confidence from which cross-validated precision is 0.9 (the statistics' default bar) --");
    for (Target t : Target.values()) {
      JsonNode c = cal.path(t.field);
      out.printf(
          Locale.ROOT,
          "%-22s temperature %.3f  abstains below %.2f  precision 0.9 from %.3f%n",
          t.field,
          c.path("temperature").asDouble(),
          c.path("threshold").asDouble(),
          c.path("precisionLevel").asDouble());
    }
  }
}
