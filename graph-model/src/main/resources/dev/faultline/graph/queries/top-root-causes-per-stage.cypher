// @name top-root-causes-per-stage
// @estimator grouped
// @estimate dimension stage
// @estimate pair rootCause
// @estimate kind $kind
// @estimate mode $mode
// @estimate unknown false
// @estimate minimum 0.05
// @estimate zeros drop
// @estimate top $limit
// @description The most frequent root causes of each execution stage among the issues of a kind (bug reports by
// @description default), ranked within the stage by expected count. By default (mode=estimate) a row is an estimate
// @description with a 90% interval (the grouped estimator, estimate/README.md): the expected number of issues of the
// @description kind with the stage and the root cause (each issue's probability of the kind times the two codes'
// @description probabilities given it, the two taken as independent given the kind), and the root cause's share
// @description among the stage's known root causes. So a stage's ranking exists even where no root-cause label passes
// @description its bar. mode=confident counts issues whose stage, root cause and kind labels pass minConfidence (a
// @description person's label always passes), mode=all every pair of top labels. Known codes only; rows below 0.05
// @description expected issues are left out.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param kind String = BUG  -- issues of this kind (an estimate weighs each issue by its probability of the kind); null = every kind
// @param limit Integer = 5  -- root causes per stage
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column code String  -- stage code
// @column rank Integer  -- 1 = the stage's largest expected count (mode=confident/all: most labels); ties by the codes' order
// @column code2 String  -- root-cause code
// @column estimate Float  -- expected number of issues of the kind with the stage and root cause (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of the root cause among the stage's known root causes, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- issues whose stage and root-cause labels are these codes, with both labels and the kind's above the bar
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with both labels and the kind's above the bar and known / inScope, 4 decimals (same on every row)
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
       @value(i, 'rootCause') AS top2, i[$dimensions.rootCause.probabilitiesProperty] AS p2,
       i[$dimensions.rootCause.calibrationProperty] AS calibration2, @passes(i, 'rootCause') AS passes2,
       @sampled(i, s)
