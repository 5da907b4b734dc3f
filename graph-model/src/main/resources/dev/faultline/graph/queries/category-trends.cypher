// @name category-trends
// @description Issues opened per week or month and per category of one classification dimension (from the
// @description issue's classification properties, read as i[$dimension]). A null distributedSpecific counts as
// @description UNKNOWN. An issue counts when its label of the dimension (and its kind label when kind is given) passes
// @description minConfidence (@passes: the <dimension>Confidence on the issue; symptomClass is the symptom's label);
// @description a human-given label always passes. A label of the
// @description dimension below the bar counts as UNKNOWN (what the classifier answers below its own threshold).
// @param dimension Dimension = symptom  -- the classification dimension
// @param bucket String(week|month) = month  -- period length; a week starts on Monday
// @param framework String = null  -- framework name; null = every framework
// @param kind String = BUG  -- only issues of this kind; null = every kind
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param includeUnknown Boolean = false  -- true also counts UNKNOWN and NONE
// @param minConfidence Confidence = default  -- bar a label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column period Date  -- first day of the week or month
// @column category String  -- category code (true/false for distributedSpecific)
// @column issues Integer  -- issues opened in the period with that category
// @column inScope Integer  -- issues of the kind opened in the filters' range, whatever their labels (same on every row)
// @column labelled Integer  -- of those, with a known category and labels that pass minConfidence (same on every row)
// @column coverage Float  -- labelled / inScope, 4 decimals (same on every row)
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($kind IS NULL OR i.kind = $kind)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
WITH i, @value(i, $dimension) AS value,
     $dimensions[$dimension].labelKey AS labelDimension
WITH i, value,
     $kind IS NULL OR @passes(i, 'kind') AS kindPasses,
     @passes(i, labelDimension) AS labelPasses
WITH i, value IS NOT NULL AND NOT value IN ['UNKNOWN', 'NONE'] AND kindPasses AND labelPasses AS confident,
     CASE
       WHEN value IS NULL OR NOT kindPasses THEN null
       WHEN labelPasses OR value IN ['UNKNOWN', 'NONE'] THEN value
       ELSE 'UNKNOWN'
     END AS category
WITH count(i) AS inScope, count(CASE WHEN confident THEN 1 END) AS labelled,
     collect(
       CASE WHEN category IS NOT NULL AND ($includeUnknown OR NOT category IN ['UNKNOWN', 'NONE'])
         THEN {category: category,
               period: CASE $bucket WHEN 'week' THEN date.truncate('week', i.createdAt)
                                     ELSE date.truncate('month', i.createdAt) END}
       END) AS counted
UNWIND counted AS c
WITH c.period AS period, c.category AS category, inScope, labelled, count(*) AS issues
RETURN period, category, issues, inScope, labelled, round(toFloat(labelled) / inScope, 4) AS coverage
ORDER BY period, category
