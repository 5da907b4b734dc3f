// @name stage-symptom-matrix
// @description Bug reports per execution stage and symptom (classification edges IN_STAGE and HAS_SYMPTOM, so
// @description only known values), one row per non-empty cell, for a stage x symptom heat map. An issue counts when
// @description both edges' confidence passes minConfidence (or the label is human-given).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column stage String  -- stage code
// @column symptomClass String  -- top-level symptom class of the symptom
// @column symptom String  -- symptom code
// @column issues Integer  -- issues in that cell
// @column shareOfStage Float  -- issues / all issues of the stage with a known symptom, 4 decimals
// @column inScope Integer  -- issues in the filters, whatever their labels (same on every row)
// @column labelled Integer  -- of those, with a stage and a symptom that pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, coalesce(i.humanGiven, []) AS human,
     head([(i)-[r:IN_STAGE]->(st:Stage) | {code: st.code, confidence: r.confidence}]) AS stage,
     head([(i)-[r:HAS_SYMPTOM]->(s:Symptom) | {node: s, confidence: r.confidence}]) AS symptom
WITH count(i) AS inScope,
     collect(
       CASE WHEN stage IS NOT NULL AND symptom IS NOT NULL
         AND (@passes(i, 'stage'))
         AND (@passes(i, 'symptom'))
       THEN {stage: stage.code, symptom: symptom.node} END) AS counted
WITH inScope, size(counted) AS labelled, counted
UNWIND counted AS c
WITH inScope, labelled, c.stage AS stage, c.symptom AS s, count(*) AS issues
WITH inScope, labelled, stage, collect({symptom: s, issues: issues}) AS cells, sum(issues) AS stageTotal
UNWIND cells AS cell
WITH inScope, labelled, stage, cell.symptom AS s, cell.issues AS issues, stageTotal
OPTIONAL MATCH (s)-[:IS_A]->(sc:SymptomClass)
RETURN stage, sc.code AS symptomClass, s.code AS symptom, issues,
       round(toFloat(issues) / stageTotal, 4) AS shareOfStage,
       inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY stage, issues DESC, symptom
