// One row per pull request (PullRequestRow.toParameters()); FIXES edges from its closing keywords.
UNWIND $rows AS row
MERGE (f:Framework {name: row.framework})
MERGE (r:Repository {fullName: row.repo})
MERGE (r)-[:OF]->(f)
MERGE (p:PullRequest {id: row.id})
WITH p, r, row
WHERE p.updatedAt IS NULL OR p.updatedAt <= datetime({epochMillis: row.updatedAt})
SET p.number = row.number,
    p.repo = row.repo,
    p.title = row.title,
    p.url = row.url,
    p.state = row.state,
    p.merged = row.merged,
    p.mergedAt = CASE WHEN row.mergedAt IS NULL THEN null ELSE datetime({epochMillis: row.mergedAt}) END,
    p.createdAt = datetime({epochMillis: row.createdAt}),
    p.updatedAt = datetime({epochMillis: row.updatedAt}),
    p.additions = row.additions,
    p.deletions = row.deletions,
    p.changedFiles = row.changedFiles
MERGE (p)-[:IN_REPO]->(r)
WITH p, row
CALL (p, row) {
  OPTIONAL MATCH (p)-[old:FIXES]->(x:Issue)
  WHERE NOT x.id IN row.fixes
  DELETE old
}
// An issue not seen yet gets its node now; its own events fill it in later.
FOREACH (target IN row.fixes |
  MERGE (i:Issue {id: target})
  MERGE (p)-[:FIXES]->(i))
