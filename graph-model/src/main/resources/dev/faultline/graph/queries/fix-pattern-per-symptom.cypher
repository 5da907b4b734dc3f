// @name fix-pattern-per-symptom
// @description P1's symptom -> fix pattern table over merged fixes: how each symptom was fixed, counting merged
// @description changes (pull requests, and changes read from a clone's history) once per symptom and fix pattern.
// @description Symptom and fix pattern come from the bug reports a change FIXES (an unknown fix pattern of the report
// @description is taken from the change's own classification) or, for a change that closes none, from its own
// @description classification. Shares are of the symptom's fixes with a known fix pattern (all, with includeUnknown).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- fixes merged at or after this instant; null = from the start
// @param to DateTime = null  -- fixes merged before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also reports fixes whose fix pattern is UNKNOWN
// @param limit Integer = 100  -- at most this many rows
// @column symptom String  -- symptom code
// @column fixPattern String  -- fix-pattern code
// @column fixes Integer  -- merged fixes of that symptom with that fix pattern
// @column fromIssues Integer  -- of those, categorised by the bug reports they close
// @column shareOfSymptom Float  -- fixes / fixes of the symptom in this table, 4 decimals
// @column medianLines Float  -- median changed lines (additions + deletions) of those fixes, 2 decimals
MATCH (pr:PullRequest)
WHERE pr.merged = true
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
       WHEN size(bugs) > 0 THEN
         [b IN bugs | {symptom: b.symptom,
                       fixPattern: CASE WHEN b.fixPattern IN ['UNKNOWN', 'NONE'] AND pr.kind = 'BUG'
                                        THEN pr.fixPattern ELSE b.fixPattern END}]
       WHEN pr.kind = 'BUG' THEN [{symptom: pr.symptom, fixPattern: pr.fixPattern}]
       ELSE []
     END AS pairs
UNWIND pairs AS p
WITH DISTINCT pr, fromIssue, p.symptom AS symptom, p.fixPattern AS fixPattern
WHERE symptom IS NOT NULL AND NOT symptom IN ['UNKNOWN', 'NONE'] AND fixPattern IS NOT NULL
  AND ($includeUnknown OR NOT fixPattern IN ['UNKNOWN', 'NONE'])
WITH symptom, fixPattern,
     count(pr) AS fixes,
     count(CASE WHEN fromIssue THEN 1 END) AS fromIssues,
     percentileCont(pr.additions + pr.deletions, 0.5) AS medianLines
WITH symptom, collect({fixPattern: fixPattern, fixes: fixes, fromIssues: fromIssues, medianLines: medianLines}) AS rows,
     sum(fixes) AS symptomFixes
UNWIND rows AS r
RETURN symptom, r.fixPattern AS fixPattern, r.fixes AS fixes, r.fromIssues AS fromIssues,
       round(toFloat(r.fixes) / symptomFixes, 4) AS shareOfSymptom, round(r.medianLines, 2) AS medianLines
ORDER BY symptom, fixes DESC, fixPattern
LIMIT $limit
