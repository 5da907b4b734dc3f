package dev.faultline.classifier.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a model's answer against {@link AnswerSchema}: it must be one JSON object with exactly the
 * schema's fields, every coded field one of its dimension's symbols, {@code distributed_specific} a
 * boolean or null. Anything else is a {@link Rejection} whose reason names the field and what was
 * wrong; the caller then keeps the offline label. No label is repaired or guessed: a model that
 * answers in prose or invents a code is rejected. Versions are the exception: an odd version entry
 * is brought to the codebook's normal form or dropped ({@link VersionTally}), so a good answer is
 * not thrown away for a commit hash or a range.
 */
public final class AnswerParser {

  /** The outcome of parsing: an {@link Answer} or a {@link Rejection}. */
  public sealed interface Result permits Accepted, Rejection {}

  /**
   * A valid answer.
   *
   * @param versions what became of the answer's version entries (all zero without a {@code
   *     versions} field)
   */
  public record Accepted(Answer answer, VersionTally versions) implements Result {
    /** An answer whose version entries, if any, were all in the normal form. */
    public Accepted(Answer answer) {
      this(answer, VersionTally.of(answer));
    }
  }

  /**
   * What became of an answer's version entries: kept as written, normalised, dropped (see {@code
   * AnswerVersions}); an odd entry never rejects the answer.
   *
   * @param notes one line per normalised or dropped entry, e.g. {@code versions[0] 'torch'
   *     'cafda95' dropped: a commit hash, not a version}
   */
  public record VersionTally(int kept, int normalised, int dropped, List<String> notes) {
    public VersionTally {
      notes = List.copyOf(notes);
    }

    /** Every version of {@code a} kept as written. */
    static VersionTally of(Answer a) {
      return new VersionTally(a.versions() == null ? 0 : a.versions().size(), 0, 0, List.of());
    }
  }

  /** A refused answer and why. */
  public record Rejection(String reason) implements Result {}

  private final AnswerSchema schema;
  private final ObjectMapper json = new ObjectMapper();

  public AnswerParser(AnswerSchema schema) {
    this.schema = Objects.requireNonNull(schema, "schema");
  }

  /** Validates the message content of an answer. */
  public Result parse(String content) {
    if (content == null || content.isBlank()) {
      return new Rejection("empty answer");
    }
    JsonNode n;
    try {
      n = json.readTree(content);
    } catch (JsonProcessingException e) {
      return new Rejection("unparsable JSON: " + e.getOriginalMessage());
    }
    if (n == null || !n.isObject()) {
      return new Rejection("not a JSON object");
    }
    for (String f : AnswerSchema.FIELDS) {
      if (!n.has(f)) {
        return new Rejection("missing field '" + f + "'");
      }
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!AnswerSchema.FIELDS.contains(f) && !AnswerSchema.VERSIONS.equals(f)) {
        return new Rejection("unexpected field '" + f + "'");
      }
    }
    for (String f : AnswerSchema.CODED.keySet()) {
      JsonNode v = n.get(f);
      if (!v.isTextual()) {
        return new Rejection("field '" + f + "' is not a string: " + abbreviate(v.toString()));
      }
      if (!schema.symbols(f).contains(v.asText())) {
        return new Rejection("unknown " + f + " code '" + abbreviate(v.asText()) + "'");
      }
    }
    JsonNode d = n.get(AnswerSchema.DISTRIBUTED);
    if (!d.isNull() && !d.isBoolean()) {
      return new Rejection(
          "field '"
              + AnswerSchema.DISTRIBUTED
              + "' is not true, false or null: "
              + abbreviate(d.toString()));
    }
    // An odd version entry is normalised or dropped, never a reason to reject the answer.
    AnswerVersions.Parsed versions =
        n.has(AnswerSchema.VERSIONS)
            ? AnswerVersions.parse(n.get(AnswerSchema.VERSIONS))
            : new AnswerVersions.Parsed(null, 0, 0, 0, List.of());
    // The taxonomy resource and the enums are checked against each other (TaxonomyResourceTest), so
    // valueOf holds.
    Map<Dimension, Object> codes = new LinkedHashMap<>();
    for (Dimension dim : Dimension.LABELLED) {
      JsonNode v = n.get(dim.field());
      codes.put(dim, v.isNull() ? null : dim.parse(v.asText()));
    }
    return new Accepted(
        new Answer(codes, versions.versions()),
        new VersionTally(
            versions.kept(), versions.normalised(), versions.dropped(), versions.notes()));
  }

  /** The answer as the JSON object the schema describes, fields in schema order. */
  public String format(Answer a) {
    var o = json.createObjectNode();
    for (String f : AnswerSchema.FIELDS) {
      Dimension dim = Dimension.ofField(f).orElseThrow();
      Object v = Dimension.symbol(a.code(dim));
      if (v == null) {
        o.putNull(f);
      } else if (v instanceof Boolean b) {
        o.put(f, b);
      } else {
        o.put(f, v.toString());
      }
    }
    if (a.versions() != null) {
      o.set(AnswerSchema.VERSIONS, AnswerVersions.format(json, a.versions()));
    }
    return o.toString();
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "…" : s;
  }
}
