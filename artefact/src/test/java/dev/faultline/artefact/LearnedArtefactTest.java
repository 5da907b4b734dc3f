package dev.faultline.artefact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class LearnedArtefactTest {

  /** An artefact of our own: big fields before and after the levels, which the reader skips. */
  private static InputStream artefact(String dimensions) throws IOException {
    String json =
        "{\"formatVersion\": 1, \"vectorizer\": {\"tokens\": [\"a\", \"b\"], \"idf\": [1.5, 2.5]},"
            + " \"dimensions\": "
            + dimensions
            + ", \"neighbours\": {\"ids\": [\"x\"], \"vectors\": \"AAAA\"}}";
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(b)) {
      gz.write(json.getBytes(StandardCharsets.UTF_8));
    }
    return new ByteArrayInputStream(b.toByteArray());
  }

  private static String level(String target, double level) {
    return "\""
        + target
        + "\": {\"classes\": [\"A\", \"B\"], \"weights\": [[0.1, 0.2], [0.3, 0.4]],"
        + " \"precisionLevel\": "
        + level
        + ", \"threshold\": 0.3}";
  }

  @Test
  void theBarsAreTheLevelsRoundedUpToThreeDecimals() throws IOException {
    StringBuilder d = new StringBuilder("{");
    for (Dimension dim : Dimension.LABELLED) {
      d.append(d.length() > 1 ? ", " : "")
          .append(level(LearnedArtefact.artefactName(dim), 0.5 + dim.ordinal() / 100.0 + 0.0001));
    }
    Map<Dimension, Double> bars =
        LearnedArtefact.calibratedBars(artefact(d.append("}").toString()));
    assertEquals(Dimension.LABELLED, java.util.List.copyOf(bars.keySet()));
    for (Dimension dim : Dimension.LABELLED) {
      assertEquals(0.5 + dim.ordinal() / 100.0 + 0.001, bars.get(dim), 1e-12, dim + "");
    }
  }

  @Test
  void anArtefactWithoutADimensionsLevelIsRefused() throws IOException {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> LearnedArtefact.calibratedBars(artefact("{" + level("KIND", 0.6) + "}")));
    assertTrue(e.getMessage().contains("SYMPTOM"), e.getMessage());
  }

  @Test
  void theShippedArtefactHasABarForEveryLabelledDimension() {
    Map<Dimension, Double> bars = LearnedArtefact.calibratedBars();
    assertEquals(Dimension.LABELLED, java.util.List.copyOf(bars.keySet()));
    bars.values().forEach(b -> assertTrue(b > 0.0 && b < 1.0, "a bar in (0, 1): " + b));
  }
}
