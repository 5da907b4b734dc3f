package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code versions} field of an answer, under the codebook's rules for versions (§9): component
 * keys lower-case, values as written without a leading "v", only versions the text states (the
 * prompt asks for that; the parser cannot check it). Real models also write commit hashes, ranges
 * and product names; one odd entry never costs the answer its labels. Each entry is:
 *
 * <ul>
 *   <li><b>kept</b> when it is already in the normal form: a component of lower-case letters,
 *       digits and {@code . _ - /}, a version that starts with a digit and holds no space, range
 *       operator or list separator ({@code 0.18.5/0.18.6}, as the labelled data lists two versions,
 *       is kept);
 *   <li><b>normalised</b> when it can be brought to it: a key in another case is lower-cased, a
 *       leading "v" before a digit dropped ({@code v0.12} → {@code 0.12}), a range or list reduced
 *       to the versions it names, joined by {@code /} ({@code core-0.12/core-0.11} → {@code
 *       0.12/0.11}, {@code >=2.1,<2.3} → {@code 2.1/2.3}), a version written into the component
 *       split off ({@code torch 2.1} → {@code torch} = {@code 2.1});
 *   <li><b>dropped</b> when it cannot: a commit hash ({@code cafda95}), a value that names no
 *       version ({@code latest}, {@code nightly}), a component that is no key ({@code ngc docker}),
 *       an entry that is not an object with the string fields {@code component} and {@code
 *       version}; a {@code versions} field that is not an array drops all of them (the answer then
 *       keeps the offline versions, as an answer without the field does).
 * </ul>
 *
 * The first mention of a component wins; a later one is ignored.
 */
final class AnswerVersions {

  /** A component key: lower-case letters, digits and {@code . _ - /}, at most 64 characters. */
  private static final Pattern COMPONENT = Pattern.compile("[a-z0-9][a-z0-9._/-]{0,63}");

  /**
   * A version in the normal form: starts with a digit, at most 64 characters, no space, range
   * operator or list separator.
   */
  private static final Pattern VERSION = Pattern.compile("[0-9][^\\s,;<>=!~^*|()\\[\\]]{0,63}");

  /** A commit hash: 7 to 40 hexadecimal digits with at least one letter and one digit. */
  private static final Pattern HASH =
      Pattern.compile("(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{7,40}");

  /**
   * A version named inside a longer value: digits with dotted parts and an optional pre-release or
   * local suffix, not glued to other letters or digits (so no part of a hash).
   */
  private static final Pattern NAMED =
      Pattern.compile(
          "(?<![0-9A-Za-z.])[vV]?([0-9]+(?:\\.[0-9]+)*"
              + "(?:[.-]?(?:rc|a|b|alpha|beta|dev|post)[0-9]*)?(?:\\+[0-9A-Za-z.]+)?)"
              + "(?![0-9A-Za-z])");

  private AnswerVersions() {}

  /**
   * What became of an answer's version entries.
   *
   * @param versions component to version (the first mention of a component wins), or null when the
   *     field was not an array
   * @param notes one line per normalised or dropped entry: {@code versions[i] 'odd' -> 'form'} or
   *     {@code versions[i] 'odd' dropped: why}
   */
  record Parsed(
      Map<String, String> versions, int kept, int normalised, int dropped, List<String> notes) {}

  /**
   * The versions of an answer's {@code versions} field, with what was kept, normalised, dropped.
   */
  static Parsed parse(JsonNode n) {
    if (!n.isArray()) {
      return new Parsed(
          null, 0, 0, 1, List.of("versions dropped: the field is not an array of objects"));
    }
    Map<String, String> out = new LinkedHashMap<>();
    List<String> notes = new ArrayList<>();
    int kept = 0;
    int normalised = 0;
    int dropped = 0;
    int i = 0;
    for (JsonNode e : n) {
      String at = "versions[" + i++ + "]";
      Entry r = entry(e);
      if (r.dropped() != null) {
        dropped++;
        notes.add(at + " " + r.written() + " dropped: " + r.dropped());
        continue;
      }
      if (out.containsKey(r.component())) {
        continue; // the first mention wins
      }
      out.put(r.component(), r.version());
      if (r.changed()) {
        normalised++;
        notes.add(at + " " + r.written() + " -> '" + r.component() + "' " + r.version());
      } else {
        kept++;
      }
    }
    return new Parsed(out, kept, normalised, dropped, notes);
  }

  /**
   * One entry in its normal form, or why it was dropped.
   *
   * @param written the entry as written (abbreviated), for the notes
   * @param changed whether the normal form differs from what was written
   * @param dropped why the entry was dropped, else null
   */
  private record Entry(
      String component, String version, String written, boolean changed, String dropped) {
    static Entry drop(String written, String why) {
      return new Entry(null, null, written, false, why);
    }
  }

  private static Entry entry(JsonNode e) {
    if (!e.isObject() || !e.path("component").isTextual() || !e.path("version").isTextual()) {
      return Entry.drop(
          abbreviate(e.toString()), "not an object with string fields component and version");
    }
    String rawComponent = e.get("component").asText();
    String rawVersion = e.get("version").asText();
    String written = "'" + abbreviate(rawComponent) + "' '" + abbreviate(rawVersion) + "'";
    String component = rawComponent.strip().toLowerCase(Locale.ROOT);
    String fromComponent = null;
    if (!COMPONENT.matcher(component).matches()) {
      // "torch 2.1": the version written into the component
      int space = component.lastIndexOf(' ');
      String head = space < 0 ? "" : component.substring(0, space).strip();
      String tail = space < 0 ? "" : version(component.substring(space + 1));
      if (!COMPONENT.matcher(head).matches() || tail == null) {
        return Entry.drop(written, "'" + abbreviate(component) + "' is not a component key");
      }
      component = head;
      fromComponent = tail;
    }
    String version = version(rawVersion);
    if (version == null) {
      version = fromComponent;
    }
    if (version == null) {
      return Entry.drop(
          written,
          HASH.matcher(rawVersion.strip()).matches()
              ? "a commit hash, not a version"
              : "names no version");
    }
    boolean changed =
        !component.equals(rawComponent) || !version.equals(rawVersion) || e.size() != 2;
    return new Entry(component, version, written, changed, null);
  }

  /**
   * A value's version in the normal form: itself without a leading "v" when that is the normal
   * form, else the versions it names joined by {@code /}; null for a commit hash or a value that
   * names no version.
   */
  private static String version(String written) {
    String v = written.strip();
    if ((v.startsWith("v") || v.startsWith("V"))
        && v.length() > 1
        && Character.isDigit(v.charAt(1))) {
      v = v.substring(1);
    }
    if (HASH.matcher(v).matches()) {
      return null;
    }
    if (VERSION.matcher(v).matches()) {
      return v;
    }
    Set<String> named = new LinkedHashSet<>();
    Matcher m = NAMED.matcher(written);
    while (m.find()) {
      named.add(m.group(1));
    }
    String joined = String.join("/", named);
    return named.isEmpty() || joined.length() > 64 ? null : joined;
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
