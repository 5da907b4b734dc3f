// @name top-root-causes-per-stage
// @description The most frequent root causes of each execution stage (edges IN_STAGE and CAUSED_BY, so only
// @description issues with a known stage and root cause), ranked within the stage.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param limit Integer = 5  -- root causes per stage
// @column stage String  -- stage code
// @column rank Integer  -- 1 = most frequent in the stage; ties broken by code
// @column rootCause String  -- root-cause code
// @column rootCauseGroup String  -- GENERAL or DISTRIBUTED
// @column issues Integer  -- issues of the stage with that root cause
// @column shareOfStage Float  -- issues / issues of the stage with a known root cause, 4 decimals
MATCH (st:Stage)<-[:IN_STAGE]-(i:Issue)-[:CAUSED_BY]->(rc:RootCause)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH st.code AS stage, rc, count(i) AS issues
ORDER BY stage, issues DESC, rc.code
WITH stage, collect({code: rc.code, group: rc.group, issues: issues}) AS causes, sum(issues) AS stageTotal
UNWIND range(0, size(causes) - 1) AS idx
WITH stage, idx, causes[idx] AS cause, stageTotal
WHERE idx < $limit
RETURN stage, idx + 1 AS rank, cause.code AS rootCause, cause.group AS rootCauseGroup, cause.issues AS issues,
       round(toFloat(cause.issues) / stageTotal, 4) AS shareOfStage
ORDER BY stage, rank
