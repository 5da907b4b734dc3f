// @name top-root-causes-per-stage
// @description The most frequent root causes of each execution stage (edges IN_STAGE and CAUSED_BY, so only
// @description issues with a known stage and root cause), ranked within the stage. An issue counts when both edges'
// @description confidence passes minConfidence (or the label is human-given).
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param limit Integer = 5  -- root causes per stage
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column stage String  -- stage code
// @column rank Integer  -- 1 = most frequent in the stage; ties broken by code
// @column rootCause String  -- root-cause code
// @column rootCauseGroup String  -- GENERAL or DISTRIBUTED
// @column issues Integer  -- issues of the stage with that root cause
// @column shareOfStage Float  -- issues / issues of the stage with a known root cause, 4 decimals
// @column inScope Integer  -- issues in the filters, whatever their labels (same on every row)
// @column labelled Integer  -- of those, with a stage and a root cause that pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, coalesce(i.humanGiven, []) AS human,
     head([(i)-[r:IN_STAGE]->(st:Stage) | {code: st.code, confidence: r.confidence}]) AS stage,
     head([(i)-[r:CAUSED_BY]->(rc:RootCause) | {code: rc.code, group: rc.group, confidence: r.confidence}]) AS cause
WITH count(i) AS inScope,
     collect(
       CASE WHEN stage IS NOT NULL AND cause IS NOT NULL
         AND (@passes(i, 'stage'))
         AND (@passes(i, 'rootCause'))
       THEN {stage: stage.code, code: cause.code, group: cause.group} END) AS counted
WITH inScope, size(counted) AS labelled, counted
UNWIND counted AS c
WITH inScope, labelled, c.stage AS stage, c.code AS code, c.group AS rootGroup, count(*) AS issues
ORDER BY stage, issues DESC, code
WITH inScope, labelled, stage, collect({code: code, group: rootGroup, issues: issues}) AS causes, sum(issues) AS stageTotal
UNWIND range(0, size(causes) - 1) AS idx
WITH inScope, labelled, stage, idx, causes[idx] AS cause, stageTotal
WHERE idx < $limit
RETURN stage, idx + 1 AS rank, cause.code AS rootCause, cause.group AS rootCauseGroup, cause.issues AS issues,
       round(toFloat(cause.issues) / stageTotal, 4) AS shareOfStage,
       inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY stage, rank
