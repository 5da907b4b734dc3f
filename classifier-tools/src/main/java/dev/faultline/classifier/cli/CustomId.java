package dev.faultline.classifier.cli;

import dev.faultline.classifier.llm.AnswerCache;
import java.time.Instant;
import java.util.Arrays;

/**
 * The Batch API {@code custom_id} that {@code llm export} writes, read by one rule for {@code llm
 * import} and {@code llm calibrate}. Three forms, newest first: {@code <url>#<model>#<prompt
 * version>#<as-of>#<cache key>}, {@code <url>#<model>#<prompt version>#<cache key>} (an export that
 * wrote no as-of), and {@code <url>#<cache key>} (exports before those; model and prompt version
 * then come from the command's flags). The URL may itself hold a {@code #} (a comment's anchor), so
 * the parts are taken from the end.
 *
 * @param raw the custom_id as read
 * @param key the last part, the answer cache's content key ("" when there is no {@code #})
 * @param target the model and prompt version it names, or null (the old form, or empty parts)
 * @param asOf the time of the issue's state the answer was made for, or null when none is named
 * @param item the issue ({@code owner/repo#n}) of the URL part, or null when it names none
 */
record CustomId(String raw, String key, LlmCommand.Target target, Instant asOf, String item) {

  /** Reads a custom_id; never fails (parts that are not there are null). */
  static CustomId parse(String raw) {
    String[] parts = raw.split("#", -1);
    if (parts.length < 2) {
      return new CustomId(raw, "", null, null, null);
    }
    int n = parts.length;
    Instant asOf = n >= 5 ? LlmCommand.instant(parts[n - 2]) : null;
    int tail = asOf != null ? 4 : 3; // the parts after the URL
    LlmCommand.Target target =
        n > tail && !parts[n - tail].isEmpty()
            ? new LlmCommand.Target(parts[n - tail], parts[n - tail + 1])
            : null;
    int urlParts = n > tail ? n - tail : n - 1;
    String item = AnswerCache.item(String.join("#", Arrays.copyOf(parts, urlParts))).orElse(null);
    return new CustomId(raw, parts[n - 1], target, asOf, item);
  }
}
