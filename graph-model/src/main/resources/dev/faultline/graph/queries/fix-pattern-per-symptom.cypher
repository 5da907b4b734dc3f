// @name fix-pattern-per-symptom
// @estimator grouped
// @estimate dimension symptom
// @estimate pair fixPattern
// @estimate kind BUG
// @estimate mode $mode
// @estimate unknown $includeUnknown
// @estimate minimum 0.05
// @estimate zeros drop
// @estimate top $limit
// @estimate subset fromIssue
// @estimate quantiles medianLines=lines@0.5
// @description P1's symptom -> fix pattern table over merged fixes: how each symptom was fixed. Each merged change
// @description (pull requests, and changes read from a clone's history) that FIXES a classified issue or was
// @description classified itself is one item. Its kind and symptom come from the bug report it FIXES (its report
// @description labelled BUG, the most confident first; a change closing several counts once, by that report), else
// @description from its own classification, else from the issue it closes; its fix pattern from that node too, or
// @description from the change's own classification where the report's fix pattern is unknown or below the bar. By
// @description default (mode=estimate) a row is an estimate with a 90% interval (the grouped estimator,
// @description estimate/README.md): the expected number of merged fixes of bug reports with the symptom and the fix
// @description pattern (P(bug) x P(symptom | bug) x P(fix pattern | bug), the two taken as independent given the
// @description kind), and the fix pattern's share among the symptom's known fix patterns; no validation sample serves
// @description changes. mode=confident counts changes whose BUG, symptom and fix-pattern labels pass minConfidence
// @description (a person's label, and a change's own classification, always pass), mode=all every top label.
// @description medianLines is a description, not an estimate: the weighted median of the changed lines (additions +
// @description deletions) of the changes, each weighing its probability of the cell (mode=confident/all: the counted
// @description changes, unweighted), Hazen's midpoint rule. Rows below 0.05 expected fixes are left out.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- fixes merged at or after this instant; null = from the start
// @param to DateTime = null  -- fixes merged before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also reports UNKNOWN and NONE symptoms and fix patterns
// @param mode String(estimate|confident|all) = estimate  -- estimate (expected counts with intervals), confident (labels above the bar) or all (every top label)
// @param minConfidence Confidence = default  -- the bar of the labelled column and of mode=confident: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @param limit Integer = 100  -- at most this many fix patterns per symptom, the largest
// @column code String  -- symptom code
// @column code2 String  -- fix-pattern code
// @column rank Integer  -- 1 = the symptom's largest expected count (mode=confident/all: most labels)
// @column estimate Float  -- expected number of merged fixes of bug reports with the symptom and fix pattern (mode=confident/all: the count of labels), 1 decimal
// @column estimateLow Float  -- lower end of its 90% interval (null for counts of labels)
// @column estimateHigh Float  -- upper end of its 90% interval
// @column share Float  -- share of the fix pattern among the symptom's known fix patterns, 4 decimals (null where too few to estimate)
// @column shareLow Float  -- lower end of the share's 90% interval
// @column shareHigh Float  -- upper end of the share's 90% interval
// @column fromIssueEstimate Float  -- of the estimate, the fixes whose symptom comes from the bug report they close, 1 decimal
// @column fromIssueLow Float  -- lower end of its 90% interval
// @column fromIssueHigh Float  -- upper end of its 90% interval
// @column medianLines Float  -- weighted median of changed lines (additions + deletions) of the changes, 2 decimals (null: no change of known size)
// @column method String  -- the estimator (see category-shares)
// @column basis String  -- what the figure rests on
// @column note String  -- null, or why a number is missing
// @column labelled Integer  -- changes whose symptom and fix-pattern labels are these codes, with both labels and the BUG label above the bar
// @column inScope Integer  -- merged changes in the filters that fix a classified issue or were classified themselves (same on every row)
// @column expectedInScope Float  -- expected number of them that fix a bug report (same on every row)
// @column coverage Float  -- changes with both labels and the BUG label above the bar and known / inScope, 4 decimals (same on every row)
MATCH (pr:PullRequest)
WHERE pr.merged = true
  AND ($from IS NULL OR pr.mergedAt >= $from)
  AND ($to IS NULL OR pr.mergedAt < $to)
OPTIONAL MATCH (pr)-[:IN_REPO]->(:Repository)-[:OF]->(f:Framework)
WITH pr, f.name AS framework
WHERE $framework IS NULL OR framework = $framework
OPTIONAL MATCH (pr)-[:FIXES]->(i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL AND i.classifierVersion IS NOT NULL
WITH pr, i
ORDER BY CASE WHEN i.kind = 'BUG' THEN 0 ELSE 1 END, coalesce(i[$dimensions.kind.confidenceProperty], 0.0) DESC, i.id
WITH pr, collect(i) AS reports
// The node the change's kind and symptom come from: a bug report it fixes, else its own classification, else an
// issue it closes.
WITH pr, CASE
           WHEN any(b IN reports WHERE b.kind = 'BUG') THEN head([b IN reports WHERE b.kind = 'BUG'])
           WHEN pr.kind IS NOT NULL THEN pr
           ELSE head(reports)
         END AS source
WHERE source IS NOT NULL
// The node its fix pattern comes from: the source, or the change's own classification where the report's fix
// pattern is unknown or below the bar.
WITH pr, source, source <> pr AS fromIssue,
     CASE
       WHEN source <> pr AND pr.kind = 'BUG' AND pr.fixPattern IS NOT NULL
         AND (coalesce(source.fixPattern, 'UNKNOWN') IN ['UNKNOWN', 'NONE'] OR NOT @passes(source, 'fixPattern'))
       THEN pr
       ELSE source
     END AS fixSource
RETURN pr.id AS id,
       source.kind AS kind, source[$dimensions.kind.probabilitiesProperty] AS kindP,
       source[$dimensions.kind.calibrationProperty] AS kindCalibration,
       NOT fromIssue OR @passes(source, 'kind') AS kindPasses,
       [h IN coalesce(source.humanGiven, []) WHERE fixSource = source OR h <> 'fixPattern'] AS humanGiven,
       @value(source, 'symptom') AS top, source[$dimensions.symptom.probabilitiesProperty] AS p,
       source[$dimensions.symptom.calibrationProperty] AS calibration,
       NOT fromIssue OR @passes(source, 'symptom') AS passes,
       @value(fixSource, 'fixPattern') AS top2, fixSource[$dimensions.fixPattern.probabilitiesProperty] AS p2,
       fixSource[$dimensions.fixPattern.calibrationProperty] AS calibration2,
       fixSource = pr OR @passes(fixSource, 'fixPattern') AS passes2,
       CASE WHEN fixSource = source THEN null ELSE fixSource[$dimensions.kind.probabilitiesProperty] END AS p2Kind,
       fromIssue, pr.additions + pr.deletions AS lines,
       null AS sample, false AS sampleDrawn, true AS samplePopulation
