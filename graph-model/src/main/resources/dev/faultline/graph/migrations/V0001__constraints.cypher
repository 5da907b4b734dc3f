// Keys every MERGE relies on. Uniqueness constraints also index the key.
CREATE CONSTRAINT issue_id IF NOT EXISTS FOR (n:Issue) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT repository_full_name IF NOT EXISTS FOR (n:Repository) REQUIRE n.fullName IS UNIQUE;
CREATE CONSTRAINT framework_name IF NOT EXISTS FOR (n:Framework) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT label_name IF NOT EXISTS FOR (n:Label) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT migration_version IF NOT EXISTS FOR (n:FaultlineMigration) REQUIRE n.version IS UNIQUE;
CREATE INDEX issue_created_at IF NOT EXISTS FOR (n:Issue) ON (n.createdAt);
CREATE INDEX issue_state IF NOT EXISTS FOR (n:Issue) ON (n.state);
