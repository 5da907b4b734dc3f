// CategoryCount rows of the category-stats job. MERGE on the constrained id; the newest count replaces the old
// (the job orders updates of one id, and replays converge on the same final value). A rolling window also carries
// its expected count of bug reports (the issues' summed probabilities) and that count's variance; null for releases.
UNWIND $batch.rows AS row
MERGE (c:CategoryCount {id: row.id})
SET c.framework = row.framework,
    c.dimension = row.dimension,
    c.category = row.category,
    c.window = row.window,
    c.windowStart = CASE WHEN row.windowStart IS NULL THEN null ELSE datetime({epochMillis: row.windowStart}) END,
    c.windowEnd = CASE WHEN row.windowEnd IS NULL THEN null ELSE datetime({epochMillis: row.windowEnd}) END,
    c.release = row.release,
    c.count = row.count,
    c.expected = row.expected,
    c.variance = row.variance
