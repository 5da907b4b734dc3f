package dev.faultline.classifier.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

public class ToolReportTest {

  /** A ds_report as DeepSpeed prints it (op table shortened), written for this test. */
  public static final String DS_REPORT =
      "--------------------------------------------------\n"
          + "DeepSpeed C++/CUDA extension op report\n"
          + "--------------------------------------------------\n"
          + "NOTE: Ops not installed will be just-in-time (JIT) compiled at\n"
          + "      runtime if needed. Op compatibility means that your system\n"
          + "      meet the required dependencies to JIT install the op.\n"
          + "--------------------------------------------------\n"
          + "JIT compiled ops requires ninja\n"
          + "ninja .................. [OKAY]\n"
          + "op name ................ installed .. compatible\n"
          + "fused_adam ............. [NO] ....... [OKAY]\n"
          + " [WARNING]  async_io: please install the libaio-dev package with apt\n"
          + "DeepSpeed general environment info:\n"
          + "torch version .................... 2.2.0\n"
          + "deepspeed info ................... 0.14.0, unknown, unknown\n";

  @Test
  void dropsTheLinesEveryDsReportPrintsAndKeepsTheFieldsAndTheUsersWords() {
    String text =
        "My run crashes in the backward pass.\n" + DS_REPORT + "RuntimeError: shape mismatch\n";
    String kept = ToolReport.withoutFixedLines(text);
    assertFalse(kept.contains("JIT"), kept);
    assertFalse(kept.contains("installed"), kept);
    assertFalse(kept.contains("libaio"), kept);
    assertFalse(kept.contains("[OKAY]"), kept);
    assertTrue(kept.contains("torch version .................... 2.2.0"), kept);
    assertTrue(kept.startsWith("My run crashes in the backward pass.\n"), kept);
    assertTrue(kept.endsWith("RuntimeError: shape mismatch\n"), kept);
  }

  @Test
  void leavesTextWithoutAReportUntouched() {
    String text =
        "pip install deepspeed fails: error building extension 'fused_adam'\nninja: build stopped";
    assertSame(text, ToolReport.withoutFixedLines(text));
    assertEquals("", ToolReport.withoutFixedLines(""));
  }
}
