// Records a person's labels of drawn issues (ValidationSamples.importLabels): one INCLUDES edge per labelled issue
// holding its labels (a dimension left empty is absent) and when they were given.
MATCH (s:ValidationSample {id: $sample})
SET s.importedAt = datetime()
WITH s
UNWIND $rows AS row
MATCH (s)-[:DRAWN]->(i:Issue {id: row.id})
MERGE (s)-[r:INCLUDES]->(i)
SET r = row.labels, r.labelledAt = datetime()
