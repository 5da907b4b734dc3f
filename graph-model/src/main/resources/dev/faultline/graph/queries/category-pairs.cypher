// @name category-pairs
// @estimator grouped
// @estimate dimension $rows
// @estimate pair $columns
// @estimate kind $kind
// @estimate mode $mode
// @estimate unknown false
// @estimate minimum 0.05
// @estimate zeros drop
// @description A two-dimension table (e.g. stage x symptom, stage x root cause, symptom x root cause) over the issues of a
// @description kind (bug reports by default) in a scope: one row per pair of known codes (code of the rows' dimension,
// @description code2 of the columns'). By default (mode=estimate) a cell is an expected count (the grouped estimator,
// @description estimate/README.md): the sum over issues of the probability of the kind times the two codes'
// @description probabilities given the kind (the two taken as independent given the kind: the classifier gives one
// @description distribution per dimension and no joint), with a 90% interval holding the per-issue uncertainty and the
// @description classifier's calibration error; share is the cell's share among the known columns of its row, with its
// @description interval. mode=confident counts issues whose two labels and kind pass the bar, mode=all every pair of
// @description top labels. Pairs with no expected issue (below 0.05) are left out.
// @param rows Dimension = stage  -- the dimension of the table's rows
// @param columns Dimension = symptom  -- the dimension of the table's columns
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- code of the rows' dimension
// @column code2 String  -- code of the columns' dimension
// @column estimate Float  -- expected number of issues of the kind with both codes (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of code2 among the known columns of row code, 4 decimals (null where too few)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column labelled Integer  -- issues whose two labels are these codes, with both labels and the kind's above the bar
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with both labels and the kind's above the bar and known / inScope, 4 decimals (same on every row)
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH s, i,
     $dimensions[$rows].labelKey AS rowLabel,
     $dimensions[$columns].labelKey AS columnLabel
RETURN i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       @value(i, $rows) AS top, i[$dimensions[rowLabel].probabilitiesProperty] AS p,
       i[$dimensions[rowLabel].calibrationProperty] AS calibration, @passes(i, rowLabel) AS passes,
       @value(i, $columns) AS top2, i[$dimensions[columnLabel].probabilitiesProperty] AS p2,
       i[$dimensions[columnLabel].calibrationProperty] AS calibration2, @passes(i, columnLabel) AS passes2,
       @sampled(i, s)
