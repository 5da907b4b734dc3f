// @name new-bugs-per-release
// @description Bug reports (kind BUG) FILED_AGAINST each release, per framework, with the release dates.
// @description Releases with no bugs are listed with 0. Deleted and transferred-away issues are not counted.
// @param framework String = null  -- framework name (e.g. deepspeed); null = every framework
// @param since DateTime = null  -- only releases published at or after this instant; null = all
// @param to DateTime = null  -- only releases published before this instant; null = all
// @param includePrereleases Boolean = true  -- false leaves out releases marked prerelease
// @column framework String  -- framework of the release
// @column release String  -- release key, framework@version
// @column version String  -- version as written, no leading v
// @column tag String  -- git tag
// @column publishedAt DateTime  -- when the release was published
// @column prerelease Boolean  -- whether GitHub marks it a prerelease
// @column bugs Integer  -- bug reports filed against it
// @column openBugs Integer  -- of those, still open
MATCH (r:Release)
WHERE ($framework IS NULL OR r.framework = $framework)
  AND ($since IS NULL OR r.publishedAt >= $since)
  AND ($to IS NULL OR r.publishedAt < $to)
  AND ($includePrereleases OR NOT coalesce(r.prerelease, false))
// Counted from each release outward, so the planner never scans issues per release.
CALL (r) {
  MATCH (r)<-[:FILED_AGAINST]-(i:Issue)
  WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  RETURN count(i) AS bugs, count(CASE WHEN i.state = 'open' THEN 1 END) AS openBugs
}
RETURN r.framework AS framework, r.id AS release, r.version AS version, r.tag AS tag,
       r.publishedAt AS publishedAt, r.prerelease AS prerelease, bugs, openBugs
ORDER BY framework, publishedAt, version
