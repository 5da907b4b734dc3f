// Indexes the read side leans on: the dashboard's change marker and open-bug ages.
CREATE INDEX issue_state_version IF NOT EXISTS FOR (n:Issue) ON (n.stateVersion);
CREATE INDEX issue_state_kind IF NOT EXISTS FOR (n:Issue) ON (n.state, n.kind);
