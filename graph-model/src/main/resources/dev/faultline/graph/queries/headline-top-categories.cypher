// @name headline-top-categories
// @description The seeds' "top symptoms" and "top root causes" tables recomputed from the graph: bug reports
// @description per category of one dimension, most frequent first, with shares of the bugs whose value is known.
// @param dimension String(symptom|symptomClass|rootCause|fixPattern|stage|phase) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param limit Integer = 10  -- at most this many categories
// @column rank Integer  -- 1 = most frequent; ties broken by code
// @column category String  -- category code
// @column bugs Integer  -- bug reports in the category
// @column share Float  -- bugs / bugs with a known value of the dimension, 4 decimals
// @column known Integer  -- bugs with a known value of the dimension (the denominator)
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH CASE $dimension
       WHEN 'symptom' THEN i.symptom
       WHEN 'symptomClass' THEN i.symptomClass
       WHEN 'rootCause' THEN i.rootCause
       WHEN 'fixPattern' THEN i.fixPattern
       WHEN 'stage' THEN i.stage
       WHEN 'phase' THEN i.phase
     END AS category
WHERE category IS NOT NULL AND NOT category IN ['UNKNOWN', 'NONE']
WITH category, count(*) AS bugs
ORDER BY bugs DESC, category
WITH collect({category: category, bugs: bugs}) AS rows, sum(bugs) AS known
UNWIND range(0, size(rows) - 1) AS idx
WITH idx, rows[idx] AS r, known
WHERE idx < $limit
RETURN idx + 1 AS rank, r.category AS category, r.bugs AS bugs, round(toFloat(r.bugs) / known, 4) AS share, known
ORDER BY rank
