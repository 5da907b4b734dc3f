package dev.faultline.ingest.backfill;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * What the GH Archive reader needs from an event's payload, learnt in one pass of the parser
 * without building the payload: where it lies in the line, its top-level names, its {@code action}
 * and the fields {@link dev.faultline.schemas.DeliveryKey} keys on ({@code issue.number}, {@code
 * pull_request.number}, {@code number}, {@code repository.full_name}).
 */
final class PayloadScan {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final int start;
  private final Set<String> names = new HashSet<>();
  private final ObjectNode keyFields = NODES.objectNode();
  private int end;
  private boolean odd;
  private String action;

  private PayloadScan(int start) {
    this.start = start;
  }

  /**
   * Scans the object the parser is at (read past it); null (and the value skipped) when it is not
   * an object. The parser must read the line from offset 0.
   */
  static PayloadScan of(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return null;
    }
    PayloadScan scan = new PayloadScan((int) p.currentTokenLocation().getByteOffset());
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      // A repeated name (a tree keeps the last) or a _backfill of its own (replaced): not spliced.
      scan.odd |= !scan.names.add(name) || name.equals("_backfill");
      JsonToken value = p.nextToken();
      switch (name) {
        case "action" -> scan.action = value == JsonToken.VALUE_STRING ? p.getText() : skip(p);
        case "number" -> scan.keyFields.set(name, integer(p));
        case "issue", "pull_request" -> scan.keyFields.set(name, nested(p, "number"));
        case "repository" -> scan.keyFields.set(name, nested(p, "full_name"));
        default -> p.skipChildren();
      }
    }
    scan.end = (int) p.currentLocation().getByteOffset();
    return scan;
  }

  private static String skip(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  /** An int-sized integer as a node; anything else as null (neither is a key's number). */
  private static JsonNode integer(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT
        && p.getNumberType() == JsonParser.NumberType.INT) {
      return NODES.numberNode(p.getIntValue());
    }
    p.skipChildren();
    return NullNode.getInstance();
  }

  /** An object with only its field {@code wanted} (a number or a text); null when not an object. */
  private static JsonNode nested(JsonParser p, String wanted) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return NullNode.getInstance();
    }
    ObjectNode kept = NODES.objectNode();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (!name.equals(wanted)) {
        p.skipChildren();
      } else if (value == JsonToken.VALUE_STRING) {
        kept.put(name, p.getText());
      } else {
        kept.set(name, integer(p));
      }
    }
    return kept;
  }

  int start() {
    return start;
  }

  /** Just past the payload's closing brace. */
  int end() {
    return end;
  }

  int fields() {
    return names.size();
  }

  boolean has(String name) {
    return names.contains(name);
  }

  /** Whether the payload must be built as a tree to be shaped like the tree-built one. */
  boolean odd() {
    return odd;
  }

  /** The top-level {@code action} when it is a text. */
  String action() {
    return action;
  }

  /**
   * The fields {@link dev.faultline.schemas.DeliveryKey#of} reads, with {@code repository}'s {@code
   * full_name} as the reader adds it when the payload has none.
   */
  ObjectNode keyFields(String fullName) {
    if (!has("repository")) {
      keyFields.putObject("repository").put("full_name", fullName);
    }
    return keyFields;
  }
}
