// @name emerging-categories
// @description Alerts of the category-statistics job (surges and new combinations), newest first, each with its
// @description explanation, every dimension/category the event moved (a grouped alert) and the example issues it
// @description links to. Withdrawn alerts (taken back by a later revision) are
// @description left out.
// @param framework String = null  -- framework name; null = every framework
// @param dimension String = null  -- only alerts of this dimension (e.g. symptom); null = all
// @param kind String(SURGE|NEW_COMBINATION) = null  -- only alerts of this kind; null = both
// @param since DateTime = null  -- only alerts raised at or after this instant; null = all
// @param limit Integer = 50  -- at most this many alerts
// @column id String  -- alert key
// @column raisedAt DateTime  -- when the alert was raised (a grouped alert: its newest member, in event time)
// @column updatedAt DateTime  -- when the graph last took a change of its text or members (else raisedAt)
// @column framework String  -- framework
// @column dimension String  -- classification dimension
// @column category String  -- category code
// @column kind String  -- SURGE or NEW_COMBINATION
// @column windowStart DateTime  -- start of the window counted
// @column windowEnd DateTime  -- end of the window counted
// @column count Integer  -- issues in the window
// @column baseline Float  -- expected count
// @column score Float  -- strength of the alert
// @column explanation String  -- why it was raised, in words
// @column moved List<String>  -- every dimension/category the event moved, one sentence each, strongest first
// @column examples List<Map>  -- example issues: {id, title, url, state}, by id
MATCH (a:Alert)
WHERE coalesce(a.withdrawn, false) = false
  AND ($framework IS NULL OR a.framework = $framework)
  AND ($dimension IS NULL OR a.dimension = $dimension)
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($since IS NULL OR a.raisedAt >= $since)
WITH a
ORDER BY a.raisedAt DESC, a.score DESC, a.id
LIMIT $limit
RETURN a.id AS id, a.raisedAt AS raisedAt, coalesce(a.updatedAt, a.raisedAt) AS updatedAt,
       a.framework AS framework, a.dimension AS dimension,
       a.category AS category, a.kind AS kind, a.windowStart AS windowStart, a.windowEnd AS windowEnd,
       a.count AS count, a.baseline AS baseline, a.score AS score, a.explanation AS explanation,
       coalesce(a.moved, []) AS moved,
       COLLECT {
         MATCH (a)-[:EXAMPLE]->(i:Issue)
         WITH i ORDER BY i.id
         RETURN {id: i.id, title: i.title, url: i.url, state: i.state}
       } AS examples
ORDER BY raisedAt DESC, score DESC, id
