// @name headline-summary
// @estimator grouped
// @estimate dimension kind
// @estimate mode $mode
// @estimate codes BUG
// @estimate subset open
// @description The headline figure of a scope: how many bug reports it holds, and how many of them are still open. By
// @description default (mode=estimate) each is an estimate with a 90% interval (the grouped estimator,
// @description estimate/README.md): the expected number of bug reports among the issues in the filters (each weighed
// @description by its probability of being a bug report, whatever its label; a validation sample serving the scope
// @description corrects it), with the share of bug reports among the issues of a known kind, the method and what it
// @description rests on. mode=confident counts issues whose BUG label passes minConfidence (a person's label always
// @description passes), mode=all every BUG label. The seed studies' figures beside this data's estimates are
// @description study-figures' (one table).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- BUG
// @column estimate Float  -- expected number of bug reports in scope (mode=confident/all: the count of BUG labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of bug reports among the issues of a known kind, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column openEstimate Float  -- the same estimate over the issues still open, 1 decimal
// @column openLow Float  -- lower end of its 90% interval
// @column openHigh Float  -- upper end of its 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- issues whose BUG label passes minConfidence
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
@serving(s, i)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
RETURN i.id AS id, i.state = 'open' AS open,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       i.kind AS top, i[$dimensions.kind.probabilitiesProperty] AS p, i[$dimensions.kind.calibrationProperty] AS calibration,
       @passes(i, 'kind') AS passes,
       @sampled(i, s)
