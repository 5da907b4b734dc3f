package dev.faultline.embedded.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded mutator of JSON payloads for fuzz tests: truncation, byte flips, wrongly-typed and
 * missing fields, deep nesting, odd Unicode and oversized strings. The same seed gives the same
 * sequence, so a failure can be replayed.
 */
public final class PayloadMutator {
  private static final String[] ODD_TEXT = {
    "\u0000",
    "\uD800",
    "\uFFFF",
    "\u202Eevil",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "'}) DETACH DELETE n //",
    "<script>alert(1)</script>",
    "%s%n%x",
    "\\\"",
    "😀".repeat(50)
  };
  private final Random random;
  private final ObjectMapper json = new ObjectMapper();

  public PayloadMutator(long seed) {
    this.random = new Random(seed);
  }

  /**
   * One mutation of {@code original} (a JSON document), as bytes that may or may not still be JSON.
   */
  public byte[] mutate(byte[] original) {
    return switch (random.nextInt(7)) {
      case 0 -> truncate(original);
      case 1 -> flipBytes(original);
      case 2 -> retypeField(original);
      case 3 -> dropField(original);
      case 4 -> deepNesting(2_000 + random.nextInt(4_000));
      case 5 -> oddUnicode(original);
      default -> bigString(original);
    };
  }

  private byte[] truncate(byte[] b) {
    int n = b.length == 0 ? 0 : random.nextInt(b.length);
    byte[] out = new byte[n];
    System.arraycopy(b, 0, out, 0, n);
    return out;
  }

  private byte[] flipBytes(byte[] b) {
    byte[] out = b.clone();
    for (int i = 0, flips = 1 + random.nextInt(8); i < flips && out.length > 0; i++) {
      out[random.nextInt(out.length)] = (byte) random.nextInt(256);
    }
    return out;
  }

  private byte[] retypeField(byte[] b) {
    return editTree(b, (parent, field) -> parent.set(field, randomValue()));
  }

  private byte[] dropField(byte[] b) {
    return editTree(b, ObjectNode::remove);
  }

  private byte[] oddUnicode(byte[] b) {
    return editTree(
        b, (parent, field) -> parent.put(field, ODD_TEXT[random.nextInt(ODD_TEXT.length)]));
  }

  private byte[] bigString(byte[] b) {
    return editTree(
        b, (parent, field) -> parent.put(field, "x".repeat(10_000 + random.nextInt(200_000))));
  }

  private static byte[] deepNesting(int depth) {
    return ("{\"action\":\"opened\",\"issue\":" + "[".repeat(depth) + "]".repeat(depth) + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private JsonNode randomValue() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (random.nextInt(6)) {
      case 0 -> f.nullNode();
      case 1 -> f.numberNode(random.nextLong());
      case 2 -> f.textNode(ODD_TEXT[random.nextInt(ODD_TEXT.length)]);
      case 3 -> f.arrayNode().add(1).add("two");
      case 4 -> f.objectNode().put("unexpected", true);
      default -> f.booleanNode(random.nextBoolean());
    };
  }

  private interface Edit {
    void apply(ObjectNode parent, String field);
  }

  /**
   * Applies {@code edit} to one random field of the document (any depth); non-JSON input is
   * byte-flipped instead.
   */
  private byte[] editTree(byte[] b, Edit edit) {
    JsonNode root;
    try {
      root = json.readTree(b);
    } catch (Exception notJson) {
      return flipBytes(b);
    }
    List<Map.Entry<ObjectNode, String>> fields = new ArrayList<>();
    collect(root, fields);
    if (fields.isEmpty()) {
      return flipBytes(b);
    }
    Map.Entry<ObjectNode, String> target = fields.get(random.nextInt(fields.size()));
    edit.apply(target.getKey(), target.getValue());
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void collect(JsonNode node, List<Map.Entry<ObjectNode, String>> out) {
    if (node instanceof ObjectNode object) {
      for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        out.add(Map.entry(object, name));
        collect(object.get(name), out);
      }
    } else if (node instanceof ArrayNode array) {
      array.forEach(child -> collect(child, out));
    }
  }
}
