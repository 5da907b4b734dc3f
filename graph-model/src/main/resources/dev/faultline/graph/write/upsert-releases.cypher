// One row per release (ReleaseRow.toParameters()), then the issues it now explains are filed against it.
// Issues and releases of one framework are decided one transaction at a time: each statement first takes the write
// lock of its frameworks' nodes (in name order, so two batches cannot deadlock on them), before it reads the other
// kind. Otherwise an issue written while a newer release is being written reads the releases without it, the release
// reads the issues without this one, and the issue stays filed against the older release.
CALL () {
  UNWIND $batch.rows AS row
  WITH DISTINCT row.framework AS name
  ORDER BY name
  MERGE (f:Framework {name: name})
  SET f.writeLock = true
  REMOVE f.writeLock
}
UNWIND $batch.rows AS row
MERGE (f:Framework {name: row.framework})
MERGE (rel:Release {id: row.framework + '@' + row.version})
// A tag read from a clone does not overwrite a GitHub release (its publication date, URL, pre-release flag); a
// release written before sources were recorded, with a tag, is a GitHub release.
WITH f, rel, row,
     row.source = 'git' AND coalesce(rel.source, CASE WHEN rel.tag IS NULL THEN 'git' ELSE 'github' END) <> 'git' AS keep
SET rel.framework = row.framework,
    rel.version = row.version,
    rel.tag = CASE WHEN keep THEN rel.tag ELSE row.tag END,
    rel.repo = row.repo,
    rel.url = CASE WHEN keep THEN rel.url ELSE row.url END,
    rel.publishedAt = CASE WHEN keep THEN rel.publishedAt ELSE datetime({epochMillis: row.publishedAt}) END,
    rel.prerelease = CASE WHEN keep THEN rel.prerelease ELSE row.prerelease END,
    rel.deleted = CASE WHEN keep THEN rel.deleted ELSE row.deleted END,
    rel.source = CASE WHEN keep THEN rel.source ELSE row.source END
MERGE (rel)-[:OF]->(f)
WITH rel, row
// Issues that report this very version.
CALL (rel, row) {
  // The hints name the composite indexes of migration V0004: without them the planner reads every issue of the
  // framework (or of all frameworks) and filters (graph-model ReleaseFilingPlanIT shows the plan).
  WITH rel, row.framework AS framework, row.version AS version
  MATCH (i:Issue)
  USING INDEX SEEK i:Issue(framework, frameworkVersion)
  WHERE i.framework = framework AND i.frameworkVersion = version
  OPTIONAL MATCH (i)-[old:FILED_AGAINST]->(other)
  WHERE other <> rel
  DELETE old
  MERGE (i)-[:FILED_AGAINST]->(rel)
}
// Issues that report no version and were opened between this release and the next one.
CALL (rel, row) {
  OPTIONAL MATCH (next:Release {framework: row.framework})
  WHERE next.publishedAt > rel.publishedAt
  // no newer release: up to the end of time
  WITH rel, row.framework AS framework, coalesce(min(next.publishedAt), datetime('9999-12-31T00:00:00Z')) AS until
  MATCH (i:Issue)
  USING INDEX SEEK i:Issue(framework, createdAt)
  WHERE i.framework = framework AND i.createdAt >= rel.publishedAt AND i.createdAt < until
    AND i.frameworkVersion IS NULL
  OPTIONAL MATCH (i)-[old:FILED_AGAINST]->(other)
  WHERE other <> rel
  DELETE old
  MERGE (i)-[:FILED_AGAINST]->(rel)
}
