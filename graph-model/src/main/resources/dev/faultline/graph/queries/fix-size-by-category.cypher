// @name fix-size-by-category
// @description P1's fix-size analysis: the size of merged fixes per category of one dimension. Every merged change
// @description of known size (pull requests, and changes read from a clone's history) counts once per category; its
// @description category comes from the bug reports it FIXES or, for a change that closes none, from its own
// @description classification (merged changes the classifier calls bug fixes). Lines are additions + deletions.
// @param dimension Dimension(taxonomy) = rootCause  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- fixes merged at or after this instant; null = from the start
// @param to DateTime = null  -- fixes merged before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines is small
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE
// @column category String  -- category code
// @column fixes Integer  -- merged fixes of known size in the category
// @column fromIssues Integer  -- of those, categorised by the bug reports they close (the rest by their own classification)
// @column medianLines Float  -- median changed lines, 2 decimals
// @column p90Lines Float  -- 90th percentile of changed lines (percentileCont), 2 decimals
// @column medianFiles Float  -- median files changed, 2 decimals
// @column smallFixes Integer  -- fixes with at most maxLines changed lines
// @column smallFixShare Float  -- smallFixes / fixes, 4 decimals
MATCH (pr:PullRequest)
WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
  AND ($from IS NULL OR pr.mergedAt >= $from)
  AND ($to IS NULL OR pr.mergedAt < $to)
OPTIONAL MATCH (pr)-[:IN_REPO]->(:Repository)-[:OF]->(f:Framework)
WITH pr, f.name AS framework
WHERE $framework IS NULL OR framework = $framework
OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
WITH pr, collect(DISTINCT i) AS bugs
WITH pr, size(bugs) > 0 AS fromIssue,
     CASE
       WHEN size(bugs) > 0 THEN bugs
       WHEN pr.kind = 'BUG' THEN [pr]
       ELSE []
     END AS classified
UNWIND classified AS c
WITH pr, fromIssue,
     c[$dimension] AS category
// A fix of two bug reports of one category counts once in it.
WITH DISTINCT pr, fromIssue, category
WHERE category IS NOT NULL AND ($includeUnknown OR NOT category IN ['UNKNOWN', 'NONE'])
WITH category, pr, fromIssue, pr.additions + pr.deletions AS lines
WITH category,
     count(pr) AS fixes,
     count(CASE WHEN fromIssue THEN 1 END) AS fromIssues,
     percentileCont(lines, 0.5) AS medianLines,
     percentileCont(lines, 0.9) AS p90Lines,
     percentileCont(pr.changedFiles, 0.5) AS medianFiles,
     count(CASE WHEN lines <= $maxLines THEN 1 END) AS smallFixes
RETURN category, fixes, fromIssues, round(medianLines, 2) AS medianLines, round(p90Lines, 2) AS p90Lines,
       round(medianFiles, 2) AS medianFiles, smallFixes, round(toFloat(smallFixes) / fixes, 4) AS smallFixShare
ORDER BY fixes DESC, category
