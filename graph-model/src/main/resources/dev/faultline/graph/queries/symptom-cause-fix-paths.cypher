// @name symptom-cause-fix-paths
// @description Symptom -> root cause -> fix pattern paths through the classification edges (HAS_SYMPTOM,
// @description CAUSED_BY, RESOLVED_BY) with the number of issues that follow each, most frequent first. An issue
// @description counts when all three edges' confidence passes minConfidence (or the label is human-given).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param minIssues Integer = 1  -- leave out paths with fewer issues
// @param limit Integer = 50  -- at most this many paths
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column symptomClass String  -- top-level class of the symptom
// @column symptom String  -- symptom code
// @column rootCause String  -- root-cause code
// @column fixPattern String  -- fix-pattern code
// @column issues Integer  -- issues with that symptom, root cause and fix pattern
// @column shareOfSymptom Float  -- issues / issues of the symptom on a complete path, 4 decimals
// @column inScope Integer  -- issues in the filters, whatever their labels (same on every row)
// @column labelled Integer  -- of those, on a complete path whose three labels pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, coalesce(i.humanGiven, []) AS human,
     head([(i)-[r:HAS_SYMPTOM]->(s:Symptom) | {node: s, confidence: r.confidence}]) AS symptom,
     head([(i)-[r:CAUSED_BY]->(rc:RootCause) | {code: rc.code, confidence: r.confidence}]) AS cause,
     head([(i)-[r:RESOLVED_BY]->(fp:FixPattern) | {code: fp.code, confidence: r.confidence}]) AS fix
WITH count(i) AS inScope,
     collect(
       CASE WHEN symptom IS NOT NULL AND cause IS NOT NULL AND fix IS NOT NULL
         AND (@passes(i, 'symptom'))
         AND (@passes(i, 'rootCause'))
         AND (@passes(i, 'fixPattern'))
       THEN {symptom: symptom.node, rootCause: cause.code, fixPattern: fix.code} END) AS counted
WITH inScope, size(counted) AS labelled, counted
UNWIND counted AS c
WITH inScope, labelled, c.symptom AS s, c.rootCause AS rootCause, c.fixPattern AS fixPattern, count(*) AS issues
WITH inScope, labelled, s, collect({rootCause: rootCause, fixPattern: fixPattern, issues: issues}) AS paths,
     sum(issues) AS symptomTotal
UNWIND paths AS p
WITH inScope, labelled, s, p, symptomTotal
WHERE p.issues >= $minIssues
OPTIONAL MATCH (s)-[:IS_A]->(sc:SymptomClass)
RETURN sc.code AS symptomClass, s.code AS symptom, p.rootCause AS rootCause, p.fixPattern AS fixPattern,
       p.issues AS issues, round(toFloat(p.issues) / symptomTotal, 4) AS shareOfSymptom,
       inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY issues DESC, symptom, rootCause, fixPattern
LIMIT $limit
