// @name stage-symptom-matrix
// @description Bug reports per execution stage and symptom (classification edges IN_STAGE and HAS_SYMPTOM, so
// @description only known values), one row per non-empty cell, for a stage x symptom heat map.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @column stage String  -- stage code
// @column symptomClass String  -- top-level symptom class of the symptom
// @column symptom String  -- symptom code
// @column issues Integer  -- issues in that cell
// @column shareOfStage Float  -- issues / all issues of the stage with a known symptom, 4 decimals
MATCH (st:Stage)<-[:IN_STAGE]-(i:Issue)-[:HAS_SYMPTOM]->(s:Symptom)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH st.code AS stage, s, count(i) AS issues
WITH stage, collect({symptom: s, issues: issues}) AS cells, sum(issues) AS stageTotal
UNWIND cells AS cell
WITH stage, cell.symptom AS s, cell.issues AS issues, stageTotal
OPTIONAL MATCH (s)-[:IS_A]->(sc:SymptomClass)
RETURN stage, sc.code AS symptomClass, s.code AS symptom, issues,
       round(toFloat(issues) / stageTotal, 4) AS shareOfStage
ORDER BY stage, issues DESC, symptom
