// @name fix-effort-by-category
// @estimator grouped
// @estimate dimension $dimension
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown $includeUnknown
// @estimate minimum 0.05
// @estimate zeros drop
// @estimate subset closed, fixed, smallFix
// @estimate quantiles medianDaysToClose=days@0.5
// @description Fix effort of bug reports per category of one dimension. By default (mode=estimate) a row is an
// @description estimate with a 90% interval (the grouped estimator, estimate/README.md): the expected number of bug
// @description reports in the category (each issue's probability of being a bug report times its category's given
// @description that), and the same estimate over the closed ones, over those a merged change of known size FIXES
// @description (fixed), and over those a merged change of at most maxLines changed lines (additions + deletions)
// @description FIXES (smallFix); where a validation sample serves the scope, prediction-powered inference corrects
// @description them (see category-shares). mode=confident counts bug reports whose BUG label and label of the
// @description dimension pass minConfidence (a person's label always passes; a label of the dimension below the bar
// @description counts as UNKNOWN), mode=all every top label. medianDaysToClose is a description, not an estimate: the
// @description weighted median of closedAt - createdAt in days over the closed issues, each weighing its probability
// @description of the row (mode=confident/all: the counted bug reports, unweighted), Hazen's midpoint rule. Before
// @description issue #31 this query counted merged pull requests per category; its fix columns count bug reports now.
// @description Rows below 0.05 expected bug reports are left out.
// @param dimension Dimension(-kind) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines is small
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column code String  -- category code (true/false for distributedSpecific)
// @column estimate Float  -- expected number of bug reports in the category (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share among the known categories, 4 decimals (null for UNKNOWN, NONE, and where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column closedEstimate Float  -- of the estimate, the closed bug reports (with closedAt), 1 decimal
// @column closedLow Float  -- lower end of its 90% interval
// @column closedHigh Float  -- upper end of its 90% interval
// @column medianDaysToClose Float  -- weighted median of closedAt - createdAt in days over the closed ones, 2 decimals
// @column fixedEstimate Float  -- of the estimate, the bug reports a merged change of known size FIXES, 1 decimal
// @column fixedLow Float  -- lower end of its 90% interval
// @column fixedHigh Float  -- upper end of its 90% interval
// @column smallFixEstimate Float  -- of the estimate, the bug reports a merged change of at most maxLines lines FIXES, 1 decimal
// @column smallFixLow Float  -- lower end of its 90% interval
// @column smallFixHigh Float  -- upper end of its 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- issues whose label is this code with the dimension's and the BUG label above the bar
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column expectedInScope Float  -- expected number of bug reports among them (same on every row)
// @column coverage Float  -- issues with the BUG label and the dimension's above the bar and a known code / inScope, 4 decimals (same on every row)
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH s, i, $dimensions[$dimension].labelKey AS labelDimension,
     [(pr:PullRequest)-[:FIXES]->(i)
      WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
      | pr.additions + pr.deletions] AS fixLines
WITH s, i, labelDimension, fixLines, i.state = 'closed' AND i.closedAt IS NOT NULL AS closed
RETURN i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, $dimension) AS top, i[$dimensions[labelDimension].probabilitiesProperty] AS p,
       i[$dimensions[labelDimension].calibrationProperty] AS calibration, @passes(i, labelDimension) AS passes,
       closed,
       CASE WHEN closed THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END AS days,
       size(fixLines) > 0 AS fixed,
       any(n IN fixLines WHERE n <= $maxLines) AS smallFix,
       @sampled(i, s)
