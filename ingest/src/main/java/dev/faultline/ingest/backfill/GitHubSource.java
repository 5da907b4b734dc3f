package dev.faultline.ingest.backfill;

import dev.faultline.cli.CliCommand;
import dev.faultline.ingest.DeliveryPublisher;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code faultline backfill github}: the GitHub REST API's releases, issues, pull requests and
 * comments of each repository as deliveries ({@link GitHubRestBackfill}), resumable.
 */
@Command(
    name = "github",
    description = {
      "The GitHub REST API (token from GITHUB_TOKEN).",
      "",
      "The GitHub REST API: releases, issues, pull requests, issue comments. Token from GITHUB_TOKEN (anonymous",
      "access allows 60 requests an hour). Resumable: re-run the same command after an interruption."
    })
final class GitHubSource extends CliCommand {
  private final BackfillCommand backfill;

  GitHubSource(BackfillCommand backfill) {
    this.backfill = backfill;
  }

  @Mixin BackfillCommand.Common common;

  @Option(
      names = "--repo",
      paramLabel = "OWNER/NAME",
      required = true,
      description = "repository (repeatable)")
  List<String> repos = new ArrayList<>();

  @Option(
      names = "--since",
      paramLabel = "DATE",
      converter = BackfillCommand.DateConverter.class,
      description =
          "only items updated since DATE (2024-01-31 or 2024-01-31T12:00:00Z); default: since the last"
              + " completed run")
  Instant since;

  @Option(
      names = "--api-url",
      paramLabel = "URL",
      description = "API base (GHES: https://HOST/api/v3)")
  URI apiUrl = URI.create("https://api.github.com");

  @Option(
      names = "--checkpoint",
      paramLabel = "FILE",
      description = "progress file (default .faultline/backfill/github-checkpoint.properties)")
  Path checkpoint;

  @Override
  public Integer call() {
    return BackfillCommand.guarded(this::github, err);
  }

  private int github() throws IOException, InterruptedException {
    if (repos.isEmpty()) {
      throw new BackfillCommand.UsageException("github needs --repo OWNER/NAME");
    }
    RepositoryFilter.of(repos); // validates the names
    Checkpoint progressFile =
        Checkpoint.load(
            checkpoint == null
                ? Path.of(".faultline", "backfill", "github-checkpoint.properties")
                : checkpoint);
    GitHubApi api =
        new GitHubApi(
            backfill.http(),
            apiUrl,
            backfill.env().get("GITHUB_TOKEN"),
            backfill.mapper(),
            backfill.clock(),
            backfill.sleeper());
    try (DeliveryPublisher publisher = backfill.publisher(common)) {
      for (String repo : repos) {
        Publishing sink = new Publishing(publisher, 1_000, Duration.ofMinutes(2));
        Progress progress = Progress.forConsole("github " + repo, out);
        long n =
            new GitHubRestBackfill(api, backfill.mapper(), progressFile, backfill.clock())
                .run(repo, Optional.ofNullable(since), sink, progress);
        progress.finish(n);
        out.printf("github: %s: %d deliveries published to %s%n", repo, n, common.topic);
      }
    }
    return 0;
  }
}
