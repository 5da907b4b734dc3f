// @name category-shares
// @estimator category-shares
// @description Shares of the codes of one classification dimension among the issues of a kind (bug reports by
// @description default) in a scope, each an estimate with a 90% interval. By default (mode=estimate) a code's count
// @description is the sum of every issue's calibrated probability of it (and of being of the kind), not a count of
// @description labels: probabilistic classify-and-count, its count interval Poisson-binomial, its share interval
// @description simulated. Where the scope has a validation sample (sample draw / sample import: issues drawn
// @description uniformly at random and labelled by a person), prediction-powered inference (PPI) corrects the
// @description estimate by the classifier's error measured on the sample, and its intervals hold for the whole
// @description scope. The intervals of a PCC row contain the per-issue uncertainty only, not calibration error or a
// @description shift of this scope's mix from the training data's. mode=confident counts only labels above the bar,
// @description mode=all every top label (counts of labels, no interval). Shares are among the known codes: UNKNOWN,
// @description NONE and an unknown distributed-specific are left out.
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
// @column share Float  -- share among the known codes, 4 decimals (null for UNKNOWN, NONE)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column labelled Integer  -- issues whose label is this code with the dimension's and the kind's labels above the bar
// @column method String  -- the estimator: pcc, ppi/score_cc (with a validation sample), or the count of labels
// @column sampleSize Integer  -- validation-sample issues the estimate used (0: none)
// @column inScope Integer  -- issues in the filters, of any kind (same on every row)
// @column coverage Float  -- issues with the kind's and the dimension's labels above the bar / inScope, 4 decimals (same on every row)
// @column expectedInScope Float  -- expected number of issues of the kind among them (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i,
     $dimensions[$dimension].labelKey AS labelDimension
// A validation sample whose scope holds this one: a uniform sample of a scope is uniform in any part of it.
OPTIONAL MATCH (s:ValidationSample)-[r:INCLUDES]->(i)
WHERE (s.framework IS NULL OR s.framework = $framework)
  AND (s.from IS NULL OR ($from IS NOT NULL AND $from >= s.from))
  AND (s.to IS NULL OR ($to IS NOT NULL AND $to <= s.to))
WITH i, labelDimension, head(collect(r)) AS sampled
RETURN i.id AS id,
       CASE $dimension
         WHEN 'distributedSpecific' THEN coalesce(toString(i.distributedSpecific), 'null')
         ELSE i[$dimension]
       END AS top,
       i[$dimensions[$dimension].probabilitiesProperty] AS p,
       i.kind AS topKind,
       i[$dimensions.kind.probabilitiesProperty] AS kindP,
       @passes(i, labelDimension) AS passes,
       @passes(i, 'kind') AS kindPasses,
       CASE WHEN sampled IS NULL THEN null ELSE properties(sampled) END AS sample
