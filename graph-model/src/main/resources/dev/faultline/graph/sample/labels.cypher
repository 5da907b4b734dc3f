// Every labelled issue's labels of one sample (ValidationSamples.importLabels counts them per dimension after a write).
MATCH (:ValidationSample {id: $id})-[r:INCLUDES]->(:Issue)
RETURN properties(r) AS labels
