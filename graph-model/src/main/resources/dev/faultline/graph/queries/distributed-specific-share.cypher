// @name distributed-specific-share
// @description Share of issues whose defect is distributed-specific (could not occur on one device), overall and
// @description per framework. The share is over issues where distributedSpecific is known (true or false) and its
// @description label passes minConfidence (distributedSpecificConfidence, and kindConfidence when kind is given; a
// @description human-given label always passes); undetermined (null) and less confident ones are counted apart.
// @description P2 reports 45.1% of symptoms distributed-specific.
// @param kind String = BUG  -- only issues of this kind; null = every kind
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column scope String  -- overall (one row, first) or framework
// @column framework String  -- framework name; null on the overall row
// @column issues Integer  -- issues in scope, whatever their labels
// @column distributedSpecific Integer  -- of those, distributedSpecific = true with labels that pass minConfidence
// @column notDistributedSpecific Integer  -- of those, distributedSpecific = false with labels that pass minConfidence
// @column undetermined Integer  -- of those, distributedSpecific null or a label below minConfidence
// @column share Float  -- distributedSpecific / (distributedSpecific + notDistributedSpecific), 4 decimals; null when none known
// @column labelled Integer  -- distributedSpecific + notDistributedSpecific
// @column coverage Float  -- labelled / issues, 4 decimals; null when there are no issues
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($kind IS NULL OR i.kind = $kind)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, coalesce(i.humanGiven, []) AS human
WITH i,
     ($kind IS NULL OR @passes(i, 'kind'))
     AND (@passes(i, 'distributedSpecific'))
       AS confident
WITH i.framework AS framework,
     count(i) AS issues,
     count(CASE WHEN confident AND i.distributedSpecific = true THEN 1 END) AS yes,
     count(CASE WHEN confident AND i.distributedSpecific = false THEN 1 END) AS no
ORDER BY framework
WITH collect({scope: 'framework', framework: framework, issues: issues, yes: yes, no: no}) AS perFramework
WITH [{scope: 'overall', framework: null,
       issues: reduce(n = 0, r IN perFramework | n + r.issues),
       yes: reduce(n = 0, r IN perFramework | n + r.yes),
       no: reduce(n = 0, r IN perFramework | n + r.no)}] + perFramework AS rows
UNWIND rows AS r
RETURN r.scope AS scope, r.framework AS framework, r.issues AS issues,
       r.yes AS distributedSpecific, r.no AS notDistributedSpecific, r.issues - r.yes - r.no AS undetermined,
       CASE WHEN r.yes + r.no = 0 THEN null ELSE round(toFloat(r.yes) / (r.yes + r.no), 4) END AS share,
       r.yes + r.no AS labelled,
       CASE WHEN r.issues = 0 THEN null ELSE round(toFloat(r.yes + r.no) / r.issues, 4) END AS coverage
