package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The nearest labelled items, and the memory that spares re-classifications the scan. */
class NeighboursTest {

  /** Random unit vectors, one per text. */
  private static final class Random384 {
    float[] embed(String text) {
      java.util.Random r = new java.util.Random(text.hashCode());
      float[] v = new float[384];
      double n = 0;
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) r.nextGaussian();
        n += v[i] * v[i];
      }
      for (int i = 0; i < v.length; i++) {
        v[i] /= (float) Math.sqrt(n);
      }
      return v;
    }
  }

  private static final Random384 EMBED = new Random384();

  private static Neighbours items(int n) {
    List<String> ids = new ArrayList<>();
    List<Map<String, String>> labels = new ArrayList<>();
    byte[][] vectors = new byte[n][];
    for (int i = 0; i < n; i++) {
      ids.add("o/r#" + i);
      labels.add(Map.of("symptom", "S" + i % 3));
      vectors[i] = Neighbours.quantise(EMBED.embed("item " + i));
    }
    return new Neighbours(ids, labels, vectors);
  }

  @Test
  void anItemsOwnVectorFindsItFirst() {
    Neighbours n = items(50);
    List<Neighbours.Near> near = n.nearest(EMBED.embed("item 17"), 3);
    assertEquals(3, near.size());
    assertEquals("o/r#17", near.get(0).id());
    assertEquals(1.0, near.get(0).similarity(), 1e-3);
    assertEquals(Map.of("symptom", "S2"), near.get(0).labels());
  }

  @Test
  void anEqualVectorGetsTheRememberedAnswerAndADifferentOneItsOwn() {
    Neighbours n = items(50);
    float[] v = EMBED.embed("item 17");
    List<Neighbours.Near> first = n.nearest(v, 3);
    assertSame(first, n.nearest(v.clone(), 3), "an equal vector is not scanned again");
    assertEquals(first, items(50).nearest(v, 3), "the remembered answer is the scan's");
    List<Neighbours.Near> other = n.nearest(EMBED.embed("item 4"), 3);
    assertEquals("o/r#4", other.get(0).id(), "another vector gets its own answer");
    assertNotEquals(first, other);
    assertEquals(2, n.nearest(v, 2).size(), "k is part of the key");
    assertNotSame(first, n.nearest(v, 2));
    assertThrows(UnsupportedOperationException.class, () -> first.remove(0));
  }

  @Test
  void theMemoryIsBounded() {
    Neighbours n = items(5);
    float[] v = EMBED.embed("item 1");
    List<Neighbours.Near> first = n.nearest(v, 2);
    for (int i = 0; i < Neighbours.REMEMBERED; i++) {
      n.nearest(EMBED.embed("query " + i), 2);
    }
    List<Neighbours.Near> again = n.nearest(v, 2);
    assertNotSame(first, again, "the oldest answer was forgotten");
    assertEquals(first, again);
  }
}
