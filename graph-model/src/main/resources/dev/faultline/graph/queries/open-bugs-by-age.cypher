// @name open-bugs-by-age
// @description Open bug reports by how long they have been open, in fixed age buckets (every bucket listed, 0
// @description when empty), with the oldest issue of each bucket. Only BUG labels that pass minConfidence
// @description (kindConfidence, or human-given) are counted; inScope, labelled and coverage say how many that leaves out.
// @param framework String = null  -- framework name; null = every framework
// @param asOf DateTime = null  -- the instant ages are measured at; null = now
// @param minConfidence Confidence = default  -- bar a BUG label must pass to count: 0..1, all (= 0), calibrated (per-dimension bars for 90% precision) or default (the library's)
// @column bucket String  -- age range label
// @column fromDays Integer  -- lower bound in days, inclusive
// @column toDays Integer  -- upper bound in days, exclusive; null = no bound
// @column openBugs Integer  -- open bug reports of that age whose BUG label passes minConfidence
// @column oldest String  -- id of the oldest of those
// @column inScope Integer  -- open bug reports of that age, whatever the confidence of their BUG label
// @column labelled Integer  -- of those, whose BUG label passes minConfidence (= openBugs)
// @column coverage Float  -- labelled / inScope, 4 decimals; null when inScope is 0
WITH coalesce($asOf, datetime()) AS now,
     [{bucket: 'under 1 week', lo: 0, hi: 7},
      {bucket: '1-4 weeks', lo: 7, hi: 28},
      {bucket: '1-3 months', lo: 28, hi: 91},
      {bucket: '3-12 months', lo: 91, hi: 365},
      {bucket: 'over 1 year', lo: 365, hi: null}] AS buckets
// One aggregation pass: each issue's bucket index, then count and oldest (earliest [createdAt, id]) per bucket.
CALL (now, buckets) {
  MATCH (i:Issue)
  WHERE i.state = 'open' AND i.kind = 'BUG' AND i.transferredTo IS NULL
    AND ($framework IS NULL OR i.framework = $framework)
    AND i.createdAt <= now
  WITH i, duration.inSeconds(i.createdAt, now).seconds / 86400.0 AS days,
       @passes(i, 'kind')
         AS confident
  WITH size([x IN buckets WHERE x.lo <= days]) - 1 AS b, count(i) AS scoped,
       count(CASE WHEN confident THEN 1 END) AS n, min(CASE WHEN confident THEN [i.createdAt, i.id] END) AS oldest
  RETURN collect({b: b, n: n, all: scoped, oldest: oldest[1]}) AS counts
}
UNWIND range(0, size(buckets) - 1) AS idx
WITH buckets[idx] AS b, head([c IN counts WHERE c.b = idx]) AS c
WITH b, c, coalesce(c.n, 0) AS openBugs, coalesce(c.all, 0) AS inScope
RETURN b.bucket AS bucket, b.lo AS fromDays, b.hi AS toDays, openBugs, c.oldest AS oldest, inScope,
       openBugs AS labelled, CASE WHEN inScope = 0 THEN null ELSE round(toFloat(openBugs) / inScope, 4) END AS coverage
ORDER BY fromDays
