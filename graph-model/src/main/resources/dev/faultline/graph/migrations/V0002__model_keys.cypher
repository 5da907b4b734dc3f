// Keys of the rest of the model (graph-model/README.md) and the indexes the query library filters on.
CREATE CONSTRAINT pull_request_id IF NOT EXISTS FOR (n:PullRequest) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT release_id IF NOT EXISTS FOR (n:Release) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT version_id IF NOT EXISTS FOR (n:Version) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT symptom_code IF NOT EXISTS FOR (n:Symptom) REQUIRE n.code IS UNIQUE;
CREATE CONSTRAINT symptom_class_code IF NOT EXISTS FOR (n:SymptomClass) REQUIRE n.code IS UNIQUE;
CREATE CONSTRAINT root_cause_code IF NOT EXISTS FOR (n:RootCause) REQUIRE n.code IS UNIQUE;
CREATE CONSTRAINT fix_pattern_code IF NOT EXISTS FOR (n:FixPattern) REQUIRE n.code IS UNIQUE;
CREATE CONSTRAINT stage_code IF NOT EXISTS FOR (n:Stage) REQUIRE n.code IS UNIQUE;
CREATE CONSTRAINT category_count_id IF NOT EXISTS FOR (n:CategoryCount) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT alert_id IF NOT EXISTS FOR (n:Alert) REQUIRE n.id IS UNIQUE;
CREATE INDEX issue_framework IF NOT EXISTS FOR (n:Issue) ON (n.framework);
CREATE INDEX issue_kind IF NOT EXISTS FOR (n:Issue) ON (n.kind);
CREATE INDEX issue_symptom IF NOT EXISTS FOR (n:Issue) ON (n.symptom);
CREATE INDEX issue_stage IF NOT EXISTS FOR (n:Issue) ON (n.stage);
CREATE INDEX release_framework_published IF NOT EXISTS FOR (n:Release) ON (n.framework, n.publishedAt);
CREATE INDEX category_count_lookup IF NOT EXISTS FOR (n:CategoryCount) ON (n.framework, n.dimension, n.window);
CREATE INDEX alert_raised_at IF NOT EXISTS FOR (n:Alert) ON (n.raisedAt);
