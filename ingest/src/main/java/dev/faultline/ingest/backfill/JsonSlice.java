package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * A JSON value as UTF-8 bytes: {@code bytes[from, to)}. An object or array is the range of the line
 * it was read from (not copied); a scalar is written anew by the mapper, as a tree of it would be
 * written.
 */
record JsonSlice(byte[] bytes, int from, int to) {

  /**
   * The value the parser is at (read past it), or null where {@code mapper.readTree} gives none.
   * The parser must read the byte array {@code line} from offset 0.
   */
  static JsonSlice of(JsonParser p, byte[] line, ObjectMapper mapper) throws IOException {
    JsonToken token = p.currentToken();
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
      int from = (int) p.currentTokenLocation().getByteOffset();
      p.skipChildren();
      int to = (int) p.currentLocation().getByteOffset();
      return new JsonSlice(line, from, to);
    }
    JsonNode node = mapper.readTree(p);
    return node == null ? null : of(node, mapper);
  }

  /** A tree written by the mapper. */
  static JsonSlice of(JsonNode node, ObjectMapper mapper) throws IOException {
    byte[] bytes =
        node.isIntegralNumber()
            ? node.asText().getBytes(java.nio.charset.StandardCharsets.US_ASCII)
            : mapper.writeValueAsBytes(node);
    return new JsonSlice(bytes, 0, bytes.length);
  }

  /** The value read back as a tree. */
  JsonNode tree(ObjectMapper mapper) throws IOException {
    return mapper.readTree(bytes, from, to - from);
  }
}
