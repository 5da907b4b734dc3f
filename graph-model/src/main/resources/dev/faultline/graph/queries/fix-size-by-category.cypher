// @name fix-size-by-category
// @estimator grouped
// @estimate dimension $dimension
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown $includeUnknown
// @estimate minimum 0.05
// @estimate zeros drop
// @estimate subset fromIssue, small
// @estimate quantiles medianLines=lines@0.5, p90Lines=lines@0.9, medianFiles=files@0.5
// @description P1's fix-size analysis: the size of merged fixes per category of one dimension. Each merged change of
// @description known size (pull requests, and changes read from a clone's history) that FIXES a classified issue or
// @description was classified itself is one item; its kind and category come from the bug report it FIXES (its
// @description report labelled BUG, the most confident first; a change closing several counts once, by that report),
// @description else from its own classification (merged changes the classifier calls bug fixes), else from the issue
// @description it closes. By default (mode=estimate) a row is an estimate with a 90% interval (the grouped estimator,
// @description estimate/README.md): the expected number of merged fixes of bug reports in the category (P(bug) x
// @description P(category | bug) of that node), its share among the known categories, and the same estimate over the
// @description fixes of at most maxLines changed lines (small) and over those categorised by a bug report (fromIssue);
// @description no validation sample serves changes. mode=confident counts changes whose BUG label and category pass
// @description minConfidence (a person's label, and a change's own classification, always pass), mode=all every top
// @description label (what this query counted before issue #31). The line and file statistics are descriptions, not
// @description estimates: weighted quantiles of the changes' lines (additions + deletions) and changed files, each
// @description change weighing its probability of the category (mode=confident/all: the counted changes, unweighted),
// @description Hazen's midpoint rule. Rows below 0.05 expected fixes are left out.
// @param dimension Dimension(taxonomy) = rootCause  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- fixes merged at or after this instant; null = from the start
// @param to DateTime = null  -- fixes merged before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines is small
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- category code
// @column estimate Float  -- expected number of merged fixes of bug reports in the category (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share among the known categories, 4 decimals (null for UNKNOWN, NONE, and where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column smallEstimate Float  -- of the estimate, the fixes of at most maxLines changed lines, 1 decimal
// @column smallLow Float  -- lower end of its 90% interval
// @column smallHigh Float  -- upper end of its 90% interval
// @column fromIssueEstimate Float  -- of the estimate, the fixes categorised by the bug report they close, 1 decimal
// @column fromIssueLow Float  -- lower end of its 90% interval
// @column fromIssueHigh Float  -- upper end of its 90% interval
// @column medianLines Float  -- weighted median of changed lines, 2 decimals
// @column p90Lines Float  -- weighted 90th percentile of changed lines, 2 decimals
// @column medianFiles Float  -- weighted median of files changed, 2 decimals
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- changes whose label is this code with the dimension's and the BUG label above the bar
// @column inScope Integer  -- merged changes of known size in the filters that fix a classified issue or were classified themselves (same on every row)
// @column expectedInScope Float  -- expected number of them that fix a bug report (same on every row)
// @column coverage Float  -- changes with the BUG label and the dimension's above the bar and a known code / inScope, 4 decimals (same on every row)
MATCH (pr:PullRequest)
WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
  AND ($from IS NULL OR pr.mergedAt >= $from)
  AND ($to IS NULL OR pr.mergedAt < $to)
OPTIONAL MATCH (pr)-[:IN_REPO]->(:Repository)-[:OF]->(f:Framework)
WITH pr, f.name AS framework
WHERE $framework IS NULL OR framework = $framework
OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL AND i.classifierVersion IS NOT NULL
WITH pr, i
ORDER BY CASE WHEN i.kind = 'BUG' THEN 0 ELSE 1 END, coalesce(i[$dimensions.kind.confidenceProperty], 0.0) DESC, i.id
WITH pr, collect(i) AS reports
// The node the change's kind and category come from: a bug report it fixes, else its own classification, else an
// issue it closes.
WITH pr, CASE
           WHEN any(b IN reports WHERE b.kind = 'BUG') THEN head([b IN reports WHERE b.kind = 'BUG'])
           WHEN pr.kind IS NOT NULL THEN pr
           ELSE head(reports)
         END AS source
WHERE source IS NOT NULL
WITH pr, source, source <> pr AS fromIssue, $dimensions[$dimension].labelKey AS labelDimension,
     pr.additions + pr.deletions AS lines
RETURN pr.id AS id,
       source.kind AS kind, source[$dimensions.kind.probabilitiesProperty] AS kindP,
       source[$dimensions.kind.calibrationProperty] AS kindCalibration,
       NOT fromIssue OR @passes(source, 'kind') AS kindPasses,
       source.humanGiven AS humanGiven,
       @value(source, $dimension) AS top, source[$dimensions[labelDimension].probabilitiesProperty] AS p,
       source[$dimensions[labelDimension].calibrationProperty] AS calibration,
       NOT fromIssue OR @passes(source, labelDimension) AS passes,
       fromIssue, lines, lines <= $maxLines AS small, pr.changedFiles AS files,
       null AS sample, false AS sampleDrawn, true AS samplePopulation
