package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainCommandTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpAndUsageErrors() {
    assertEquals(0, TrainCommand.run(new String[] {"--help"}, out, err));
    assertTrue(outBytes.toString(StandardCharsets.UTF_8).startsWith("Usage: train"));
    assertEquals(2, TrainCommand.run(new String[] {}, out, err));
    assertTrue(err().contains("Missing required option: '--data=DIR'"), err());
    assertEquals(
        2, TrainCommand.run(new String[] {"--data", dir.toString(), "--folds", "1"}, out, err));
    assertTrue(err().contains("--folds must be a whole number >= 2"), err());
    assertEquals(2, TrainCommand.run(new String[] {"--data"}, out, err));
    assertTrue(err().contains("Missing required parameter for option '--data'"), err());
  }

  @Test
  void aMissingOrBrokenCorpusFileIsNamedAndExitsTwo() throws Exception {
    assertEquals(2, TrainCommand.run(new String[] {"--data", dir.toString()}, out, err));
    assertTrue(err().contains(dir.resolve("issues.jsonl") + ": no such file"), err());
    Files.writeString(dir.resolve("issues.jsonl"), "{\"url\": 1\n");
    errBytes.reset();
    assertEquals(2, TrainCommand.run(new String[] {"--data", dir.toString()}, out, err));
    assertTrue(err().contains(dir.resolve("issues.jsonl") + ":1: not a JSON object"), err());
  }
}
