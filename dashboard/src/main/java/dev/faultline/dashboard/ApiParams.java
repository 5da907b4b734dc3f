package dev.faultline.dashboard;

import dev.faultline.graph.ConfidencePolicy;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The query parameters of one API request, validated. Every accessor either returns a well-formed
 * value or throws {@link ApiError#badParameter} naming the parameter and what is accepted;
 * parameters the endpoint does not know, and parameters given twice, are rejected too, so a typo
 * never silently means "no filter".
 */
final class ApiParams {
  static final int MAX_TEXT = 200;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._+-]{0,99}");
  private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");
  private static final Pattern RELEASE =
      Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._+-]{0,99}@[A-Za-z0-9][A-Za-z0-9._+-]{0,99}");
  private static final Pattern ISSUE =
      Pattern.compile("[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}#[0-9]{1,9}");

  private final Map<String, List<String>> values;

  /**
   * @param values the request's query parameters
   * @param accepted the names this endpoint accepts
   */
  ApiParams(Map<String, List<String>> values, Set<String> accepted) {
    this.values = Map.copyOf(values);
    for (var e : values.entrySet()) {
      if (!accepted.contains(e.getKey())) {
        throw ApiError.badParameter(
            e.getKey(),
            "not a parameter of this endpoint; accepted: "
                + String.join(", ", accepted.stream().sorted().toList()));
      }
      if (e.getValue().size() > 1) {
        throw ApiError.badParameter(
            e.getKey(), "given " + e.getValue().size() + " times; give it once");
      }
    }
  }

  /** The raw value, empty when absent or blank. */
  Optional<String> text(String name) {
    List<String> v = values.get(name);
    if (v == null || v.isEmpty() || v.get(0).isBlank()) {
      return Optional.empty();
    }
    String s = v.get(0).strip();
    if (s.length() > MAX_TEXT) {
      throw ApiError.badParameter(name, "longer than " + MAX_TEXT + " characters");
    }
    return Optional.of(s);
  }

  /** A framework name such as {@code DeepSpeed}. */
  Optional<String> framework(String name) {
    return text(name).map(s -> matching(name, s, NAME, "a framework name such as DeepSpeed"));
  }

  /** A taxonomy code such as {@code HANG}. */
  Optional<String> code(String name) {
    return text(name).map(s -> matching(name, s, CODE, "a taxonomy code in capitals such as HANG"));
  }

  /** A release key {@code framework@version}. */
  Optional<String> release(String name) {
    return text(name)
        .map(
            s ->
                matching(
                    name, s, RELEASE, "a release key framework@version such as DeepSpeed@0.14.2"));
  }

  /** An issue id {@code owner/repo#number}; required. */
  String issueId(String name) {
    return text(name)
        .map(
            s ->
                matching(
                    name,
                    s,
                    ISSUE,
                    "an issue id owner/repo#number such as deepspeedai/DeepSpeed#4242"))
        .orElseThrow(() -> ApiError.badParameter(name, "required: an issue id owner/repo#number"));
  }

  /** One of a fixed set of values (case-sensitive). */
  Optional<String> choice(String name, List<String> allowed) {
    return text(name)
        .map(
            s -> {
              if (!allowed.contains(s)) {
                throw ApiError.badParameter(
                    name, "'" + s + "' is not one of " + String.join(", ", allowed));
              }
              return s;
            });
  }

  /**
   * A date {@code 2024-05-01} (midnight UTC) or an instant with offset {@code
   * 2024-05-01T12:00:00Z}.
   */
  Optional<Instant> instant(String name) {
    return text(name)
        .map(
            s -> {
              try {
                return s.length() == 10
                    ? LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(s).toInstant();
              } catch (DateTimeParseException e) {
                throw ApiError.badParameter(
                    name, "'" + s + "' is not a date such as 2024-05-01 or 2024-05-01T12:00:00Z");
              }
            });
  }

  /** A whole number in {@code [min, max]}, {@code fallback} when absent. */
  int integer(String name, int fallback, int min, int max) {
    return text(name)
        .map(
            s -> {
              try {
                int v = Integer.parseInt(s);
                if (v < min || v > max) {
                  throw ApiError.badParameter(
                      name, v + " is out of range: give " + min + " to " + max);
                }
                return v;
              } catch (NumberFormatException e) {
                throw ApiError.badParameter(
                    name, "'" + s + "' is not a whole number between " + min + " and " + max);
              }
            })
        .orElse(fallback);
  }

  /**
   * A confidence bar ({@link ConfidencePolicy#parse}): a number from 0 to 1, {@code all}, {@code
   * calibrated} or {@code default}; {@code fallback} when absent.
   */
  ConfidencePolicy confidence(String name, ConfidencePolicy fallback) {
    return text(name)
        .map(
            s -> {
              try {
                return ConfidencePolicy.parse(s, fallback);
              } catch (IllegalArgumentException e) {
                throw ApiError.badParameter(
                    name,
                    "'"
                        + s
                        + "' is not a number from 0 to 1, all (every label), calibrated or default");
              }
            })
        .orElse(fallback);
  }

  /** {@code true} or {@code false}, {@code fallback} when absent. */
  boolean bool(String name, boolean fallback) {
    return choice(name, List.of("true", "false")).map(Boolean::parseBoolean).orElse(fallback);
  }

  private static String matching(String name, String value, Pattern pattern, String expected) {
    if (!pattern.matcher(value).matches()) {
      throw ApiError.badParameter(name, "expected " + expected);
    }
    return value;
  }
}
