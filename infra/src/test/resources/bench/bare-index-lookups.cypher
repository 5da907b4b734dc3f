// @name bare-index-lookups
// @description Latency baseline for similar-issues (SimilarIssuesLatency): the two index lookups alone, as
// @description similar-issues makes them (50 + 1 candidates each), with no fusion, filtering, fixes or answers.
// @param issue String  -- the issue id, owner/repo#number
// @param words String  -- the plain words of its title and body (a Lucene query without syntax characters)
// @column textHits Integer  -- candidates from the full-text index issue_text
// @column vectorHits Integer  -- candidates from the vector index issue_text_vector
MATCH (q:Issue {id: $issue})
CALL db.index.fulltext.queryNodes('issue_text', $words, {limit: 51}) YIELD node
WITH q, count(node) AS textHits
CALL db.index.vector.queryNodes('issue_text_vector', 51, q.textVector) YIELD node
RETURN textHits, count(node) AS vectorHits
