package dev.faultline.ingest.backfill;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which repositories a backfill keeps, by {@code owner/name}, case-insensitively (GitHub names
 * are).
 */
public final class RepositoryFilter {
  /**
   * The frameworks faultline studies, old names included: DeepSpeed moved from {@code microsoft} to
   * {@code deepspeedai} in 2025; GH Archive records each event under the name the repository had
   * then.
   */
  public static final List<String> DEFAULT_REPOSITORIES =
      List.of(
          "microsoft/DeepSpeed",
          "deepspeedai/DeepSpeed",
          "NVIDIA/Megatron-LM",
          "hpcaitech/ColossalAI");

  private final Set<String> names;

  private RepositoryFilter(Set<String> names) {
    this.names = names;
  }

  public static RepositoryFilter of(List<String> repositories) {
    Set<String> names = new LinkedHashSet<>();
    for (String r : repositories) {
      String name = r.trim();
      if (!name.matches("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException("Not a repository name (owner/name): '" + r + "'");
      }
      names.add(name.toLowerCase(Locale.ROOT));
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException(
          "No repositories to backfill: name at least one owner/name");
    }
    return new RepositoryFilter(Set.copyOf(names));
  }

  public static RepositoryFilter defaults() {
    return of(DEFAULT_REPOSITORIES);
  }

  public boolean matches(String fullName) {
    return fullName != null && names.contains(fullName.toLowerCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return names.toString();
  }
}
