// Taxonomy nodes come from the taxonomy resource only (rows built by TaxonomySeeder), never from data.
UNWIND $classes AS c
MERGE (n:SymptomClass {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
UNWIND $symptoms AS c
MERGE (n:Symptom {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.distributedSpecific = c.distributedSpecific, n.taxonomyVersion = $version
WITH n, c
MATCH (k:SymptomClass {code: c.symptomClass})
MERGE (n)-[:IS_A]->(k);
UNWIND $rootCauses AS c
MERGE (n:RootCause {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.group = c.group, n.taxonomyVersion = $version;
UNWIND $fixPatterns AS c
MERGE (n:FixPattern {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
UNWIND $stages AS c
MERGE (n:Stage {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
