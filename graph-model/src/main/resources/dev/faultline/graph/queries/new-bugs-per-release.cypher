// @name new-bugs-per-release
// @estimator grouped
// @estimate dimension kind
// @estimate group framework, release, version, tag, publishedAt, prerelease
// @estimate mode $mode
// @estimate codes BUG
// @estimate subset open
// @description Bug reports FILED_AGAINST each release, per framework, with the release dates; releases with no issue
// @description are listed with 0. Deleted and transferred-away issues are not counted. By default (mode=estimate)
// @description the figure is an estimate with a 90% interval (the grouped estimator, estimate/README.md): the
// @description expected number of bug reports among the issues filed against the release (each weighed by its
// @description probability of being a bug report, whatever its label), with the share of bug reports among them,
// @description the method and what it rests on; the same for the issues still open. mode=confident counts issues
// @description whose BUG label passes minConfidence (a person's label always passes), mode=all every BUG label.
// @description No validation sample corrects these rows (a sample serves a framework's time range, not a release).
// @param framework String = null  -- framework name (e.g. deepspeed); null = every framework
// @param since DateTime = null  -- only releases published at or after this instant; null = all
// @param to DateTime = null  -- only releases published before this instant; null = all
// @param includePrereleases Boolean = true  -- false leaves out releases marked prerelease
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column framework String  -- framework of the release
// @column release String  -- release key, framework@version
// @column version String  -- version as written, no leading v
// @column tag String  -- git tag
// @column publishedAt DateTime  -- when the release was published
// @column prerelease Boolean  -- whether GitHub marks it a prerelease
// @column estimate Float  -- expected number of bug reports filed against it (mode=confident/all: the count of BUG labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of bug reports among its issues of a known kind, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column openEstimate Float  -- the same estimate over its issues still open, 1 decimal
// @column openLow Float  -- lower end of its 90% interval
// @column openHigh Float  -- upper end of its 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- issues filed against it whose BUG label passes minConfidence
// @column inScope Integer  -- issues filed against it, of any kind
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
WITH null AS s
MATCH (rel:Release)
WHERE ($framework IS NULL OR rel.framework = $framework)
  AND ($since IS NULL OR rel.publishedAt >= $since)
  AND ($to IS NULL OR rel.publishedAt < $to)
  AND ($includePrereleases OR NOT coalesce(rel.prerelease, false))
// From each release outward, so the planner never scans issues per release; a release with no issue gives one row
// with a null id (its group, no item).
OPTIONAL MATCH (rel)<-[:FILED_AGAINST]-(i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
RETURN rel.framework AS framework, rel.id AS release, rel.version AS version, rel.tag AS tag,
       rel.publishedAt AS publishedAt, rel.prerelease AS prerelease, i.id AS id, i.state = 'open' AS open,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       i.kind AS top, i[$dimensions.kind.probabilitiesProperty] AS p, i[$dimensions.kind.calibrationProperty] AS calibration,
       @passes(i, 'kind') AS passes,
       @sampled(i, s)
ORDER BY framework, publishedAt, version, id
