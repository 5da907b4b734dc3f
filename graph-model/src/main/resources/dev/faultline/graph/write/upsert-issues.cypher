UNWIND $rows AS row
MERGE (f:Framework {name: row.framework})
MERGE (r:Repository {fullName: row.repo})
MERGE (r)-[:OF]->(f)
MERGE (i:Issue {id: row.id})
WITH i, r, row
// Latest state wins whatever the arrival order: an older row leaves the issue untouched.
WHERE i.updatedAt IS NULL OR i.updatedAt <= datetime({epochMillis: row.updatedAt})
SET i.number = row.number,
    i.repo = row.repo,
    i.title = row.title,
    i.body = row.body,
    i.state = row.state,
    i.url = row.url,
    i.author = row.author,
    i.createdAt = datetime({epochMillis: row.createdAt}),
    i.updatedAt = datetime({epochMillis: row.updatedAt}),
    i.closedAt = CASE WHEN row.closedAt IS NULL THEN null ELSE datetime({epochMillis: row.closedAt}) END
MERGE (i)-[:IN_REPO]->(r)
WITH i, row
OPTIONAL MATCH (i)-[old:HAS_LABEL]->(gone:Label)
WHERE NOT gone.name IN row.labels
DELETE old
WITH DISTINCT i, row
FOREACH (name IN row.labels |
  MERGE (l:Label {name: name})
  MERGE (i)-[:HAS_LABEL]->(l));
