package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code versions} field of an answer, under the codebook's rules for versions (§9): component
 * keys lower-case, values as written without a leading "v", only versions the text states (the
 * prompt asks for that; the parser cannot check it). A key in upper or mixed case is lower-cased
 * and a leading "v" before a digit is dropped (both are the codebook's own normal form, not a
 * guess); anything else malformed rejects the whole answer.
 */
final class AnswerVersions {

  /** A component key: lower-case letters, digits and {@code . _ - /}, at most 64 characters. */
  private static final Pattern COMPONENT = Pattern.compile("[a-z0-9][a-z0-9._/-]{0,63}");

  /** A version: starts with a digit, no spaces, at most 64 characters. */
  private static final Pattern VERSION = Pattern.compile("[0-9][^\\s]{0,63}");

  private AnswerVersions() {}

  /**
   * The versions of an answer's {@code versions} array, in order (the first mention of a component
   * wins), or the reason it is rejected (a String).
   */
  static Object parse(JsonNode n) {
    if (!n.isArray()) {
      return "field 'versions' is not an array";
    }
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode e : n) {
      String at = "versions[" + i++ + "]";
      if (!e.isObject() || !e.path("component").isTextual() || !e.path("version").isTextual()) {
        return at + " is not an object with string fields component and version";
      }
      for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!f.equals("component") && !f.equals("version")) {
          return at + " has an unexpected field '" + f + "'";
        }
      }
      String component = e.get("component").asText().strip().toLowerCase(Locale.ROOT);
      String version = e.get("version").asText().strip();
      if ((version.startsWith("v") || version.startsWith("V"))
          && version.length() > 1
          && Character.isDigit(version.charAt(1))) {
        version = version.substring(1);
      }
      if (!COMPONENT.matcher(component).matches()) {
        return at + " has an invalid component '" + abbreviate(component) + "'";
      }
      if (!VERSION.matcher(version).matches()) {
        return at + " has an invalid version '" + abbreviate(version) + "'";
      }
      out.putIfAbsent(component, version);
    }
    return out;
  }

  /** The array form of a versions map. */
  static ArrayNode format(ObjectMapper json, Map<String, String> versions) {
    ArrayNode a = json.createArrayNode();
    versions.forEach((k, v) -> a.addObject().put("component", k).put("version", v));
    return a;
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "…" : s;
  }
}
