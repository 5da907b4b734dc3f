// Alert rows of the category-stats job, with EXAMPLE edges to their example issues. MERGE on the constrained id:
// an alert written twice (replay) is one node, and a later row of an id revises it: its examples replace the old
// ones, and withdrawn = true takes it back (the query library no longer lists it). Example issues not yet in the
// graph get a stub the issue pipeline fills in later (MERGE on the constrained Issue.id). updatedAt is when the
// graph took a row whose text, members or withdrawal differ from the node's (a member joined or left a grouped
// alert): what a feed reader follows; a replay writing the same alert again leaves it.
UNWIND $batch.rows AS row
MERGE (a:Alert {id: row.id})
WITH a, row,
     a.explanation IS NULL OR a.explanation <> row.explanation
       OR coalesce(a.moved, []) <> coalesce(row.moved, [])
       OR coalesce(a.withdrawn, false) <> coalesce(row.withdrawn, false) AS revised
SET a.updatedAt = CASE WHEN revised OR a.updatedAt IS NULL THEN datetime() ELSE a.updatedAt END,
    a.framework = row.framework,
    a.dimension = row.dimension,
    a.category = row.category,
    a.stage = row.stage,
    a.kind = row.kind,
    a.windowStart = datetime({epochMillis: row.windowStart}),
    a.windowEnd = datetime({epochMillis: row.windowEnd}),
    a.count = row.count,
    a.baseline = row.baseline,
    a.score = row.score,
    a.explanation = row.explanation,
    a.raisedAt = datetime({epochMillis: row.raisedAt}),
    a.withdrawn = coalesce(row.withdrawn, false),
    a.moved = coalesce(row.moved, [])
WITH a, row
CALL (a, row) {
  MATCH (a)-[old:EXAMPLE]->(i:Issue)
  WHERE NOT i.id IN row.exampleIssueIds
  DELETE old
}
WITH a, row
UNWIND row.exampleIssueIds AS exampleId
MERGE (i:Issue {id: exampleId})
MERGE (a)-[:EXAMPLE]->(i)
