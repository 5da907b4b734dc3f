package dev.faultline.classifier.learned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theTokenLimitRewritesTruncationAndFixedPaddingAndRejectsNonsense() throws Exception {
    String def =
        "{\"truncation\":{\"max_length\":128,\"stride\":0},\"padding\":{\"strategy\":{\"Fixed\":128}},\"x\":1}";
    JsonNode out = JSON.readTree(MiniLmEmbedder.withTokenLimit(stream(def), 96));
    assertEquals(96, out.path("truncation").path("max_length").asInt());
    assertEquals(96, out.path("padding").path("strategy").path("Fixed").asInt());
    assertEquals(1, out.path("x").asInt(), "the rest of the definition is kept");
    assertThrows(
        IllegalArgumentException.class, () -> MiniLmEmbedder.withTokenLimit(stream(def), 4));
    assertThrows(
        IllegalStateException.class,
        () -> MiniLmEmbedder.withTokenLimit(stream("{\"padding\":{}}"), 96));
  }

  @Test
  void theEncoderReadsTheFirstWordPiecesOnlyAndItsNameSaysHowMany() {
    MiniLmEmbedder e = MiniLmEmbedder.shared();
    // One word piece per word: 200 of them are past any limit of the model (at most 128 with [CLS]
    // and [SEP]).
    String head = String.join(" ", java.util.Collections.nCopies(200, "hang"));
    float[] a = e.embed(head + " the job then crashed with an out of memory error on every rank");
    float[] b = e.embed(head + " and the loss became nan after the checkpoint was loaded");
    assertArrayEquals(a, b, "text past the word-piece limit does not change the vector");
    float[] c = e.embed("out of memory " + head);
    assertFalse(Arrays.equals(a, c), "text within the limit does");
    assertEquals(
        MiniLmEmbedder.MAX_TOKENS == 128
            ? "all-minilm-l6-v2-q"
            : "all-minilm-l6-v2-q@" + MiniLmEmbedder.MAX_TOKENS,
        e.name());
  }

  private static ByteArrayInputStream stream(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theInputKeyIsWhatTheEncoderReads() {
    MiniLmEmbedder e = MiniLmEmbedder.shared();
    String head = String.join(" ", java.util.Collections.nCopies(200, "hang"));
    String a = head + " the job then crashed with an out of memory error on every rank";
    String b = head + " and the loss became nan after the checkpoint was loaded";
    assertEquals(e.inputKey(a), e.inputKey(b), "text past the limit does not change the key");
    assertFalse(e.inputKey(a).equals(e.inputKey("out of memory " + head)), "text within it does");
    String[] pieces = ((String) e.inputKey(a)).split("\0");
    assertEquals(MiniLmEmbedder.MAX_TOKENS, pieces.length, "exactly the pieces the encoder reads");
    // Two short texts that differ only in spacing and case tokenise alike (uncased word pieces), so
    // they share a key, and the encoder indeed gives them the same vector.
    String x = "Training HANGS  in all_reduce";
    String y = "training hangs in all_reduce";
    assertEquals(e.inputKey(x), e.inputKey(y));
    assertArrayEquals(e.embed(x), e.embed(y));
  }

  @Test
  void theKeyOfAWordPrefixIsTheKeyOfTheWholeText() {
    MiniLmEmbedder e = MiniLmEmbedder.shared();
    java.util.Random random = new java.util.Random(34);
    String[] words = {
      "hang", "NCCL", "all_reduce()", "out-of-memory", "deepspeed.zero.stage3", "??", "naïve",
      "训练", "卡住", "0x7f3a", "\u0001\u0002", "Segfault:", "ZeRO-3", "CUDA_VISIBLE_DEVICES=0,1"
    };
    String[] spaces = {" ", "  ", "\n", "\t", " \r\n"};
    for (int n = 0; n < 300; n++) {
      StringBuilder b = new StringBuilder();
      int length = random.nextInt(400);
      for (int w = 0; w < length; w++) {
        b.append(words[random.nextInt(words.length)]).append(spaces[random.nextInt(spaces.length)]);
      }
      String text = b.toString();
      assertEquals(e.inputKeyOfWholeText(text), e.inputKey(text), "text " + n);
    }
    // Words the tokenizer removes entirely give no piece: the prefix cannot fill the window.
    String vanishing = String.join(" ", java.util.Collections.nCopies(150, "\u0001"));
    String text = vanishing + " " + String.join(" ", java.util.Collections.nCopies(150, "hang"));
    assertEquals(e.inputKeyOfWholeText(text), e.inputKey(text));
    assertEquals(MiniLmEmbedder.MAX_TOKENS, ((String) e.inputKey(text)).split("\0").length);
  }
}
