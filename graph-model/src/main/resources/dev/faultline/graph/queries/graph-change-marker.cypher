// @name graph-change-marker
// @description What changes whenever the pipeline or the statistics job writes: counts of issues, pull requests,
// @description releases and alerts, the newest issue state version and classification time, the newest alert.
// @description Polled by the dashboard to tell open pages that the data changed. One row.
// @column issues Integer  -- Issue nodes
// @column newestStateVersion Integer  -- largest Issue.stateVersion (epoch millis of the newest event folded in)
// @column newestClassifiedAt DateTime  -- latest Issue.classifiedAt
// @column pullRequests Integer  -- PullRequest nodes
// @column releases Integer  -- Release nodes
// @column alerts Integer  -- Alert nodes
// @column newestAlertAt DateTime  -- latest Alert.raisedAt
CALL () {
  MATCH (i:Issue)
  RETURN count(i) AS issues, max(i.stateVersion) AS newestStateVersion, max(i.classifiedAt) AS newestClassifiedAt
}
CALL () {
  MATCH (a:Alert)
  RETURN count(a) AS alerts, max(a.raisedAt) AS newestAlertAt
}
RETURN issues, newestStateVersion, newestClassifiedAt,
       COUNT { MATCH (p:PullRequest) } AS pullRequests,
       COUNT { MATCH (r:Release) } AS releases,
       alerts, newestAlertAt
