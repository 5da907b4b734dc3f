package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON schema every answer must follow: one object with exactly the fields {@link #FIELDS},
 * each coded dimension an enum of the taxonomy resource's symbols (proper codes, then NONE and
 * UNKNOWN where the dimension has them), {@code distributed_specific} true, false or null. Sent as
 * {@code response_format} of type {@code json_schema} with {@code strict: true}, which OpenAI,
 * vLLM, Ollama and llama.cpp's server accept; the same rules are checked again on return by {@link
 * AnswerParser}.
 */
public final class AnswerSchema {

  /** The schema's name in {@code response_format}. */
  public static final String NAME = "faultline_labels";

  /** The answer's field for distributed-specific (true, false or null). */
  public static final String DISTRIBUTED = Dimension.DISTRIBUTED_SPECIFIC.field();

  /**
   * The answer's field for the versions the text states: an array of {@code {component, version}}
   * objects (strict JSON schemas allow no free-form maps). Required in the schema sent; an answer
   * without it (stored under an earlier prompt) is still accepted and has no versions.
   */
  public static final String VERSIONS = "versions";

  /**
   * The coded fields and their taxonomy dimension, in answer order: every {@link
   * Dimension#LABELLED} dimension with codes, by its {@link Dimension#field()}.
   */
  public static final Map<String, Dimension> CODED;

  static {
    Map<String, Dimension> m = new LinkedHashMap<>();
    Dimension.LABELLED.stream().filter(Dimension::coded).forEach(d -> m.put(d.field(), d));
    CODED = java.util.Collections.unmodifiableMap(m);
  }

  /** Every field of an answer, in order. */
  public static final List<String> FIELDS =
      java.util.stream.Stream.concat(
              CODED.keySet().stream(), java.util.stream.Stream.of(DISTRIBUTED))
          .toList();

  private final Taxonomy taxonomy;
  private final ObjectNode schema;

  public AnswerSchema(Taxonomy taxonomy) {
    this.taxonomy = Objects.requireNonNull(taxonomy, "taxonomy");
    this.schema = build(new ObjectMapper(), taxonomy);
  }

  /** The taxonomy the enums come from. */
  public Taxonomy taxonomy() {
    return taxonomy;
  }

  /** The symbols a coded field may take. */
  public List<String> symbols(String field) {
    return taxonomy.dimension(CODED.get(field)).allSymbols();
  }

  /** The JSON schema (a copy). */
  public ObjectNode schema() {
    return schema.deepCopy();
  }

  /** {@code {"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}}. */
  public ObjectNode responseFormat(ObjectMapper json) {
    ObjectNode rf = json.createObjectNode();
    rf.put("type", "json_schema");
    ObjectNode js = rf.putObject("json_schema");
    js.put("name", NAME);
    js.put("strict", true);
    js.set("schema", schema());
    return rf;
  }

  private static ObjectNode build(ObjectMapper json, Taxonomy taxonomy) {
    ObjectNode s = json.createObjectNode();
    s.put("type", "object");
    ObjectNode props = s.putObject("properties");
    CODED.forEach(
        (field, dim) -> {
          ObjectNode p = props.putObject(field);
          p.put("type", "string");
          Taxonomy.DimensionCodes d = taxonomy.dimension(dim);
          if (d.description() != null) {
            p.put("description", d.description());
          }
          ArrayNode e = p.putArray("enum");
          d.allSymbols().forEach(e::add);
        });
    ObjectNode dist = props.putObject(DISTRIBUTED);
    dist.putArray("type").add("boolean").add("null");
    dist.put(
        "description",
        "true when the defect could not occur on a single device; null when the text cannot tell or no defect is reported");
    ObjectNode versions = props.putObject(VERSIONS);
    versions.put("type", "array");
    versions.put(
        "description",
        "versions the text states outright (environment sections, ds_report fields, pip lines, log"
            + " banners), never versions seen only inside file or install paths; empty when none");
    ObjectNode item = versions.putObject("items");
    item.put("type", "object");
    ObjectNode ip = item.putObject("properties");
    ip.putObject("component")
        .put("type", "string")
        .put("description", "lower-case: deepspeed, torch, cuda, nccl, python, transformers, ...");
    ip.putObject("version")
        .put("type", "string")
        .put("description", "as written, without a leading v");
    item.putArray("required").add("component").add("version");
    item.put("additionalProperties", false);
    ArrayNode required = s.putArray("required");
    FIELDS.forEach(required::add);
    required.add(VERSIONS);
    s.put("additionalProperties", false);
    return s;
  }
}
