// The benchmark's second ceiling for the graph writer: the same rows written as the same nodes, properties and
// relationships by plain UNWIND … MERGE, without what makes the writer lifecycle-true (the newest-state guard, the
// removal of stale labels and classification edges, the fallback release search, transfers).
UNWIND $rows AS row
MERGE (f:Framework {name: row.framework})
MERGE (r:Repository {fullName: row.repo})
MERGE (r)-[:OF]->(f)
MERGE (i:Issue {id: row.id})
SET i.stateVersion = row.stateVersion,
    i.number = row.number,
    i.repo = row.repo,
    i.framework = row.framework,
    i.title = row.title,
    i.body = row.body,
    i.state = row.state,
    i.url = row.url,
    i.author = row.author,
    i.createdAt = datetime({epochMillis: row.createdAt}),
    i.updatedAt = datetime({epochMillis: row.updatedAt}),
    i.closedAt = CASE WHEN row.closedAt IS NULL THEN null ELSE datetime({epochMillis: row.closedAt}) END,
    i.commentCount = row.commentCount,
    i.transferredTo = row.transferredTo,
    i += row.classification
MERGE (i)-[:IN_REPO]->(r)
FOREACH (name IN row.labels | MERGE (l:Label {name: name}) MERGE (i)-[:HAS_LABEL]->(l))
WITH i, row
OPTIONAL MATCH (symptom:Symptom {code: row.symptomEdge.code})
OPTIONAL MATCH (cause:RootCause {code: row.rootCauseEdge.code})
OPTIONAL MATCH (fix:FixPattern {code: row.fixPatternEdge.code})
OPTIONAL MATCH (stage:Stage {code: row.stageEdge.code})
OPTIONAL MATCH (release:Release {id: row.framework + '@' + row.frameworkVersion})
FOREACH (n IN CASE WHEN symptom IS NULL THEN [] ELSE [symptom] END | MERGE (i)-[e:HAS_SYMPTOM]->(n) SET e = row.symptomEdge)
FOREACH (n IN CASE WHEN cause IS NULL THEN [] ELSE [cause] END | MERGE (i)-[e:CAUSED_BY]->(n) SET e = row.rootCauseEdge)
FOREACH (n IN CASE WHEN fix IS NULL THEN [] ELSE [fix] END | MERGE (i)-[e:RESOLVED_BY]->(n) SET e = row.fixPatternEdge)
FOREACH (n IN CASE WHEN stage IS NULL THEN [] ELSE [stage] END | MERGE (i)-[e:IN_STAGE]->(n) SET e = row.stageEdge)
FOREACH (n IN CASE WHEN release IS NULL THEN [] ELSE [release] END | MERGE (i)-[:FILED_AGAINST]->(n))
FOREACH (v IN row.versions |
  MERGE (ver:Version {id: v.id})
  ON CREATE SET ver.component = v.component, ver.version = v.version
  MERGE (i)-[:REPORTS]->(ver))
