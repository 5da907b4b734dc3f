// The text vector the graph holds under a text's key (stream-jobs Neo4jVectorStore: a replay reads it instead of
// encoding the text again). $key: the key the learned layer computed for the text.
MATCH (i:Issue {textVectorKey: $key})
WHERE i.textVector IS NOT NULL
RETURN i.textVector AS v
LIMIT 1
