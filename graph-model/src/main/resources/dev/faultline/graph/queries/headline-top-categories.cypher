// @name headline-top-categories
// @description The seeds' "top symptoms" and "top root causes" tables recomputed from the graph: bug reports
// @description per category of one dimension, most frequent first, with shares of the bugs whose value is known.
// @description A bug counts when its BUG label and its label of the dimension pass minConfidence (@passes: the
// @description <dimension>Confidence on the issue, symptomClass the symptom's; a human-given label always passes).
// @param dimension Dimension(-kind|-distributedSpecific) = symptom  -- the classification dimension
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param limit Integer = 10  -- at most this many categories
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column rank Integer  -- 1 = most frequent; ties broken by code
// @column category String  -- category code
// @column bugs Integer  -- bug reports in the category
// @column share Float  -- bugs / bugs with a known value of the dimension, 4 decimals
// @column known Integer  -- bugs with a known value of the dimension (the denominator)
// @column inScope Integer  -- bug reports in the filters, whatever their labels (same on every row)
// @column labelled Integer  -- of those, with a known value and labels that pass minConfidence (= known)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.kind = 'BUG' AND i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, @value(i, $dimension) AS value,
     $dimensions[$dimension].labelKey AS labelDimension
WITH i,
     CASE
       WHEN value IS NOT NULL AND NOT value IN ['UNKNOWN', 'NONE']
         AND @passes(i, 'kind')
         AND @passes(i, labelDimension)
       THEN value
     END AS category
WITH count(i) AS inScope, collect(category) AS categories
UNWIND categories AS category
WITH inScope, category, count(*) AS bugs
ORDER BY bugs DESC, category
WITH inScope, collect({category: category, bugs: bugs}) AS rows, sum(bugs) AS known
UNWIND range(0, size(rows) - 1) AS idx
WITH idx, rows[idx] AS r, known, inScope
WHERE idx < $limit
RETURN idx + 1 AS rank, r.category AS category, r.bugs AS bugs, round(toFloat(r.bugs) / known, 4) AS share, known,
       inScope, known AS labelled, round(toFloat(known) / inScope, 4) AS coverage
ORDER BY rank
