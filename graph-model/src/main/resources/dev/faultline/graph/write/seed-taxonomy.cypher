// Taxonomy nodes come from the taxonomy resource only (rows built by TaxonomySeeder: $<dimension key>Codes for every dimension with taxonomy nodes), never from data.
UNWIND $symptomClassCodes AS c
MERGE (n:SymptomClass {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
UNWIND $symptomCodes AS c
MERGE (n:Symptom {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.distributedSpecific = c.distributedSpecific, n.taxonomyVersion = $version
WITH n, c
MATCH (k:SymptomClass {code: c.symptomClass})
MERGE (n)-[:IS_A]->(k);
UNWIND $rootCauseCodes AS c
MERGE (n:RootCause {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.group = c.group, n.taxonomyVersion = $version;
UNWIND $fixPatternCodes AS c
MERGE (n:FixPattern {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
UNWIND $stageCodes AS c
MERGE (n:Stage {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version;
