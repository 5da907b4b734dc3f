// @name symptom-cause-fix-paths
// @estimator grouped
// @estimate dimension symptom
// @estimate pair rootCause
// @estimate third fixPattern
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown false
// @estimate minimum $minIssues
// @estimate zeros drop
// @estimate top $limit
// @description Symptom -> root cause -> fix pattern paths of bug reports, the most frequent of each symptom first. By
// @description default (mode=estimate) a row is an estimate with a 90% interval (the grouped estimator,
// @description estimate/README.md): the expected number of bug reports with the symptom, root cause and fix pattern
// @description (each issue's P(bug) x P(symptom | bug) x P(root cause | bug) x P(fix pattern | bug), the three taken
// @description as independent given the kind; a cell's calibration error the sum of the root cause's and the fix
// @description pattern's), and the path's share among the symptom's known paths. mode=confident counts bug reports
// @description whose BUG, symptom, root-cause and fix-pattern labels all pass minConfidence (a person's label always
// @description passes), mode=all every top label. Known codes only; paths below minIssues expected issues (labels
// @description counted: with no label) are left out.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param minIssues Float = 0.05  -- leave out paths with fewer expected issues
// @param limit Integer = 50  -- at most this many paths per symptom, the largest
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column code String  -- symptom code
// @column code2 String  -- root-cause code
// @column code3 String  -- fix-pattern code
// @column rank Integer  -- 1 = the symptom's largest expected count (mode=confident/all: most labels)
// @column estimate Float  -- expected number of bug reports on the path (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of the path among the symptom's known paths, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- bug reports whose three labels are these codes, all and the BUG label above the bar
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with the three labels and the BUG label above the bar and known / inScope, 4 decimals (same on every row)
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
RETURN i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, 'symptom') AS top, i[$dimensions.symptom.probabilitiesProperty] AS p,
       i[$dimensions.symptom.calibrationProperty] AS calibration, @passes(i, 'symptom') AS passes,
       @value(i, 'rootCause') AS top2, i[$dimensions.rootCause.probabilitiesProperty] AS p2,
       i[$dimensions.rootCause.calibrationProperty] AS calibration2, @passes(i, 'rootCause') AS passes2,
       @value(i, 'fixPattern') AS top3, i[$dimensions.fixPattern.probabilitiesProperty] AS p3,
       i[$dimensions.fixPattern.calibrationProperty] AS calibration3, @passes(i, 'fixPattern') AS passes3,
       @sampled(i, s)
