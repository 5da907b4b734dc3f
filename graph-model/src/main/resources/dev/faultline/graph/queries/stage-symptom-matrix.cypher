// @name stage-symptom-matrix
// @estimator grouped
// @estimate dimension stage
// @estimate pair symptom
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown false
// @estimate minimum 0.05
// @estimate zeros drop
// @description Bug reports per execution stage and symptom, one row per cell with a known stage and symptom, for a
// @description stage x symptom heat map. By default (mode=estimate) a cell is an expected count with a 90% interval
// @description (the grouped estimator, estimate/README.md: each issue's probability of being a bug report times the
// @description stage's and the symptom's probabilities given that, the two taken as independent), and share is the
// @description symptom's share among the stage's known symptoms. mode=confident counts bug reports whose stage,
// @description symptom and BUG labels pass minConfidence (a person's label always passes), mode=all every pair of top
// @description labels. Cells below 0.05 expected bug reports (or with no counted label) are left out.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- stage code
// @column code2 String  -- symptom code
// @column estimate Float  -- expected number of bug reports in the cell (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of the symptom among the stage's known symptoms, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- bug reports whose stage and symptom labels are these codes, with both labels and the BUG label above the bar
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with both labels and the BUG label above the bar and known / inScope, 4 decimals (same on every row)
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
       @value(i, 'stage') AS top, i[$dimensions.stage.probabilitiesProperty] AS p,
       i[$dimensions.stage.calibrationProperty] AS calibration, @passes(i, 'stage') AS passes,
       @value(i, 'symptom') AS top2, i[$dimensions.symptom.probabilitiesProperty] AS p2,
       i[$dimensions.symptom.calibrationProperty] AS calibration2, @passes(i, 'symptom') AS passes2,
       @sampled(i, s)
