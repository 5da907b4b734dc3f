package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeDetailsTest {

  @Test
  void filesAndLineCountsComeFromTheDiffHeadersAndLines() {
    String diff =
        "diff --git a/src/a.py b/src/a.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,3 @@\n"
            + " keep\n-old\n+new\n+newer\ndiff --git a/docs/b.md b/docs/b.md\n--- a/docs/b.md\n+++ b/docs/b.md\n+line\n";
    ChangeDetails d = ChangeDetails.fromDiff(diff);
    assertEquals(
        List.of(
            new ChangeDetails.ChangedFile("src/a.py", 2, 1),
            new ChangeDetails.ChangedFile("docs/b.md", 1, 0)),
        d.files());
    assertEquals(diff, d.diff());
    assertEquals(List.of(), ChangeDetails.fromDiff(null).files());
  }

  @Test
  void aFileListAfterChangedFilesIsRead() {
    ChangeDetails d =
        ChangeDetails.fromText(
            "title\n\nchanged files:\nsrc/x.cu+10-2\nnot a file line\ntests/t.py+1-0", "");
    assertEquals(
        List.of(
            new ChangeDetails.ChangedFile("src/x.cu", 10, 2),
            new ChangeDetails.ChangedFile("tests/t.py", 1, 0)),
        d.files());
  }
}
