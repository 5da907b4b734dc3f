// @name category-shares
// @estimator grouped
// @estimate dimension $dimension
// @estimate kind $kind
// @estimate mode $mode
// @description Shares of the codes of one classification dimension among the issues of a kind (bug reports by
// @description default) in a scope, each an estimate with a 90% interval (the grouped estimator, estimate/README.md).
// @description By default (mode=estimate) a code's count is the sum of every issue's probability of being of the kind
// @description and having the code, not a count of labels: probabilistic classify-and-count, its count interval the
// @description Poisson-binomial's with the classifier's calibration error measured out of fold, its share interval a
// @description score interval of the same ratio (the share always inside it; "too few to estimate" below 3 expected
// @description issues with a known code). Where a validation sample serves the scope (sample draw / sample import:
// @description issues drawn uniformly at random and labelled by a person), prediction-powered inference (PPI) corrects
// @description the estimate by the classifier's error measured on the sample, for the issues of the population it was
// @description drawn from; issues added after the draw are estimated without it and the row says how many.
// @description mode=confident counts only labels above the bar, mode=all every top label (counts of labels, no
// @description interval). Shares are among the known codes: UNKNOWN, NONE and an unknown distributed-specific are left
// @description out.
// @param dimension Dimension = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- code of the dimension (true/false/null for distributedSpecific)
// @column estimate Float  -- expected number of issues of the kind with this code (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share among the known codes, 4 decimals (null for UNKNOWN, NONE, and where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column labelled Integer  -- issues whose label is this code with the dimension's and the kind's labels above the bar
// @column method String  -- the estimator: pcc, ppi/score_cc (with a validation sample), ppi/score_cc+pcc (a sample and issues outside its population), +model-error, uncalibrated, partial; or the count of labels
// @column basis String  -- what the figure rests on, e.g. pcc over ≈ 41.2 bug reports (60 items); 3 uncalibrated
// @column note String  -- null, or why a number is missing (too few to estimate)
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with the kind's and the dimension's labels above the bar and a known code / inScope, 4 decimals (same on every row)
// @column expectedInScope Float  -- expected number of issues of the kind among them (same on every row)
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH s, i, $dimensions[$dimension].labelKey AS labelDimension
RETURN i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, $dimension) AS top, i[$dimensions[labelDimension].probabilitiesProperty] AS p,
       i[$dimensions[labelDimension].calibrationProperty] AS calibration, @passes(i, labelDimension) AS passes,
       @sampled(i, s)
