package dev.faultline.stats.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link AlertKeys#split} and {@link AlertKeys#isPair} against {@code String.split}. */
class AlertKeysTest {
  private static final String[] PIECES = {"", "|", "HANG", "OUT_OF_MEMORY", "a|b", "||", "é", " "};

  private static String piece(Random r) {
    StringBuilder b = new StringBuilder();
    for (int i = r.nextInt(3); i >= 0; i--) {
      b.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return b.toString();
  }

  /**
   * 20,000 random keys (empty parts, more separators than three parts, leading and trailing ones):
   * the parts {@code key.split("\\|", 3)} gives, and a pair exactly when there are three.
   */
  @Test
  void splitsAsStringSplitWithALimitOfThree() {
    Random r = new Random(17);
    Dimension[] dims = Dimension.values();
    for (int i = 0; i < 20_000; i++) {
      String key = dims[r.nextInt(dims.length)].name() + "|" + piece(r);
      String[] expected = key.split("\\|", 3);
      assertArrayEquals(expected, AlertKeys.split(key), key);
      assertEquals(expected.length == 3, AlertKeys.isPair(key), key);
    }
    assertArrayEquals(
        new String[] {"SYMPTOM", "HANG", "COMMUNICATION"},
        AlertKeys.split(AlertKeys.pair(Dimension.SYMPTOM, "HANG", "COMMUNICATION")));
    assertArrayEquals(
        new String[] {"STAGE", "MEMORY"},
        AlertKeys.split(AlertKeys.category(Dimension.STAGE, "MEMORY")));
  }

  @Test
  void rejectsWhatIsNoAlertKey() {
    for (String key : new String[] {"SYMPTOM", "", "NOT_A_DIMENSION|HANG", "|HANG", "symptom|x"}) {
      assertThrows(IllegalArgumentException.class, () -> AlertKeys.split(key), key);
      assertThrows(IllegalArgumentException.class, () -> AlertKeys.isPair(key), key);
    }
  }
}
