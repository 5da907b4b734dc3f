// The pull requests in a relabelling's scope (infra relabel.LabelSnapshots): how many the graph holds by their
// repository's framework and creation time, and how many of them are merged (those the classifier labels).
// $framework, $since, $until (ISO instants): null = any.
MATCH (p:PullRequest)
WHERE p.createdAt IS NOT NULL
  AND ($since IS NULL OR p.createdAt >= datetime($since))
  AND ($until IS NULL OR p.createdAt < datetime($until))
  AND ($framework IS NULL OR EXISTS { (p)-[:IN_REPO]->(:Repository)-[:OF]->(:Framework {name: $framework}) })
RETURN count(p) AS n, count(CASE WHEN p.merged THEN 1 END) AS merged
