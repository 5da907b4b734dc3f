// @name headline-top-categories
// @estimator grouped
// @estimate dimension $dimension
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown false
// @estimate zeros drop
// @estimate top $limit
// @description The seeds' "top symptoms" and "top root causes" tables recomputed from the graph: the most frequent
// @description categories of one dimension among bug reports, ranked by expected count. By default (mode=estimate)
// @description every figure is an estimate with a 90% interval (the grouped estimator, estimate/README.md): the
// @description expected number of bug reports with the code (every issue weighed by its probability of being a bug
// @description report and of the code) and its share among the known codes, with the method and what it rests on
// @description ("too few to estimate" below 3 expected). mode=confident counts bug reports whose BUG label and label
// @description of the dimension pass minConfidence (a person's label always passes), mode=all every top label.
// @param dimension Dimension(-kind|-distributedSpecific) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param limit Integer = 10  -- at most this many categories
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column rank Integer  -- 1 = largest expected count (mode=confident/all: most labels); ties by the codes' order
// @column code String  -- category code
// @column estimate Float  -- expected number of bug reports in the category (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share among bug reports with a known code, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- bug reports whose label is this code, with the dimension's and the BUG label above the bar
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column expectedInScope Float  -- expected number of bug reports among them (same on every row)
// @column coverage Float  -- issues with the BUG label and a known code above the bar / inScope, 4 decimals (same on every row)
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
