// @name headline-summary
// @description The seeds' headline figures recomputed from the graph over bug reports: how many, the share of
// @description distributed-specific ones (P2: 45.1%), the share of merged fixes with at most maxLines changed
// @description lines (P1's low-effort fixes: merged PRs that close a bug report, and merged changes of a clone's history
// @description or of GitHub that close none but are classified as bug fixes themselves), the training / inference / both split over known phases (P1), and
// @description the median days to close. One row per metric.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines (additions + deletions) is small
// @column metric String  -- bugs, distributedSpecificShare, smallFixShare, trainingShare, inferenceShare, bothShare, medianDaysToClose
// @column value Float  -- the figure: a count, a share (4 decimals) or days (2 decimals); null when undefined
// @column numerator Integer  -- what was counted (null for the median)
// @column denominator Integer  -- out of how many (null for counts)
// @column description String  -- what the figure means
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH count(i) AS bugs,
     count(CASE WHEN i.distributedSpecific = true THEN 1 END) AS distributed,
     count(CASE WHEN i.distributedSpecific IS NOT NULL THEN 1 END) AS distributedKnown,
     count(CASE WHEN i.phase = 'TRAINING' THEN 1 END) AS training,
     count(CASE WHEN i.phase = 'INFERENCE' THEN 1 END) AS inference,
     count(CASE WHEN i.phase = 'BOTH' THEN 1 END) AS both,
     percentileCont(
       CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL
            THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END, 0.5) AS medianDays,
     count(CASE WHEN i.state = 'closed' AND i.closedAt IS NOT NULL THEN 1 END) AS closed
// Fixing PRs counted from the PR side (a PR has few relationships, an issue many), with the same issue filters; a
// merged change that closes no bug report counts when its own classification calls it a bug fix (history read from
// a clone holds many), filtered by its repository's framework and its merge time.
CALL () {
  MATCH (pr:PullRequest)
  WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
  OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
  WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  WITH pr, collect(i) AS bugs
  WITH pr, size(bugs) AS allBugs,
       size([i IN bugs WHERE ($framework IS NULL OR i.framework = $framework)
                         AND ($from IS NULL OR i.createdAt >= $from)
                         AND ($to IS NULL OR i.createdAt < $to)]) AS bugsInScope
  OPTIONAL MATCH (pr)-[:IN_REPO]->(:Repository)-[:OF]->(f:Framework)
  WITH pr, allBugs, bugsInScope, f.name AS prFramework
  WHERE bugsInScope > 0
     OR (allBugs = 0 AND pr.kind = 'BUG'
         AND ($framework IS NULL OR prFramework = $framework)
         AND ($from IS NULL OR pr.mergedAt >= $from)
         AND ($to IS NULL OR pr.mergedAt < $to))
  WITH DISTINCT pr
  RETURN count(pr) AS fixingPrs, count(CASE WHEN pr.additions + pr.deletions <= $maxLines THEN 1 END) AS smallFixes
}
WITH bugs, distributed, distributedKnown, training, inference, both, training + inference + both AS phaseKnown,
     medianDays, closed, fixingPrs, smallFixes
UNWIND [
  {metric: 'bugs', value: toFloat(bugs), numerator: bugs, denominator: null,
   description: 'bug reports in scope'},
  {metric: 'distributedSpecificShare', numerator: distributed, denominator: distributedKnown,
   description: 'distributed-specific bugs / bugs where it is known'},
  {metric: 'smallFixShare', numerator: smallFixes, denominator: fixingPrs,
   description: 'merged fixes with additions + deletions <= maxLines / merged fixes of known size (PRs that close a bug report, and merged changes classified as bug fixes)'},
  {metric: 'trainingShare', numerator: training, denominator: phaseKnown,
   description: 'TRAINING bugs / bugs with a known phase'},
  {metric: 'inferenceShare', numerator: inference, denominator: phaseKnown,
   description: 'INFERENCE bugs / bugs with a known phase'},
  {metric: 'bothShare', numerator: both, denominator: phaseKnown,
   description: 'bugs of both phases / bugs with a known phase'},
  {metric: 'medianDaysToClose', value: round(medianDays, 2), numerator: null, denominator: closed,
   description: 'median days from opening to closing over closed bugs'}
] AS m
RETURN m.metric AS metric,
       CASE
         WHEN m.metric IN ['bugs', 'medianDaysToClose'] THEN m.value
         WHEN m.denominator = 0 THEN null
         ELSE round(toFloat(m.numerator) / m.denominator, 4)
       END AS value,
       m.numerator AS numerator, m.denominator AS denominator, m.description AS description
