// Records that the schema migration $v (file $f) was applied (GraphSchema), once.
MERGE (m:FaultlineMigration {version: $v})
  ON CREATE SET m.file = $f, m.appliedAt = datetime()
