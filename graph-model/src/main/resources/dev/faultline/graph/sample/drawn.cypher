// A sample's size and the ids of its drawn issues (ValidationSamples.importLabels checks each labelled line against them).
MATCH (s:ValidationSample {id: $id})
OPTIONAL MATCH (s)-[:DRAWN]->(i:Issue)
RETURN s.size AS size, collect(i.id) AS ids
