package dev.faultline.schemas;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The issues a pull request closes, from GitHub's closing keywords in its title or body: close,
 * closes, closed, fix, fixes, fixed, resolve, resolves, resolved, followed by {@code #n}, {@code
 * owner/repo#n} or an issue URL.
 */
public final class ClosingReferences {
  private static final Pattern REFERENCE =
      Pattern.compile(
          "\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\\b\\s*:?\\s+"
              + "(?:(?<repo>[\\w.-]+/[\\w.-]+)#(?<n1>\\d+)"
              + "|#(?<n2>\\d+)"
              + "|https?://github\\.com/(?<urepo>[\\w.-]+/[\\w.-]+)/issues/(?<n3>\\d+))",
          Pattern.CASE_INSENSITIVE);

  private ClosingReferences() {}

  /**
   * Issue ids ({@code owner/repo#n}) named by closing keywords, in order of appearance, without
   * duplicates.
   */
  public static List<String> in(String repo, String... texts) {
    Set<String> ids = new LinkedHashSet<>();
    for (String text : texts) {
      if (text == null || text.isEmpty()) {
        continue;
      }
      Matcher m = REFERENCE.matcher(text);
      while (m.find()) {
        String targetRepo;
        String number;
        if (m.group("n1") != null) {
          targetRepo = m.group("repo");
          number = m.group("n1");
        } else if (m.group("n2") != null) {
          targetRepo = repo;
          number = m.group("n2");
        } else {
          targetRepo = m.group("urepo");
          number = m.group("n3");
        }
        try {
          ids.add(DeliveryKey.issueId(canonicalCase(targetRepo, repo), Integer.parseInt(number)));
        } catch (NumberFormatException tooLarge) {
          // not an issue number GitHub could have issued
        }
      }
    }
    return List.copyOf(ids);
  }

  /**
   * GitHub repository names are case-insensitive: a reference to this repository takes its
   * spelling.
   */
  private static String canonicalCase(String target, String repo) {
    return target.toLowerCase(Locale.ROOT).equals(repo.toLowerCase(Locale.ROOT)) ? repo : target;
  }
}
