package dev.faultline.ingest.backfill.git;

import java.time.Instant;

/**
 * A tag of the repository that names a release.
 *
 * @param name the tag as written ({@code v0.16.4}, {@code core_v0.10.0})
 * @param sha the commit it points at (peeled)
 * @param date the annotated tag's date, or the commit's committer date for a lightweight tag
 * @param annotated whether the tag is an annotated tag object
 * @param prerelease whether the name marks a pre-release ({@code rc1}, {@code alpha}, {@code beta},
 *     {@code dev})
 */
public record ReleaseTag(
    String name, String sha, Instant date, boolean annotated, boolean prerelease) {}
