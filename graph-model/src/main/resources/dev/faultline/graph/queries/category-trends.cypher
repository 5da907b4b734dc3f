// @name category-trends
// @description Issues opened per week or month and per category of one classification dimension (from the
// @description issue's classification properties). The dimension is picked from a fixed list by a CASE over
// @description $dimension. A null distributedSpecific counts as UNKNOWN.
// @param dimension String(symptom|symptomClass|rootCause|fixPattern|stage|phase|kind|distributedSpecific) = symptom  -- the classification dimension
// @param bucket String(week|month) = month  -- period length; a week starts on Monday
// @param framework String = null  -- framework name; null = every framework
// @param kind String = BUG  -- only issues of this kind; null = every kind
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also counts UNKNOWN and NONE
// @column period Date  -- first day of the week or month
// @column category String  -- category code (true/false for distributedSpecific)
// @column issues Integer  -- issues opened in the period with that category
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($kind IS NULL OR i.kind = $kind)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i,
     CASE $dimension
       WHEN 'symptom' THEN i.symptom
       WHEN 'symptomClass' THEN i.symptomClass
       WHEN 'rootCause' THEN i.rootCause
       WHEN 'fixPattern' THEN i.fixPattern
       WHEN 'stage' THEN i.stage
       WHEN 'phase' THEN i.phase
       WHEN 'kind' THEN i.kind
       WHEN 'distributedSpecific' THEN coalesce(toString(i.distributedSpecific), 'UNKNOWN')
     END AS category
WHERE category IS NOT NULL AND ($includeUnknown OR NOT category IN ['UNKNOWN', 'NONE'])
WITH CASE $bucket WHEN 'week' THEN date.truncate('week', i.createdAt) ELSE date.truncate('month', i.createdAt) END AS period,
     category
RETURN period, category, count(*) AS issues
ORDER BY period, category
