// Alert rows of the category-stats job, with EXAMPLE edges to their example issues. MERGE on the constrained id:
// an alert written twice (replay) is one node. Example issues not yet in the graph get a stub the issue pipeline
// fills in later (MERGE on the constrained Issue.id).
UNWIND $rows AS row
MERGE (a:Alert {id: row.id})
SET a.framework = row.framework,
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
    a.raisedAt = datetime({epochMillis: row.raisedAt})
WITH a, row
UNWIND row.exampleIssueIds AS exampleId
MERGE (i:Issue {id: exampleId})
MERGE (a)-[:EXAMPLE]->(i)
