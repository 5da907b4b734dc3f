package dev.faultline.ingest.backfill.git;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which tags of a repository are releases, per framework repository: a regular expression the whole
 * tag name must match. The defaults follow each framework's own tagging ({@code v0.16.4} for
 * DeepSpeed, {@code core_v0.10.0} and {@code v2.5} for Megatron-LM); other repositories get {@link
 * #GENERIC}. {@code --tag-pattern} replaces it.
 */
public record ReleaseTagPatterns(Pattern pattern) {
  /**
   * Version-like tags: {@code v1.2}, {@code 1.2.3}, {@code v1.2.3rc1}, {@code v1.2.3-rc.1}, {@code
   * v1.2.3.post1}.
   */
  public static final String GENERIC =
      "v?\\d+(\\.\\d+)+([-._]?(rc|post|dev|alpha|beta|a|b)\\.?\\d*)?";

  /** Framework repositories (lower case) → their release tag pattern. */
  public static final Map<String, String> DEFAULTS =
      Map.of(
          "deepspeedai/deepspeed", "v\\d+\\.\\d+\\.\\d+",
          "microsoft/deepspeed", "v\\d+\\.\\d+\\.\\d+",
          "nvidia/megatron-lm", "(core_)?v\\d+\\.\\d+(\\.\\d+)?(rc\\d+)?",
          "hpcaitech/colossalai", "v\\d+\\.\\d+\\.\\d+",
          "horovod/horovod", "v\\d+\\.\\d+\\.\\d+(rc\\d+)?",
          "vllm-project/vllm", "v\\d+\\.\\d+\\.\\d+(rc\\d+)?(\\.post\\d+)?",
          "pytorch/pytorch", "v\\d+\\.\\d+\\.\\d+(-rc\\d+)?");

  private static final Pattern PRERELEASE =
      Pattern.compile("(?i).*\\d[-._]?(rc|alpha|beta|dev|pre|a|b)\\.?\\d*$");

  /** The default pattern for {@code repo} ({@code owner/name}). */
  public static ReleaseTagPatterns forRepository(String repo) {
    return of(DEFAULTS.getOrDefault(repo.toLowerCase(Locale.ROOT), GENERIC));
  }

  /**
   * @throws IllegalArgumentException when {@code regex} is not a regular expression
   */
  public static ReleaseTagPatterns of(String regex) {
    try {
      return new ReleaseTagPatterns(Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "--tag-pattern is not a regular expression: " + e.getDescription());
    }
  }

  public boolean isRelease(String tag) {
    return pattern.matcher(tag).matches();
  }

  public static boolean isPrerelease(String tag) {
    return PRERELEASE.matcher(tag).matches();
  }
}
