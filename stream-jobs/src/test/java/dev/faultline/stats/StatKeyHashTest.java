package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.records.StatKey;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StatKey#hashCode} is the value earlier builds gave ({@code Objects.hash} of framework,
 * release, the dimension's name and category): a key's key group, so where its restored state
 * lives, comes from it. Random keys with nulls in every field, with and without a release.
 */
class StatKeyHashTest {
  private static String string(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> null;
      case 1 -> "";
      case 2 -> "é" + r.nextInt(1000);
      default -> "fw-" + r.nextInt(100_000);
    };
  }

  @Test
  void theHashIsObjectsHashOfTheFieldsWithTheDimensionsName() {
    Random r = new Random(34);
    Dimension[] dims = Dimension.values();
    for (int i = 0; i < 20_000; i++) {
      Dimension d = r.nextInt(6) == 0 ? null : dims[r.nextInt(dims.length)];
      String framework = string(r);
      String release = string(r);
      String category = string(r);
      StatKey k =
          r.nextBoolean()
              ? StatKey.of(framework, d, category)
              : StatKey.ofRelease(framework, release, d, category);
      assertEquals(
          Objects.hash(k.framework, k.release, d == null ? null : d.name(), k.category),
          k.hashCode(),
          k.toString());
    }
  }
}
