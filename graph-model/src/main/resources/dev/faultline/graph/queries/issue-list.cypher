// @name issue-list
// @description One page of issues, newest first, with the filters of the dashboard, and how many match in all.
// @description Deleted and transferred-away issues are left out. One row.
// @param framework String = null  -- framework name; null = every framework
// @param kind String = null  -- only issues of this kind (e.g. BUG); null = every kind
// @param release String = null  -- only issues FILED_AGAINST this release, framework@version; null = any
// @param symptom String = null  -- only issues with this symptom code; null = any
// @param stage String = null  -- only issues in this stage code; null = any
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param skip Integer = 0  -- issues to pass over (page offset)
// @param limit Integer = 50  -- at most this many issues in the page
// @column total Integer  -- issues matching the filters
// @column issues List<Map>  -- the page: {id, title, url, state, framework, kind, symptom, stage, rootCause, distributedSpecific, createdAt}, newest first
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($kind IS NULL OR i.kind = $kind)
  AND ($symptom IS NULL OR i.symptom = $symptom)
  AND ($stage IS NULL OR i.stage = $stage)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
  AND ($release IS NULL OR EXISTS { (i)-[:FILED_AGAINST]->(:Release {id: $release}) })
WITH i
ORDER BY i.createdAt DESC, i.id
// Node references only until the page is cut: 100,000 matches stay cheap.
WITH collect(i) AS matches
RETURN size(matches) AS total,
       [i IN matches[$skip..($skip + $limit)] |
         i {.id, .title, .url, .state, .framework, .kind, .symptom, .stage, .rootCause, .distributedSpecific,
            .createdAt}] AS issues
