// @name fix-effort-by-category
// @description Fix effort of bug reports per category of one dimension: how many were closed, the median days
// @description from opening to closing (percentileCont), and of the merged PRs that FIXES them (each PR counted
// @description once per category) how many changed at most maxLines lines (additions + deletions). A bug counts when
// @description its BUG label and its label of the dimension pass minConfidence (@passes: the <dimension>Confidence
// @description on the issue, symptomClass the symptom's; a human-given label always passes); a label of the
// @description dimension below the bar counts as UNKNOWN.
// @param dimension Dimension(-kind) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines is small
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column category String  -- category code (true/false for distributedSpecific)
// @column bugs Integer  -- bug reports in the category
// @column closed Integer  -- of those, closed (with closedAt)
// @column medianDaysToClose Float  -- median of closedAt - createdAt in days over closed ones, 2 decimals
// @column fixingPrs Integer  -- merged PRs with known size that FIXES a bug of the category
// @column smallFixes Integer  -- of those, additions + deletions <= maxLines
// @column smallFixShare Float  -- smallFixes / fixingPrs, 4 decimals; null without fixing PRs
// @column inScope Integer  -- bug reports in the filters, whatever their labels (same on every row)
// @column labelled Integer  -- of those, with a known category and labels that pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
CALL (i) {
  WITH i, @value(i, $dimension) AS value,
       $dimensions[$dimension].labelKey AS labelDimension
  WITH value, @passes(i, 'kind') AS kindPasses, @passes(i, labelDimension) AS labelPasses
  RETURN value IS NOT NULL AND NOT value IN ['UNKNOWN', 'NONE'] AND kindPasses AND labelPasses AS confident,
         CASE
           WHEN value IS NULL OR NOT kindPasses THEN null
           WHEN labelPasses OR value IN ['UNKNOWN', 'NONE'] THEN value
           ELSE 'UNKNOWN'
         END AS category
}
WITH i, confident, category
// Scope totals, then per category. A category's fixing PRs are found from its counted bugs (DISTINCT merged PRs
// that FIXES them): only the issue side knows whether a bug's labels pass minConfidence.
WITH count(i) AS inScope, count(CASE WHEN confident THEN 1 END) AS labelled,
     collect(CASE WHEN category IS NOT NULL AND ($includeUnknown OR NOT category IN ['UNKNOWN', 'NONE'])
                  THEN {issue: i, category: category} END) AS counted
UNWIND counted AS c
WITH inScope, labelled, c.category AS category, c.issue AS i
WITH inScope, labelled, category,
     count(i) AS bugs,
     count(CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL THEN 1 END) AS closed,
     percentileCont(
       CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL
            THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END, 0.5) AS medianDays,
     collect(i) AS issues
CALL (issues) {
  UNWIND issues AS i
  MATCH (pr:PullRequest)-[:FIXES]->(i)
  WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
  WITH DISTINCT pr
  RETURN count(pr) AS fixingPrs, count(CASE WHEN pr.additions + pr.deletions <= $maxLines THEN 1 END) AS smallFixes
}
RETURN category, bugs, closed, round(medianDays, 2) AS medianDaysToClose, fixingPrs, smallFixes,
       CASE WHEN fixingPrs = 0 THEN null ELSE round(toFloat(smallFixes) / fixingPrs, 4) END AS smallFixShare,
       inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY bugs DESC, category
