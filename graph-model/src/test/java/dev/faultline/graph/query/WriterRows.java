package dev.faultline.graph.query;

import dev.faultline.graph.IssueRow;
import dev.faultline.graph.LabelSource;
import dev.faultline.graph.ReleaseRow;
import dev.faultline.graph.testing.Codes;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.List;
import java.util.Map;

/**
 * Minimal issue and release rows for the writer tests: a HANG bug, reporting a framework version or
 * none.
 */
final class WriterRows {
  private WriterRows() {}

  /** A release of {@code framework} in repository {@code owner/framework}. */
  static ReleaseRow release(String owner, String framework, String version, long publishedAt) {
    return new ReleaseRow(
        framework,
        owner + "/" + framework,
        version,
        "v" + version,
        null,
        publishedAt,
        false,
        false);
  }

  /**
   * Issue {@code number} of {@code owner/framework}, opened at {@code createdAt}; {@code version}
   * may be null.
   */
  static IssueRow issue(
      String owner, String framework, int number, String version, long createdAt) {
    IssueRow.ClassificationRow classification =
        new IssueRow.ClassificationRow(
            Codes.of(
                Kind.BUG,
                Symptom.HANG,
                SymptomClass.HANG,
                RootCause.UNKNOWN,
                FixPattern.UNKNOWN,
                Stage.COMMUNICATION,
                Phase.TRAINING,
                Boolean.TRUE),
            version,
            version == null ? Map.of() : Map.of(framework.toLowerCase(), version),
            Map.of(Dimension.SYMPTOM, 0.8),
            Map.of(Dimension.SYMPTOM, "test"),
            List.of(),
            "test",
            createdAt,
            LabelSource.MODEL,
            null);
    String repo = owner + "/" + framework;
    return new IssueRow(
        repo + "#" + number,
        repo,
        framework,
        number,
        "t" + number,
        "b",
        "open",
        null,
        "someone",
        List.of(),
        createdAt,
        createdAt,
        null,
        createdAt,
        0,
        null,
        classification);
  }
}
