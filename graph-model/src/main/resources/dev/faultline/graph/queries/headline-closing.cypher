// @name headline-closing
// @estimator headline-closing
// @description The headline's two figures of how bug reports end, over the issues opened in the filters: the median
// @description days from opening to closing of the closed bug reports, and the share of small fixes among the merged
// @description changes that fix them. By default (mode=estimate) both are estimates on the estimate module's item
// @description model: the median is the median of the closed issues' days to close weighted by each issue's
// @description P(bug) (whatever its label), its 90% interval the 5th and 95th percentiles of the medians of 2,000
// @description seeded simulated labellings (each closed issue a bug report with its P(bug)); the small-fix share
// @description is the ratio of expected counts over the merged changes of known size that fix an issue in scope, a
// @description change counting with the probability that at least one issue it fixes is a bug report, small when its
// @description additions + deletions <= maxLines, its interval the score interval of that ratio (study-figures'
// @description arithmetic). Merged changes that fix no issue (a clone's history) are not counted here. A base of
// @description fewer than 3 expected bug reports (closed ones, or fixing changes) gives no figure and a note. The
// @description intervals hold the per-issue uncertainty only, not calibration error. mode=confident weighs an
// @description issue 1 when its BUG label passes minConfidence (a person's label always passes) and 0 otherwise,
// @description mode=all every BUG label; then there is no interval.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines (additions + deletions) is small
// @param mode String(estimate|confident|all) = estimate  -- estimate (P(bug)-weighted with intervals), confident (BUG labels above the bar) or all (every BUG label)
// @param minConfidence Confidence = default  -- the bar of mode=confident: 0..1, all (= 0), calibrated or default
// @column metric String  -- medianDaysToClose or smallFixShare
// @column estimate Float  -- the median in days (2 decimals) or the share (4 decimals); null where too few to estimate
// @column low Float  -- lower end of its 90% interval (null for labels counted)
// @column high Float  -- upper end of its 90% interval
// @column basis Float  -- expected number of closed bug reports, or of merged changes fixing bug reports, it rests on (1 decimal)
// @column method String  -- how it was computed
// @column note String  -- null, or why there is no figure
// @column labelled Integer  -- closed issues (merged changes fixing an issue in scope) whose BUG label (a fixed issue's) passes minConfidence
// @column coverage Float  -- labelled / closed issues in scope of any kind (merged changes fixing an issue in scope), 4 decimals; null when there are none
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
RETURN i.id AS id,
       i.kind AS kind, i[$dimensions.kind.probabilitiesProperty] AS kindP, i[$dimensions.kind.calibrationProperty] AS kindCalibration,
       @passes(i, 'kind') AS kindPasses,
       i.humanGiven AS humanGiven,
       CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL
            THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END AS daysToClose,
       [(pr:PullRequest)-[:FIXES]->(i)
        WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
        | {id: pr.id, lines: pr.additions + pr.deletions}] AS fixes
