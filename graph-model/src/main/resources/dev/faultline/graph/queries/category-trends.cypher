// @name category-trends
// @estimator grouped
// @estimate dimension $dimension
// @estimate group period
// @estimate kind $kind
// @estimate mode $mode
// @estimate unknown $includeUnknown
// @estimate zeros drop
// @description Issues of a kind (bug reports by default) opened per week or month and per code of one classification
// @description dimension. By default (mode=estimate) every period and code is an estimate with a 90% interval (the
// @description grouped estimator, estimate/README.md): the expected number of issues of the kind with the code, from
// @description each issue's probabilities, its interval holding the per-issue uncertainty and the classifier's
// @description calibration error measured out of fold, and the code's share of the period's known codes (too few to
// @description estimate below 3 expected); a validation sample serving the scope corrects periods where it has 10 or
// @description more labelled issues. Every code of a period with an issue is a row, zero estimates included.
// @description mode=confident counts an issue when its label of the dimension and its kind label pass minConfidence (a
// @description person's label always passes), mode=all every top label; periods and codes without a counted label are
// @description then left out. includeUnknown also gives the rows of UNKNOWN and NONE.
// @param dimension Dimension = symptom  -- the classification dimension
// @param bucket String(week|month) = month  -- period length; a week starts on Monday
// @param framework String = null  -- framework name; null = every framework
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also gives the rows of UNKNOWN and NONE
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column period Date  -- first day of the week or month
// @column code String  -- code of the dimension (true/false for distributedSpecific)
// @column estimate Float  -- expected number of issues of the kind opened in the period with the code (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of the code among the period's known codes, 4 decimals (null where too few)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column labelled Integer  -- issues of the period whose label is the code, with the dimension's and the kind's labels above the bar
// @column inScope Integer  -- issues opened in the period, of any kind (same on every row of the period)
// @column coverage Float  -- issues of the period with the kind's and the dimension's labels above the bar and a known code / inScope, 4 decimals
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH s, i, $dimensions[$dimension].labelKey AS labelDimension,
     CASE $bucket WHEN 'week' THEN date.truncate('week', i.createdAt)
                  ELSE date.truncate('month', i.createdAt) END AS period
RETURN period, i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, $dimension) AS top, i[$dimensions[labelDimension].probabilitiesProperty] AS p,
       i[$dimensions[labelDimension].calibrationProperty] AS calibration, @passes(i, labelDimension) AS passes,
       @sampled(i, s)
ORDER BY period, id
