// @name distributed-specific-share
// @estimator grouped
// @estimate dimension distributedSpecific
// @estimate group scope, framework
// @estimate kind $kind
// @estimate mode $mode
// @estimate codes true
// @description Share of issues of a kind (bug reports by default) whose defect is distributed-specific (could not
// @description occur on one device), overall (the first row) and per framework. By default (mode=estimate) every
// @description figure is an estimate with a 90% interval (the grouped estimator, estimate/README.md): the expected
// @description number of distributed-specific issues of the kind (each issue's probability of the kind times its
// @description probability of being distributed-specific given it) and their share among the issues where it is
// @description known (an undetermined value is left out of the share), with the method and what it rests on ("too few
// @description to estimate" below 3 expected). mode=confident counts issues whose label and kind label pass
// @description minConfidence (a person's label always passes), mode=all every top label. P2 reports 45.1% of
// @description symptoms distributed-specific. No validation sample corrects these rows (category-shares with
// @description dimension=distributedSpecific does, for one framework's scope).
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column scope String  -- overall (one row, first) or framework
// @column framework String  -- framework name; null on the overall row
// @column estimate Float  -- expected number of distributed-specific issues of the kind (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share among issues of the kind where it is known, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- issues labelled distributed-specific, with that label and the kind's above the bar
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the scope, of any kind
// @column expectedInScope Float  -- expected number of issues of the kind among them
// @column coverage Float  -- issues with the kind's and a known distributed-specific label above the bar / inScope, 4 decimals
// No validation sample is read here (a sample serves one framework's scope, these rows are several).
WITH null AS s
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
UNWIND [{scope: 'overall', framework: null}, {scope: 'framework', framework: i.framework}] AS g
RETURN g.scope AS scope, g.framework AS framework, i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, 'distributedSpecific') AS top, i[$dimensions.distributedSpecific.probabilitiesProperty] AS p,
       i[$dimensions.distributedSpecific.calibrationProperty] AS calibration, @passes(i, 'distributedSpecific') AS passes,
       @sampled(i, s)
ORDER BY g.scope DESC, g.framework, id
