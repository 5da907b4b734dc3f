// @name open-bugs-by-age
// @estimator grouped
// @estimate dimension kind
// @estimate group bucket, fromDays, toDays
// @estimate mode $mode
// @estimate codes BUG
// @description Open bug reports by how long they have been open, in fixed age buckets (every bucket listed, 0 when
// @description empty). By default (mode=estimate) each bucket's figure is an estimate with a 90% interval (the
// @description grouped estimator, estimate/README.md): the expected number of bug reports among the bucket's open
// @description issues (each weighed by its probability of being a bug report, whatever its label), with the share of
// @description bug reports among them, the method and what it rests on. mode=confident counts open issues whose BUG
// @description label passes minConfidence (a person's label always passes), mode=all every BUG label. No validation
// @description sample corrects these rows (a sample serves issues by when they were opened, not by their state now).
// @param framework String = null  -- framework name; null = every framework
// @param asOf DateTime = null  -- the instant ages are measured at; null = now
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated or default
// @column bucket String  -- age range label
// @column fromDays Integer  -- lower bound in days, inclusive
// @column toDays Integer  -- upper bound in days, exclusive; null = no bound
// @column estimate Float  -- expected number of open bug reports of that age (mode=confident/all: the count of BUG labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of bug reports among the bucket's open issues of a known kind, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- open issues of that age whose BUG label passes minConfidence
// @column inScope Integer  -- open issues of that age, of any kind
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
WITH null AS s, coalesce($asOf, datetime()) AS now,
     [{bucket: 'under 1 week', lo: 0, hi: 7},
      {bucket: '1-4 weeks', lo: 7, hi: 28},
      {bucket: '1-3 months', lo: 28, hi: 91},
      {bucket: '3-12 months', lo: 91, hi: 365},
      {bucket: 'over 1 year', lo: 365, hi: null}] AS buckets
// Every bucket once with no issue (so an empty one is listed), then each open issue in its bucket.
CALL (now, buckets) {
  UNWIND buckets AS b
  RETURN b, null AS i
  UNION
  MATCH (i:Issue)
  WHERE i.state = 'open' AND i.transferredTo IS NULL
    AND ($framework IS NULL OR i.framework = $framework)
    AND i.createdAt <= now
  WITH i, duration.inSeconds(i.createdAt, now).seconds / 86400.0 AS days
  RETURN buckets[size([x IN buckets WHERE x.lo <= days]) - 1] AS b, i
}
RETURN b.bucket AS bucket, b.lo AS fromDays, b.hi AS toDays, i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       i.kind AS top, i[$dimensions.kind.probabilitiesProperty] AS p, i[$dimensions.kind.calibrationProperty] AS calibration,
       @passes(i, 'kind') AS passes,
       @sampled(i, s)
ORDER BY fromDays, id
