package dev.faultline.classifier.llm;

import dev.faultline.classifier.IssueText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Items and labelled examples written for these tests (no corpus text). */
public final class Fixtures {

  private Fixtures() {}

  /** A valid answer to the schema. */
  public static final String HANG_ANSWER =
      "{\"kind\":\"BUG\",\"symptom\":\"HANG\",\"root_cause\":\"DISTRIBUTED_COMMUNICATION_ERROR\","
          + "\"fix_pattern\":\"LOGIC_REWRITE\",\"stage\":\"COMMUNICATION\",\"phase\":\"TRAINING\","
          + "\"distributed_specific\":true}";

  /** Another valid answer. */
  public static final String QUESTION_ANSWER =
      "{\"kind\":\"QUESTION\",\"symptom\":\"NONE\",\"root_cause\":\"UNKNOWN\",\"fix_pattern\":\"UNKNOWN\","
          + "\"stage\":\"UNKNOWN\",\"phase\":\"UNKNOWN\",\"distributed_specific\":null}";

  public static IssueText hangIssue() {
    return IssueText.of(
        "acme/trainer",
        11,
        "Training stalls at the second all-reduce with four nodes",
        "After 200 steps every rank waits forever in all_reduce; no error is printed.\n"
            + "The stall started after we moved the gradient bucket group creation into the step loop.");
  }

  public static IssueText questionIssue() {
    return IssueText.of(
        "acme/trainer",
        12,
        "How do I pick the bucket size for gradient reduction?",
        "Is there a rule of thumb for the bucket size on a 16 GPU job? Thanks.");
  }

  /** A labelled example set of three items in the training format. */
  public static Path examples(Path dir) throws IOException {
    Path f = dir.resolve("examples.jsonl");
    Files.writeString(
        f,
        String.join(
                "\n",
                example(
                    1,
                    "Ranks wait forever in all_reduce after resuming",
                    "Every rank blocks in all_reduce once the job restarts from step 500; the watchdog never fires.",
                    "BUG",
                    "HANG",
                    "COMMUNICATION",
                    "true"),
                example(
                    2,
                    "Wheel build fails with a compiler error",
                    "pip install stops while compiling the fused optimizer extension; the compiler rejects a template.",
                    "BUG",
                    "BUILD_INSTALL_FAILURE",
                    "UNKNOWN",
                    "false"),
                example(
                    3,
                    "Which launcher flags set the master port?",
                    "I would like to know how to set the master port for the launcher on a cluster. Thanks.",
                    "QUESTION",
                    "NONE",
                    "UNKNOWN",
                    "null"))
            + "\n");
    return f;
  }

  private static String example(
      int n,
      String title,
      String text,
      String kind,
      String symptom,
      String stage,
      String distributed) {
    return "{\"url\":\"https://example.org/acme/examples/issues/"
        + n
        + "\",\"repo\":\"acme/examples\",\"number\":"
        + n
        + ",\"title\":\""
        + title
        + "\",\"state\":\"closed\",\"labels\":[],\"text\":\"acme/examples · issue #"
        + n
        + " · closed · Python\\n# "
        + title
        + "\\n\\nzoe · description · 2024-03-01\\n"
        + text
        + "\","
        + "\"gold\":{\"kind\":\""
        + kind
        + "\",\"symptom\":\""
        + symptom
        + "\",\"root_cause\":\"UNKNOWN\","
        + "\"fix_pattern\":\"UNKNOWN\",\"stage\":\""
        + stage
        + "\",\"phase\":\"UNKNOWN\",\"distributed_specific\":"
        + distributed
        + "}}";
  }
}
