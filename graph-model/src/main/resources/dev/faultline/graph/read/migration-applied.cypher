// Whether the schema migration $v (its file's version, e.g. V0003) was applied to this database (GraphSchema).
MATCH (m:FaultlineMigration {version: $v})
RETURN count(m) > 0 AS done
