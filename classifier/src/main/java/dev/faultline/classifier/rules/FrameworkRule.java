package dev.faultline.classifier.rules;

import dev.faultline.classifier.Frameworks;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.VersionExtractor;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The framework and the versions a report names (not taxonomy dimensions, but part of every
 * classification).
 */
public final class FrameworkRule {

  /**
   * "with commit [d64ba4c](…)", "at commit 1a2b3c4d": a hexadecimal commit id with letters and
   * digits.
   */
  private static final Pattern MEGATRON_COMMIT =
      Pattern.compile(
          "(?i)\\bcommit[ \\t]{1,4}\\[?`?((?=[0-9a-f]{0,39}[0-9])(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40})\\b");

  private final VersionExtractor versions = new VersionExtractor();
  private final Frameworks frameworks = new Frameworks();

  /**
   * The framework of the report's repository, or null when the repository is not a known
   * framework's.
   */
  public String ofRepository(Evidence c) {
    return frameworks.ofRepo(c.in().repo()).orElse(null);
  }

  /**
   * The framework: the repository's, else the first one the text names.
   *
   * @param repoFramework {@link #ofRepository}
   */
  public Label<String> decide(Evidence c, String repoFramework) {
    if (repoFramework != null) {
      return Label.predicted(repoFramework, 1.0, "repository " + c.in().repo());
    }
    return frameworks
        .ofText(c.allText().toLowerCase(Locale.ROOT))
        .map(fw -> Label.predicted(fw, 0.6, "first framework named in the text"))
        .orElse(Label.predicted((String) null, 0.0, "no known repository or framework name"));
  }

  /**
   * Component (lower-case) to version as written, in order of first mention.
   *
   * @param repoFramework {@link #ofRepository}
   */
  public Map<String, String> versions(Evidence c, String repoFramework) {
    Map<String, String> found = versions.extract(c.allText());
    if ("Megatron-LM".equals(repoFramework)
        && !found.containsKey("megatron-lm")
        && !found.containsKey("megatron-core")) {
      // Megatron-LM is mostly used from a checkout: its users name the commit they run
      Matcher commit = MEGATRON_COMMIT.matcher(c.in().title() + "\n" + c.in().body());
      if (commit.find()) {
        found.put("megatron-lm", commit.group(1));
      }
    }
    return found;
  }
}
