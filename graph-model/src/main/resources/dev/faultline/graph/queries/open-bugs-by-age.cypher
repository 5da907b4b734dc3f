// @name open-bugs-by-age
// @description Open bug reports by how long they have been open, in fixed age buckets (every bucket listed, 0
// @description when empty), with the oldest issue of each bucket.
// @param framework String = null  -- framework name; null = every framework
// @param asOf DateTime = null  -- the instant ages are measured at; null = now
// @column bucket String  -- age range label
// @column fromDays Integer  -- lower bound in days, inclusive
// @column toDays Integer  -- upper bound in days, exclusive; null = no bound
// @column openBugs Integer  -- open bug reports of that age
// @column oldest String  -- id of the oldest issue in the bucket
WITH coalesce($asOf, datetime()) AS now,
     [{bucket: 'under 1 week', lo: 0, hi: 7},
      {bucket: '1-4 weeks', lo: 7, hi: 28},
      {bucket: '1-3 months', lo: 28, hi: 91},
      {bucket: '3-12 months', lo: 91, hi: 365},
      {bucket: 'over 1 year', lo: 365, hi: null}] AS buckets
CALL (now) {
  MATCH (i:Issue)
  WHERE i.state = 'open' AND i.kind = 'BUG' AND i.transferredTo IS NULL
    AND ($framework IS NULL OR i.framework = $framework)
    AND i.createdAt <= now
  WITH i ORDER BY i.createdAt, i.id
  RETURN collect({id: i.id, days: duration.inSeconds(i.createdAt, now).seconds / 86400.0}) AS ages
}
UNWIND buckets AS b
WITH b, [a IN ages WHERE a.days >= b.lo AND (b.hi IS NULL OR a.days < b.hi)] AS inBucket
RETURN b.bucket AS bucket, b.lo AS fromDays, b.hi AS toDays, size(inBucket) AS openBugs, inBucket[0].id AS oldest
ORDER BY fromDays
