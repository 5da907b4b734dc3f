package dev.faultline.embedded.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The project's shared read-only material ({@code ../shared}), found above the working directory.
 */
public final class SharedFixtures {
  private SharedFixtures() {}

  /**
   * {@code shared/fixtures/github-webhooks}: GitHub's example payloads, one {@code
   * event.action….json} each.
   */
  public static Optional<Path> githubWebhooks() {
    return find("shared/fixtures/github-webhooks");
  }

  /**
   * The {@code .json} files of {@link #githubWebhooks()}, sorted by name; skips the calling test (a
   * JUnit assumption, not a failure) where the shared fixtures are absent.
   */
  public static List<Path> githubWebhookFiles() {
    Optional<Path> dir = githubWebhooks();
    Assumptions.assumeTrue(
        dir.isPresent(),
        "shared/fixtures/github-webhooks not found above " + Path.of("").toAbsolutePath());
    return jsonFiles(dir.get());
  }

  /**
   * One of GitHub's example payloads: its file name ({@code event.action….json}), the event it is
   * an example of (the name up to the first dot) and its bytes.
   */
  public record GithubWebhook(String name, String event, byte[] body) {
    public static GithubWebhook read(Path file) {
      String name = file.getFileName().toString();
      try {
        return new GithubWebhook(
            name, name.substring(0, name.indexOf('.')), Files.readAllBytes(file));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** {@link #githubWebhookFiles()} read, in the same order, with the same skipping. */
  public static List<GithubWebhook> githubWebhookPayloads() {
    return githubWebhookFiles().stream().map(GithubWebhook::read).toList();
  }

  /** The first directory {@code relative} below the working directory or one of its parents. */
  public static Optional<Path> find(String relative) {
    return Stream.iterate(Path.of("").toAbsolutePath(), dir -> dir != null, Path::getParent)
        .map(dir -> dir.resolve(relative))
        .filter(Files::isDirectory)
        .findFirst();
  }

  /** The {@code .json} files of a directory, sorted by name. */
  public static List<Path> jsonFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
