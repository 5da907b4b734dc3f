// Taxonomy nodes come from the taxonomy resource only, never from data: $nodes has one row per code of every
// dimension with taxonomy nodes (built by TaxonomySeeder: its node label, and for a code with a parent, the parent's
// code and label, e.g. a symptom's symptom class).
UNWIND $nodes AS c
MERGE (n:$(c.label) {code: c.code})
SET n.name = c.name, n.definition = c.definition, n.taxonomyVersion = $version,
    n.group = c.group, n.distributedSpecific = c.distributedSpecific;
UNWIND [c IN $nodes WHERE c.parent IS NOT NULL] AS c
MERGE (n:$(c.label) {code: c.code})
MERGE (k:$(c.parentLabel) {code: c.parent})
MERGE (n)-[:IS_A]->(k);
