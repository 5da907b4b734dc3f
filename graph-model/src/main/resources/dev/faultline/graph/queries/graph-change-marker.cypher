// @name graph-change-marker
// @description What changes whenever the pipeline or the statistics job writes: counts of issues, pull requests,
// @description releases and alerts, the newest issue state version and classification time, the newest alert.
// @description Polled by the dashboard to tell open pages that the data changed. One row.
// @column issues Integer  -- Issue nodes
// @column newestStateVersion Integer  -- largest Issue.stateVersion (epoch millis of the newest event folded in)
// @column newestClassifiedAt DateTime  -- classification time of the issue with the newest state
// @column pullRequests Integer  -- PullRequest nodes
// @column releases Integer  -- Release nodes
// @column alerts Integer  -- Alert nodes
// @column newestAlertAt DateTime  -- latest Alert.raisedAt
// @column withdrawnAlerts Integer  -- Alert nodes taken back by a revision
// Index-backed (issue_state_version): polled every few seconds, it must not scan every issue.
CALL () {
  OPTIONAL MATCH (i:Issue)
  WHERE i.stateVersion IS NOT NULL
  WITH i ORDER BY i.stateVersion DESC LIMIT 1
  RETURN i.stateVersion AS newestStateVersion, i.classifiedAt AS newestClassifiedAt
}
CALL () {
  MATCH (i:Issue)
  RETURN count(i) AS issues
}
CALL () {
  MATCH (a:Alert)
  RETURN count(a) AS alerts, max(a.raisedAt) AS newestAlertAt, count(CASE WHEN a.withdrawn THEN 1 END) AS withdrawnAlerts
}
RETURN issues, newestStateVersion, newestClassifiedAt,
       COUNT { MATCH (p:PullRequest) } AS pullRequests,
       COUNT { MATCH (r:Release) } AS releases,
       alerts, newestAlertAt, withdrawnAlerts
