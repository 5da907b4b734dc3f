// Text vectors (issue #26): every issue the learned classifier labelled keeps the vector it used (textVector, 384
// floats stored as doubles, exact) under textVectorKey, the SHA-256 of the encoder's name, its numeric fingerprint
// and the word pieces it read. A replay of history (faultline reclassify) looks vectors up by key before calling the
// encoder; this index makes that lookup one index seek. The same vectors are what a similarity search over issues
// ("similar issues by meaning", Neo4j's vector index) would be built on.
CREATE INDEX issue_text_vector_key IF NOT EXISTS FOR (n:Issue) ON (n.textVectorKey);
