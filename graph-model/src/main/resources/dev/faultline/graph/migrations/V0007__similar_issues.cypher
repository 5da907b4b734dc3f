// Similar issues by text and meaning (issue #35, query similar-issues). A full-text (Lucene) index over each issue's
// title, body and the error lines of its first traceback (errorLines, written by upsert-issues from ErrorLines), and
// a vector index over the text vectors the learned layer stores (textVector, V0006: 384 floats of all-MiniLM-L6-v2,
// cosine). Both are updated by the writes that change those properties, in the writing transaction (the full-text
// index is not eventually consistent), so a new or edited issue is found as soon as its write commits. The analyzer
// was chosen on the training issues (docs/similar-issues.md).
CREATE FULLTEXT INDEX issue_text IF NOT EXISTS FOR (n:Issue) ON EACH [n.title, n.body, n.errorLines]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
CREATE VECTOR INDEX issue_text_vector IF NOT EXISTS FOR (n:Issue) ON n.textVector
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
// A graph that already holds issues fills both indexes now: wait until they are online, so the first query after a
// migration does not fail on an index still being populated.
CALL db.awaitIndexes(600);
