package dev.faultline.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faultline.graph.ErrorLines;
import dev.faultline.graph.query.QueryLibrary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Find issues like this" for a report not filed yet: the pasted title and text are searched with
 * the {@code similar-issues} query by their words (the full-text index; the error lines of the
 * text's first traceback, {@link ErrorLines}, weigh more) and, when the dashboard has the
 * pipeline's {@link TextEncoder}, by their meaning (the vector index), each result with what
 * resolved it.
 */
final class SimilarSearch {
  private static final Logger LOG = LoggerFactory.getLogger(SimilarSearch.class);

  /** Characters of a pasted title accepted. */
  static final int MAX_TITLE = 300;

  /** Characters of a pasted text accepted (a report with a long traceback fits). */
  static final int MAX_TEXT = 20_000;

  static final int DEFAULT_LIMIT = 10;
  static final int MAX_LIMIT = 50;
  private static final Pattern FRAMEWORK = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._+-]{0,99}");

  /** A validated request: a title or a text (or both), an optional framework, a limit. */
  record Request(String title, String text, String framework, int limit) {}

  private final QueryLibrary queries;
  private final TextEncoder encoder;

  /**
   * @param encoder the pipeline's encoder, or null to search by words alone
   */
  SimilarSearch(QueryLibrary queries, TextEncoder encoder) {
    this.queries = queries;
    this.encoder = encoder;
  }

  /**
   * The request of a JSON body {@code {"title", "text", "framework", "limit"}}.
   *
   * @throws ApiError naming the field at fault
   */
  static Request parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiError.badParameter("body", "send a JSON object {\"title\", \"text\"}");
    }
    for (var names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!List.of("title", "text", "framework", "limit").contains(name)) {
        throw ApiError.badParameter(
            name, "not a field of this request; give title, text, framework, limit");
      }
    }
    String title = string(body, "title", MAX_TITLE);
    String text = string(body, "text", MAX_TEXT);
    if (title == null && text == null) {
      throw ApiError.badParameter("text", "give a title or a text to search by");
    }
    String framework = string(body, "framework", 100);
    if (framework != null && !FRAMEWORK.matcher(framework).matches()) {
      throw ApiError.badParameter("framework", "not a framework name");
    }
    JsonNode limit = body.path("limit");
    int n = DEFAULT_LIMIT;
    if (!limit.isMissingNode() && !limit.isNull()) {
      if (!limit.canConvertToInt()
          || !limit.isIntegralNumber()
          || limit.asInt() < 1
          || limit.asInt() > MAX_LIMIT) {
        throw ApiError.badParameter("limit", "a whole number from 1 to " + MAX_LIMIT);
      }
      n = limit.asInt();
    }
    return new Request(title, text, framework, n);
  }

  private static String string(JsonNode body, String name, int max) {
    JsonNode v = body.path(name);
    if (v.isMissingNode() || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw ApiError.badParameter(name, "a string");
    }
    String s = v.asText().strip();
    if (s.length() > max) {
      throw ApiError.badParameter(name, "longer than " + max + " characters");
    }
    return s.isEmpty() ? null : s;
  }

  /** The response: the similar issues, the error lines searched by, and whether by meaning too. */
  Map<String, Object> search(Request r) {
    String errorLines = ErrorLines.of(r.text());
    Map<String, String> q = new LinkedHashMap<>();
    put(q, "title", r.title());
    put(q, "text", r.text());
    put(q, "errorLines", errorLines);
    put(q, "framework", r.framework());
    q.put("limit", String.valueOf(r.limit()));
    float[] vector = encode(r);
    if (vector != null) {
      q.put("vector", join(vector));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("errorLines", errorLines);
    body.put("byMeaning", vector != null);
    body.put("similar", queries.run("similar-issues", q));
    return body;
  }

  /**
   * The text's vector as the pipeline computes an issue's (title, a line break, the body), or null
   * without an encoder or when it fails (the search then goes by words alone).
   */
  private float[] encode(Request r) {
    if (encoder == null) {
      return null;
    }
    String text = (r.title() == null ? "" : r.title()) + "\n" + (r.text() == null ? "" : r.text());
    try {
      return encoder.encode(text);
    } catch (RuntimeException e) {
      LOG.warn("The text encoder failed; searching by words alone: {}", e.toString());
      return null;
    }
  }

  private static void put(Map<String, String> q, String name, String value) {
    if (value != null) {
      q.put(name, value);
    }
  }

  /** A vector as the query library's Vector parameter: comma-separated, each float exact. */
  static String join(float[] vector) {
    StringBuilder b = new StringBuilder(vector.length * 12);
    for (int i = 0; i < vector.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(Float.toString(vector[i]));
    }
    return b.toString();
  }
}
