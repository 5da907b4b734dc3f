// One row per pull request, or per change a clone's history shows on the default branch (PullRequestRow.toParameters());
// FIXES edges from its closing keywords. An issue not seen yet gets its node now (its own events fill it in later),
// so an edge never waits for, nor is lost by, the order in which the PR and the issue arrive.
// Planned once (replan=skip): every node is found by an index seek, so the plan does not depend on the graph's
// statistics and a re-plan as the graph grows only stalls the sink (FrozenWriterPlansIT, docs/performance.md).
CYPHER replan=skip
UNWIND $batch.rows AS row
MERGE (f:Framework {name: row.framework})
MERGE (r:Repository {fullName: row.repo})
MERGE (r)-[:OF]->(f)
MERGE (p:PullRequest {id: row.id})
WITH p, r, row
WHERE p.updatedAt IS NULL OR p.updatedAt <= datetime({epochMillis: row.updatedAt})
// Label history (LabelHistory): a label whose code or version changes keeps the one it replaces and when it was given.
@history(p)
SET p.number = row.number,
    p.repo = row.repo,
    p.title = row.title,
    p.url = row.url,
    p.state = row.state,
    p.merged = row.merged,
    p.mergedAt = CASE WHEN row.mergedAt IS NULL THEN null ELSE datetime({epochMillis: row.mergedAt}) END,
    p.createdAt = datetime({epochMillis: row.createdAt}),
    p.updatedAt = datetime({epochMillis: row.updatedAt}),
    // A payload without sizes (a REST listing) keeps the sizes the graph has (from a webhook or the git history).
    p.additions = CASE WHEN row.sizeKnown THEN row.additions ELSE p.additions END,
    p.deletions = CASE WHEN row.sizeKnown THEN row.deletions ELSE p.deletions END,
    p.changedFiles = CASE WHEN row.sizeKnown THEN row.changedFiles ELSE p.changedFiles END,
    p.source = coalesce(row.source, p.source),
    p.changeKind = coalesce(row.changeKind, p.changeKind),
    p.mergeCommitSha = coalesce(row.mergeCommitSha, p.mergeCommitSha),
    p.author = coalesce(row.author, p.author),
    // The change's own classification (merged fixes only), with each label's <key>Calibration as on an issue; a later
    // row without one leaves it.
    p += coalesce(row.classification, {})
MERGE (p)-[:IN_REPO]->(r)
WITH p, row
CALL (p, row) {
  OPTIONAL MATCH (p)-[old:FIXES]->(x:Issue)
  WHERE NOT x.id IN row.fixes
  DELETE old
}
FOREACH (target IN row.fixes |
  MERGE (i:Issue {id: target})
  MERGE (p)-[:FIXES]->(i))
