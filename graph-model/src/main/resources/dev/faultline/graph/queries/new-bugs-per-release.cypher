// @name new-bugs-per-release
// @description Bug reports (kind BUG) FILED_AGAINST each release, per framework, with the release dates.
// @description Releases with no bugs are listed with 0. Deleted and transferred-away issues are not counted.
// @description Only BUG labels that pass minConfidence (kindConfidence, or human-given) are counted; inScope,
// @description labelled and coverage say how many bug reports that leaves out.
// @param framework String = null  -- framework name (e.g. deepspeed); null = every framework
// @param since DateTime = null  -- only releases published at or after this instant; null = all
// @param to DateTime = null  -- only releases published before this instant; null = all
// @param includePrereleases Boolean = true  -- false leaves out releases marked prerelease
// @param minConfidence Confidence = default  -- bar a BUG label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column framework String  -- framework of the release
// @column release String  -- release key, framework@version
// @column version String  -- version as written, no leading v
// @column tag String  -- git tag
// @column publishedAt DateTime  -- when the release was published
// @column prerelease Boolean  -- whether GitHub marks it a prerelease
// @column bugs Integer  -- bug reports filed against it whose BUG label passes minConfidence
// @column openBugs Integer  -- of those, still open
// @column inScope Integer  -- bug reports filed against it, whatever the confidence of their BUG label
// @column labelled Integer  -- of those, whose BUG label passes minConfidence (= bugs)
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
MATCH (r:Release)
WHERE ($framework IS NULL OR r.framework = $framework)
  AND ($since IS NULL OR r.publishedAt >= $since)
  AND ($to IS NULL OR r.publishedAt < $to)
  AND ($includePrereleases OR NOT coalesce(r.prerelease, false))
// Counted from each release outward, so the planner never scans issues per release.
CALL (r) {
  MATCH (r)<-[:FILED_AGAINST]-(i:Issue)
  WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  WITH i, @passes(i, 'kind')
         AS confident
  RETURN count(CASE WHEN confident THEN 1 END) AS bugs,
         count(CASE WHEN confident AND i.state = 'open' THEN 1 END) AS openBugs,
         count(i) AS inScope
}
RETURN r.framework AS framework, r.id AS release, r.version AS version, r.tag AS tag,
       r.publishedAt AS publishedAt, r.prerelease AS prerelease, bugs, openBugs, inScope, bugs AS labelled,
       CASE WHEN inScope = 0 THEN null ELSE round(toFloat(bugs) / inScope, 4) END AS coverage
ORDER BY framework, publishedAt, version
