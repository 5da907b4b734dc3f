// @name headline-summary
// @description The seeds' headline figures recomputed from the graph over bug reports: how many, the share of
// @description distributed-specific ones (P2: 45.1%), the share of merged fixes with at most maxLines changed
// @description lines (P1's low-effort fixes: merged PRs that close a bug report, and merged changes of a clone's history
// @description or of GitHub that close none but are classified as bug fixes themselves), the training / inference /
// @description both split over known phases (P1), and the median days to close. One row per metric. Only labels that
// @description pass minConfidence count: the BUG label (kindConfidence) for every figure, distributedSpecificConfidence
// @description and phaseConfidence for the shares over them; a human-given label always passes.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param maxLines Integer = 10  -- a fix of at most this many changed lines (additions + deletions) is small
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column metric String  -- bugs, distributedSpecificShare, smallFixShare, trainingShare, inferenceShare, bothShare, medianDaysToClose
// @column value Float  -- the figure: a count, a share (4 decimals) or days (2 decimals); null when undefined
// @column numerator Integer  -- what was counted (null for the median)
// @column denominator Integer  -- out of how many (null for counts)
// @column description String  -- what the figure means
// @column inScope Integer  -- bug reports in the filters, whatever the confidence of their labels (same on every row)
// @column labelled Integer  -- of those, whose labels the figure counts by pass minConfidence: the BUG label, and for the distributed-specific and phase shares a known value of that dimension too
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, coalesce(i.humanGiven, []) AS human
WITH i,
     @passes(i, 'kind') AS bug,
     @passes(i, 'distributedSpecific')
       AS distributedPasses,
     @passes(i, 'phase') AS phasePasses
WITH count(i) AS inScope,
     count(CASE WHEN bug THEN 1 END) AS bugs,
     count(CASE WHEN bug AND distributedPasses AND i.distributedSpecific = true THEN 1 END) AS distributed,
     count(CASE WHEN bug AND distributedPasses AND i.distributedSpecific IS NOT NULL THEN 1 END) AS distributedKnown,
     count(CASE WHEN bug AND phasePasses AND i.phase = 'TRAINING' THEN 1 END) AS training,
     count(CASE WHEN bug AND phasePasses AND i.phase = 'INFERENCE' THEN 1 END) AS inference,
     count(CASE WHEN bug AND phasePasses AND i.phase = 'BOTH' THEN 1 END) AS both,
     percentileCont(
       CASE WHEN bug AND i.state = 'closed' AND i.closedAt IS NOT NULL
            THEN duration.inSeconds(i.createdAt, i.closedAt).seconds / 86400.0 END, 0.5) AS medianDays,
     count(CASE WHEN bug AND i.state = 'closed' AND i.closedAt IS NOT NULL THEN 1 END) AS closed
// Fixing PRs counted from the PR side (a PR has few relationships, an issue many), with the same issue filters; a
// merged change that closes no bug report counts when its own classification calls it a bug fix (history read from
// a clone holds many), filtered by its repository's framework and its merge time.
CALL () {
  MATCH (pr:PullRequest)
  WHERE pr.merged = true AND pr.additions IS NOT NULL AND pr.deletions IS NOT NULL
  OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
  WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
    AND (@passes(i, 'kind'))
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
WITH inScope, bugs, distributed, distributedKnown, training, inference, both, training + inference + both AS phaseKnown,
     medianDays, closed, fixingPrs, smallFixes
UNWIND [
  {metric: 'bugs', value: toFloat(bugs), numerator: bugs, denominator: null, labelled: bugs,
   description: 'bug reports in scope'},
  {metric: 'distributedSpecificShare', numerator: distributed, denominator: distributedKnown,
   labelled: distributedKnown, description: 'distributed-specific bugs / bugs where it is known'},
  {metric: 'smallFixShare', numerator: smallFixes, denominator: fixingPrs, labelled: bugs,
   description: 'merged fixes with additions + deletions <= maxLines / merged fixes of known size (PRs that close a bug report, and merged changes classified as bug fixes)'},
  {metric: 'trainingShare', numerator: training, denominator: phaseKnown, labelled: phaseKnown,
   description: 'TRAINING bugs / bugs with a known phase'},
  {metric: 'inferenceShare', numerator: inference, denominator: phaseKnown, labelled: phaseKnown,
   description: 'INFERENCE bugs / bugs with a known phase'},
  {metric: 'bothShare', numerator: both, denominator: phaseKnown, labelled: phaseKnown,
   description: 'bugs of both phases / bugs with a known phase'},
  {metric: 'medianDaysToClose', value: round(medianDays, 2), numerator: null, denominator: closed, labelled: bugs,
   description: 'median days from opening to closing over closed bugs'}
] AS m
RETURN m.metric AS metric,
       CASE
         WHEN m.metric IN ['bugs', 'medianDaysToClose'] THEN m.value
         WHEN m.denominator = 0 THEN null
         ELSE round(toFloat(m.numerator) / m.denominator, 4)
       END AS value,
       m.numerator AS numerator, m.denominator AS denominator, m.description AS description,
       inScope, m.labelled AS labelled,
       CASE WHEN inScope = 0 THEN null ELSE round(toFloat(m.labelled) / inScope, 4) END AS coverage
