package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VectorCacheTest {

  /** A stand-in encoder that reads only a text's first word and counts its calls. */
  static final class FirstWordEncoder implements TextEmbedder {
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger keyCalls = new AtomicInteger();
    private final SeededEmbedder hashing = new SeededEmbedder();

    @Override
    public float[] embed(String text) {
      calls.incrementAndGet();
      return hashing.embed(firstWord(text));
    }

    @Override
    public Object inputKey(String text) {
      keyCalls.incrementAndGet();
      return firstWord(text);
    }

    private static String firstWord(String text) {
      return text.strip().split("\\s+", 2)[0];
    }

    @Override
    public int dimension() {
      return hashing.dimension();
    }

    @Override
    public String name() {
      return "first-word";
    }
  }

  @Test
  void aTextWhoseEncodedInputIsUnchangedCostsNoEncoderCall() {
    FirstWordEncoder inner = new FirstWordEncoder();
    VectorCache cache = new VectorCache(inner, 16);
    float[] a = cache.embed("hang in all_reduce");
    float[] b = cache.embed("hang in all_reduce\nsame here on 8 nodes");
    assertEquals(1, inner.calls.get(), "the comment did not change what the encoder reads");
    assertArrayEquals(a, b);
    assertArrayEquals(inner.embed("hang"), a, "the cached vector is the encoder's");
    cache.embed("crash at step 3");
    assertEquals(3, inner.calls.get(), "a different encoded input is encoded (our check was one)");
    assertEquals(1, cache.hits());
    assertEquals(2, cache.misses());
  }

  @Test
  void aTextSeenBeforeCostsNoTokenizerCallAndADifferentTextDoes() {
    FirstWordEncoder inner = new FirstWordEncoder();
    VectorCache cache = new VectorCache(inner, 2);
    String text = "hang in all_reduce";
    assertEquals("hang", cache.inputKey(text));
    cache.embed(text);
    assertEquals("hang", cache.inputKey(new String(text.toCharArray())), "an equal text");
    assertEquals(1, inner.keyCalls.get(), "the text was tokenised once");
    assertEquals(2, cache.keyHits());
    assertEquals("crash", cache.inputKey("crash at step 3"));
    assertEquals(2, inner.keyCalls.get(), "another text is tokenised");
    cache.inputKey("oom b");
    cache.inputKey("nan c"); // the two most recent texts are kept: "hang in all_reduce" is out
    assertEquals("hang", cache.inputKey(text));
    assertEquals(5, inner.keyCalls.get(), "the bound holds for the texts too");
    String longText = "long " + "x".repeat(VectorCache.KEYED_TEXT_LIMIT);
    cache.inputKey(longText);
    cache.inputKey(longText);
    assertEquals(7, inner.keyCalls.get(), "a text over the limit is not kept");
    VectorCache off = new VectorCache(inner, 0);
    off.inputKey(text);
    off.inputKey(text);
    assertEquals(9, inner.keyCalls.get(), "zero capacity keeps nothing");
  }

  @Test
  void theCacheIsBoundedAndForgetsTheLeastRecentlyUsed() {
    FirstWordEncoder inner = new FirstWordEncoder();
    VectorCache cache = new VectorCache(inner, 2);
    cache.embed("a");
    cache.embed("b");
    cache.embed("a"); // a is now the most recent
    cache.embed("c"); // evicts b
    assertEquals(2, cache.size());
    assertEquals(3, inner.calls.get());
    cache.embed("a");
    assertEquals(3, inner.calls.get(), "a stayed");
    cache.embed("b");
    assertEquals(4, inner.calls.get(), "b was forgotten");
    assertEquals(2, cache.size());
  }

  @Test
  void callersGetCopiesAndZeroCapacityTurnsItOff() {
    FirstWordEncoder inner = new FirstWordEncoder();
    VectorCache cache = new VectorCache(inner, 4);
    float[] a = cache.embed("x");
    a[0] = 42;
    float[] b = cache.embed("x");
    assertNotSame(a, b);
    assertEquals(inner.embed("x")[0], b[0], "a caller's change does not reach the cache");
    VectorCache off = new VectorCache(inner, 0);
    int before = inner.calls.get();
    off.embed("x");
    off.embed("x");
    assertEquals(before + 2, inner.calls.get());
    assertEquals(0, off.size());
    assertThrows(IllegalArgumentException.class, () -> new VectorCache(inner, -1));
  }

  @Test
  void manyThreadsGetTheEncodersVectorsAndTheBoundHolds() throws Exception {
    FirstWordEncoder inner = new FirstWordEncoder();
    VectorCache cache = new VectorCache(inner, 50);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int seed = t;
        results.add(
            pool.submit(
                () -> {
                  boolean ok = true;
                  for (int i = 0; i < 2000; i++) {
                    String w = "w" + ((i * 7 + seed) % 80);
                    ok &=
                        java.util.Arrays.equals(
                            new SeededEmbedder().embed(w), cache.embed(w + " tail"));
                  }
                  return ok;
                }));
      }
      for (Future<Boolean> f : results) {
        assertEquals(true, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(50, cache.size());
    assertEquals(16_000, cache.hits() + cache.misses());
  }
}
