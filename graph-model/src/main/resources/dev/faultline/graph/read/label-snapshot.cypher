// The labels of the issues in scope, for a relabelling's snapshot (infra relabel.LabelSnapshots): each issue's url,
// framework and classifier version, and the value of every property $properties names (each dimension's code,
// version, time and previous label, taken from Dimension), in that order. Not properties(i), which would also read
// the issue's text vector (384 numbers) and its other lists. $framework, $since, $until (ISO instants): null = any.
MATCH (i:Issue)
WHERE i.url IS NOT NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($since IS NULL OR i.createdAt >= datetime($since))
  AND ($until IS NULL OR i.createdAt < datetime($until))
RETURN i.url AS url, i.framework AS framework, i.classifierVersion AS classifierVersion,
       [k IN $properties | i[k]] AS values
ORDER BY i.url
