// @name symptom-cause-fix-paths
// @description Symptom -> root cause -> fix pattern paths through the classification edges (HAS_SYMPTOM,
// @description CAUSED_BY, RESOLVED_BY) with the number of issues that follow each, most frequent first.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param minIssues Integer = 1  -- leave out paths with fewer issues
// @param limit Integer = 50  -- at most this many paths
// @column symptomClass String  -- top-level class of the symptom
// @column symptom String  -- symptom code
// @column rootCause String  -- root-cause code
// @column fixPattern String  -- fix-pattern code
// @column issues Integer  -- issues with that symptom, root cause and fix pattern
// @column shareOfSymptom Float  -- issues / issues of the symptom on a complete path, 4 decimals
MATCH (s:Symptom)<-[:HAS_SYMPTOM]-(i:Issue)-[:CAUSED_BY]->(rc:RootCause),
      (i)-[:RESOLVED_BY]->(fp:FixPattern)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH s, rc.code AS rootCause, fp.code AS fixPattern, count(i) AS issues
WITH s, collect({rootCause: rootCause, fixPattern: fixPattern, issues: issues}) AS paths, sum(issues) AS symptomTotal
UNWIND paths AS p
WITH s, p, symptomTotal
WHERE p.issues >= $minIssues
OPTIONAL MATCH (s)-[:IS_A]->(sc:SymptomClass)
RETURN sc.code AS symptomClass, s.code AS symptom, p.rootCause AS rootCause, p.fixPattern AS fixPattern,
       p.issues AS issues, round(toFloat(p.issues) / symptomTotal, 4) AS shareOfSymptom
ORDER BY issues DESC, symptom, rootCause, fixPattern
LIMIT $limit
