// @name fix-pattern-per-symptom
// @description P1's symptom -> fix pattern table over merged fixes: how each symptom was fixed, counting merged
// @description changes (pull requests, and changes read from a clone's history) once per symptom and fix pattern.
// @description Symptom and fix pattern come from the bug reports a change FIXES (an unknown fix pattern of the report
// @description is taken from the change's own classification) or, for a change that closes none, from its own
// @description classification. Shares are of the symptom's fixes with a known fix pattern (all, with includeUnknown).
// @description A bug report counts when its BUG label (kindConfidence) passes minConfidence, its symptom and fix
// @description pattern when theirs do (@passes) (a human-given label always passes); a label below the bar
// @description counts as UNKNOWN. A change that closes no report passing the bar counts by its own classification,
// @description which has no confidence (as in headline-summary's small-fix share).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- fixes merged at or after this instant; null = from the start
// @param to DateTime = null  -- fixes merged before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also reports fixes whose fix pattern is UNKNOWN
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @param limit Integer = 100  -- at most this many rows
// @column symptom String  -- symptom code
// @column fixPattern String  -- fix-pattern code
// @column fixes Integer  -- merged fixes of that symptom with that fix pattern
// @column fromIssues Integer  -- of those, categorised by the bug reports they close
// @column shareOfSymptom Float  -- fixes / fixes of the symptom in this table, 4 decimals
// @column medianLines Float  -- median changed lines (additions + deletions) of those fixes, 2 decimals
// @column inScope Integer  -- merged fixes in the filters (closing a bug report or classified as a bug fix themselves), whatever their labels (same on every row)
// @column labelled Integer  -- of those, counted in the table: a known symptom and fix pattern (any, with includeUnknown) from labels that pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (pr:PullRequest)
WHERE pr.merged = true
  AND ($from IS NULL OR pr.mergedAt >= $from)
  AND ($to IS NULL OR pr.mergedAt < $to)
OPTIONAL MATCH (pr)-[:IN_REPO]->(:Repository)-[:OF]->(f:Framework)
WITH pr, f.name AS framework
WHERE $framework IS NULL OR framework = $framework
OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
WITH pr, collect(DISTINCT i) AS reports
WHERE size(reports) > 0 OR pr.kind = 'BUG'
// The reports whose BUG label passes, each with its symptom and fix pattern (UNKNOWN when below the bar).
WITH pr, [b IN reports
          WHERE @passes(b, 'kind') |
          {symptom: CASE WHEN @passes(b, 'symptom') THEN b.symptom ELSE 'UNKNOWN' END,
           fixPattern: CASE WHEN @passes(b, 'fixPattern') THEN b.fixPattern ELSE 'UNKNOWN' END}] AS bugs
WITH pr, size(bugs) > 0 AS fromIssue,
     CASE
       WHEN size(bugs) > 0 THEN
         [b IN bugs | {symptom: b.symptom,
                       fixPattern: CASE WHEN b.fixPattern IN ['UNKNOWN', 'NONE'] AND pr.kind = 'BUG'
                                        THEN pr.fixPattern ELSE b.fixPattern END}]
       WHEN pr.kind = 'BUG' THEN [{symptom: pr.symptom, fixPattern: pr.fixPattern}]
       ELSE []
     END AS pairs
WITH pr, fromIssue,
     [p IN pairs WHERE p.symptom IS NOT NULL AND NOT p.symptom IN ['UNKNOWN', 'NONE'] AND p.fixPattern IS NOT NULL
                   AND ($includeUnknown OR NOT p.fixPattern IN ['UNKNOWN', 'NONE'])] AS counted
WITH count(pr) AS inScope, count(CASE WHEN size(counted) > 0 THEN 1 END) AS labelled,
     collect(CASE WHEN size(counted) > 0 THEN {pr: pr, fromIssue: fromIssue, pairs: counted} END) AS fixed
UNWIND fixed AS c
UNWIND c.pairs AS p
WITH DISTINCT inScope, labelled, c.pr AS pr, c.fromIssue AS fromIssue, p.symptom AS symptom,
     p.fixPattern AS fixPattern
WITH inScope, labelled, symptom, fixPattern,
     count(pr) AS fixes,
     count(CASE WHEN fromIssue THEN 1 END) AS fromIssues,
     percentileCont(pr.additions + pr.deletions, 0.5) AS medianLines
WITH inScope, labelled, symptom,
     collect({fixPattern: fixPattern, fixes: fixes, fromIssues: fromIssues, medianLines: medianLines}) AS rows,
     sum(fixes) AS symptomFixes
UNWIND rows AS r
RETURN symptom, r.fixPattern AS fixPattern, r.fixes AS fixes, r.fromIssues AS fromIssues,
       round(toFloat(r.fixes) / symptomFixes, 4) AS shareOfSymptom, round(r.medianLines, 2) AS medianLines,
       inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY symptom, fixes DESC, fixPattern
LIMIT $limit
