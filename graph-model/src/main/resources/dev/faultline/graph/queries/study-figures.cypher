// @name study-figures
// @estimator study-figures
// @description Every figure the two seed studies publish (the codebook's section 10: P1's small fixes, training vs
// @description inference, hangs in training, the long-open tail, the most frequent symptoms, causes and low-effort
// @description fixes; P2's distributed-specific share, communication setup, version and tuning fixes, the most
// @description frequent distributed-specific symptoms) beside this data's estimate of the same quantity over the
// @description issues of the scope, with a 90% interval: probabilistic classify-and-count on the item model of the
// @description estimate module (an issue's probability of being a bug report times its codes' probabilities given a
// @description bug report, dimensions independent given the kind), the figure the ratio of expected counts and its
// @description interval the score interval of that ratio (the estimate always inside it); a base of fewer than 3
// @description expected issues gives no figure and a note. Fix sizes are those of the merged pull requests that fix an
// @description issue (merged changes that close no issue are not counted here). The intervals hold the per-issue
// @description uncertainty only, not calibration error.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @column figure String  -- the figure's id, e.g. p2-distributed-specific
// @column study String  -- P1 or P2 (the codebook's names of the two studies)
// @column statement String  -- what the study states
// @column definition String  -- how the same quantity is computed on this data
// @column published Float  -- the study's figure as a share (null where it states none, or states a ranking)
// @column estimate Float  -- this data's estimate of the share, 4 decimals (null for a ranking)
// @column low Float  -- lower end of its 90% interval
// @column high Float  -- upper end of its 90% interval
// @column ranking String  -- for a ranked figure, this data's top codes with share and 90% interval
// @column basis Float  -- expected number of issues the share is taken over
// @column method String  -- the estimator
// @column note String  -- null, or why there is no figure (too few to estimate)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
RETURN i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       i.humanGiven AS humanGiven,
       i.symptom AS symptom, i[$dimensions.symptom.probabilitiesProperty] AS symptomP, i[$dimensions.symptom.calibrationProperty] AS symptomCalibration,
       i.symptomClass AS symptomClass,
       i.rootCause AS rootCause, i[$dimensions.rootCause.probabilitiesProperty] AS rootCauseP,
       i[$dimensions.rootCause.calibrationProperty] AS rootCauseCalibration,
       i.fixPattern AS fixPattern, i[$dimensions.fixPattern.probabilitiesProperty] AS fixPatternP,
       i[$dimensions.fixPattern.calibrationProperty] AS fixPatternCalibration,
       i.phase AS phase, i[$dimensions.phase.probabilitiesProperty] AS phaseP, i[$dimensions.phase.calibrationProperty] AS phaseCalibration,
       coalesce(toString(i.distributedSpecific), 'null') AS distributedSpecific,
       i[$dimensions.distributedSpecific.probabilitiesProperty] AS distributedSpecificP,
       i[$dimensions.distributedSpecific.calibrationProperty] AS distributedSpecificCalibration,
       reduce(m = null, lines IN [(pr:PullRequest)-[:FIXES]->(i)
                                  WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
                                  | pr.additions + pr.deletions]
              | CASE WHEN m IS NULL OR lines < m THEN lines ELSE m END) AS fixLines,
       coalesce(i.commentCount, 0) >= 10
         AND duration.inSeconds(i.createdAt, coalesce(i.closedAt, datetime())).seconds > 30 * 86400 AS longOpen
