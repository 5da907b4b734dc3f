// @name fix-effort-by-category
// @description Fix effort of bug reports per category of one dimension: how many were closed, the median days
// @description from opening to closing (percentileCont), and of the merged PRs that FIXES them (each PR counted
// @description once per category) how many changed at most maxLines lines (additions + deletions).
// @param dimension String(symptom|symptomClass|rootCause|fixPattern|stage|phase|distributedSpecific) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines is small
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE
// @column category String  -- category code (true/false for distributedSpecific)
// @column bugs Integer  -- bug reports in the category
// @column closed Integer  -- of those, closed (with closedAt)
// @column medianDaysToClose Float  -- median of closedAt - createdAt in days over closed ones, 2 decimals
// @column fixingPrs Integer  -- merged PRs with known size that FIXES a bug of the category
// @column smallFixes Integer  -- of those, additions + deletions <= maxLines
// @column smallFixShare Float  -- smallFixes / fixingPrs, 4 decimals; null without fixing PRs
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i,
     CASE $dimension
       WHEN 'symptom' THEN i.symptom
       WHEN 'symptomClass' THEN i.symptomClass
       WHEN 'rootCause' THEN i.rootCause
       WHEN 'fixPattern' THEN i.fixPattern
       WHEN 'stage' THEN i.stage
       WHEN 'phase' THEN i.phase
       WHEN 'distributedSpecific' THEN coalesce(toString(i.distributedSpecific), 'UNKNOWN')
     END AS category
WHERE category IS NOT NULL AND ($includeUnknown OR NOT category IN ['UNKNOWN', 'NONE'])
WITH category,
     count(i) AS bugs,
     count(CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL THEN 1 END) AS closed,
     percentileCont(
       CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL
            THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END, 0.5) AS medianDays
ORDER BY bugs DESC, category
WITH collect({category: category, bugs: bugs, closed: closed, medianDays: medianDays}) AS perCategory
// Fixing PRs counted from the PR side: a PR has few relationships, an issue many, so expanding FIXES from the
// ~15% of issues that have a PR is far cheaper than from every issue. Same issue filters as above.
CALL () {
  MATCH (pr:PullRequest)-[:FIXES]->(i:Issue)
  USING SCAN pr:PullRequest
  WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
    AND i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
    AND ($framework IS NULL OR i.framework = $framework)
    AND ($from IS NULL OR i.createdAt >= $from)
    AND ($to IS NULL OR i.createdAt < $to)
  WITH DISTINCT pr,
       CASE $dimension
         WHEN 'symptom' THEN i.symptom
         WHEN 'symptomClass' THEN i.symptomClass
         WHEN 'rootCause' THEN i.rootCause
         WHEN 'fixPattern' THEN i.fixPattern
         WHEN 'stage' THEN i.stage
         WHEN 'phase' THEN i.phase
         WHEN 'distributedSpecific' THEN coalesce(toString(i.distributedSpecific), 'UNKNOWN')
       END AS category
  WITH category, count(pr) AS fixingPrs,
       count(CASE WHEN pr.additions + pr.deletions <= $maxLines THEN 1 END) AS smallFixes
  RETURN collect({category: category, fixingPrs: fixingPrs, smallFixes: smallFixes}) AS perCategoryFixes
}
UNWIND perCategory AS c
WITH c, head([f IN perCategoryFixes WHERE f.category = c.category]) AS f
WITH c, coalesce(f.fixingPrs, 0) AS fixingPrs, coalesce(f.smallFixes, 0) AS smallFixes
RETURN c.category AS category, c.bugs AS bugs, c.closed AS closed, round(c.medianDays, 2) AS medianDaysToClose,
       fixingPrs, smallFixes,
       CASE WHEN fixingPrs = 0 THEN null ELSE round(toFloat(smallFixes) / fixingPrs, 4) END AS smallFixShare
