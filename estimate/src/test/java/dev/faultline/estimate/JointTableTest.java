package dev.faultline.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JointTableTest {

  @Test
  void cellsAreSumsOfProductsOfMarginals() {
    Codes rows = Codes.of(List.of("A", "B"));
    Codes cols = Codes.of(List.of("X", "Y"));
    double[][] pr = {{0.5, 0.5}, {1, 0}};
    double[][] pc = {{0.2, 0.8}, {0.5, 0.5}};
    List<JointTable.Cell> t = JointTable.estimate(rows, pr, cols, pc, 0.9);
    assertEquals(4, t.size());
    // A,X: 0.5*0.2 + 1*0.5; A,Y: 0.5*0.8 + 1*0.5; B,X: 0.5*0.2; B,Y: 0.5*0.8
    assertEquals(0.6, t.get(0).count(), 1e-12);
    assertEquals(0.9, t.get(1).count(), 1e-12);
    assertEquals(0.1, t.get(2).count(), 1e-12);
    assertEquals(0.4, t.get(3).count(), 1e-12);
    assertEquals("A", t.get(1).row());
    assertEquals("Y", t.get(1).column());
    // A,Y: Bernoulli(0.4) + Bernoulli(0.5): P(0) = 0.3, P(2) = 0.2 -> [0, 2]
    assertEquals(0, t.get(1).countLow());
    assertEquals(2, t.get(1).countHigh());
    double total = t.stream().mapToDouble(JointTable.Cell::count).sum();
    assertEquals(2.0, total, 1e-12);
    assertTrue(t.get(0).method().contains("product of marginals"));
  }

  @Test
  void theDimensionsMustCoverTheSameItems() {
    Codes rows = Codes.of(List.of("A", "B"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                JointTable.estimate(
                    rows, new double[][] {{1, 0}}, rows, new double[][] {{1, 0}, {0, 1}}, 0.9));
    assertEquals("the two dimensions cover different items: 1 and 2", e.getMessage());
  }
}
