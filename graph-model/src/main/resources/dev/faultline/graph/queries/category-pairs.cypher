// @name category-pairs
// @estimator category-pairs
// @description A two-dimension table (e.g. stage x symptom, stage x root cause, symptom x root cause) over the issues of a
// @description kind (bug reports by default) in a scope: one row per pair of known codes. By default (mode=estimate) a
// @description cell is an expected count: the sum over issues of the probability of the kind times the two codes'
// @description probabilities given the kind, the joint taken as the product of the two marginals (the classifier gives
// @description one distribution per dimension and no joint), with the cell's Poisson-binomial 90% interval (per-issue
// @description uncertainty only, not calibration error). mode=confident counts issues whose two labels and kind pass the
// @description bar, mode=all every pair of top labels. Pairs with no expected issue are left out.
// @param rows Dimension = stage  -- the dimension of the table's rows
// @param columns Dimension = symptom  -- the dimension of the table's columns
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column row String  -- code of the rows' dimension
// @column column String  -- code of the columns' dimension
// @column estimate Float  -- expected number of issues of the kind with both codes (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column labelled Integer  -- issues whose two labels are these codes, with both labels and the kind's above the bar
// @column method String  -- the estimator
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with both labels and the kind's above the bar and known / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i,
     $dimensions[$rows].labelKey AS rowLabel,
     $dimensions[$columns].labelKey AS columnLabel
RETURN @value(i, $rows) AS rowTop,
       i[$dimensions[$rows].probabilitiesProperty] AS rowP,
       @value(i, $columns) AS columnTop,
       i[$dimensions[$columns].probabilitiesProperty] AS columnP,
       i.kind AS topKind,
       i[$dimensions.kind.probabilitiesProperty] AS kindP,
       @passes(i, rowLabel) AND @passes(i, columnLabel) AS passes,
       @passes(i, 'kind') AS kindPasses
