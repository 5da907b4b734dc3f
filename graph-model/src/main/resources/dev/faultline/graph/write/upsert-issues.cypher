// One row per issue: its newest known state and classification (IssueRow.toParameters()).
// Issues and releases of one framework are decided one transaction at a time: each statement first takes the write
// lock of its frameworks' nodes (in name order, so two batches cannot deadlock on them), before it reads the other
// kind. Otherwise an issue written while a newer release is being written reads the releases without it, the release
// reads the issues without this one, and the issue stays filed against the older release.
// Planned once (replan=skip): every node is found by an index seek, so the plan does not depend on the graph's
// statistics and a re-plan as the graph grows only stalls the sink (FrozenWriterPlansIT, docs/performance.md).
CYPHER replan=skip
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
MERGE (r:Repository {fullName: row.repo})
MERGE (r)-[:OF]->(f)
MERGE (i:Issue {id: row.id})
WITH i, r, row
// Newest state wins whatever the arrival order: a row older than the stored state changes nothing. Of two rows of the
// same state, a language model's (labelRank 1) wins over an offline tier's (0): a replayed offline row does not undo
// an upgrade (LabelSource).
WHERE i.stateVersion IS NULL OR i.stateVersion < row.stateVersion
   OR (i.stateVersion = row.stateVersion AND coalesce(i.labelRank, 0) <= row.labelRank)
// Label history (LabelHistory): a label whose code or version changes keeps the one it replaces and when it was given.
@history(i)
SET i.stateVersion = row.stateVersion,
    // when the graph first saw the issue (a validation sample drawn before it does not describe it)
    i.firstSeenAt = coalesce(i.firstSeenAt, datetime()),
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
    // What the similar-issues search reads beside the title and body (migration V0007): the error lines of the
    // first traceback (ErrorLines), and the reply a reader looks for first (IssueRow.Answer).
    i.errorLines = row.errorLines,
    i.answerText = row.answer.text,
    i.answerAuthor = row.answer.author,
    i.answerByMaintainer = row.answer.maintainer,
    i.answerAt = CASE WHEN row.answer IS NULL THEN null ELSE datetime({epochMillis: row.answer.at}) END,
    // Every dimension's code, confidence, evidence, source, version, <key>Probabilities and <key>Calibration (what the
    // distribution rests on: cv:<version>, confusion:<model>/<prompt>, prior:<epsilon> or human); a null removes a
    // property an earlier classification left (IssueRow.toParameters()).
    i += row.classification
// The text vector the classifier used, with its key (IssueRow.TextVector), only when the row carries one whose key
// differs from the stored one: a comment or a replay that kept the encoded text writes no vector again.
FOREACH (_ IN CASE WHEN row.textVector IS NOT NULL AND coalesce(i.textVectorKey, '') <> row.textVectorKey
                   THEN [1] ELSE [] END |
  SET i.textVector = row.textVector, i.textVectorKey = row.textVectorKey)
MERGE (i)-[:IN_REPO]->(r)
WITH i, row
CALL (i, row) {
  OPTIONAL MATCH (i)-[old:HAS_LABEL]->(gone:Label)
  WHERE NOT gone.name IN row.labels
  DELETE old
}
FOREACH (name IN row.labels |
  MERGE (l:Label {name: name})
  MERGE (i)-[:HAS_LABEL]->(l))
WITH i, row
// Re-classification replaces the classification edges: no stale HAS_SYMPTOM survives a change of symptom.
CALL (i, row) {
  OPTIONAL MATCH (i)-[old:HAS_SYMPTOM|CAUSED_BY|RESOLVED_BY|IN_STAGE|REPORTS|FILED_AGAINST|TRANSFERRED_TO]->()
  DELETE old
}
OPTIONAL MATCH (symptom:Symptom {code: row.symptomEdge.code})
OPTIONAL MATCH (cause:RootCause {code: row.rootCauseEdge.code})
OPTIONAL MATCH (fix:FixPattern {code: row.fixPatternEdge.code})
OPTIONAL MATCH (stage:Stage {code: row.stageEdge.code})
// The old edges were all deleted above, so CREATE cannot double an edge.
FOREACH (n IN CASE WHEN symptom IS NULL THEN [] ELSE [symptom] END | CREATE (i)-[e:HAS_SYMPTOM]->(n) SET e = row.symptomEdge)
FOREACH (n IN CASE WHEN cause IS NULL THEN [] ELSE [cause] END | CREATE (i)-[e:CAUSED_BY]->(n) SET e = row.rootCauseEdge)
FOREACH (n IN CASE WHEN fix IS NULL THEN [] ELSE [fix] END | CREATE (i)-[e:RESOLVED_BY]->(n) SET e = row.fixPatternEdge)
FOREACH (n IN CASE WHEN stage IS NULL THEN [] ELSE [stage] END | CREATE (i)-[e:IN_STAGE]->(n) SET e = row.stageEdge)
FOREACH (v IN row.versions |
  MERGE (ver:Version {id: v.id})
  ON CREATE SET ver.component = v.component, ver.version = v.version
  MERGE (i)-[:REPORTS]->(ver))
FOREACH (target IN CASE WHEN row.transferredTo IS NULL THEN [] ELSE [row.transferredTo] END |
  MERGE (n:Issue {id: target})
  MERGE (i)-[:TRANSFERRED_TO]->(n))
WITH i, row
// The release it reports, else the latest release of its framework published before it was opened.
CALL (i, row) {
  OPTIONAL MATCH (exact:Release {id: row.framework + '@' + row.frameworkVersion})
  CALL (exact, i, row) {
    WITH exact WHERE exact IS NULL
    MATCH (prev:Release {framework: row.framework})
    WHERE prev.publishedAt <= i.createdAt
    RETURN prev ORDER BY prev.publishedAt DESC LIMIT 1
    UNION
    WITH exact WHERE exact IS NOT NULL
    RETURN exact AS prev
  }
  MERGE (i)-[:FILED_AGAINST]->(prev)
}
