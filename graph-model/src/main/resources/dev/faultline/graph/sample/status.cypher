// Every validation sample with what was drawn and labelled (ValidationSamples.status): its scope, seed, size,
// population and times; how many issues it drew; each labelled issue's labels; and how many issues of its scope the
// graph first saw after the draw (never eligible: the estimates leave them to the classifier alone).
MATCH (s:ValidationSample)
OPTIONAL MATCH (s)-[d:DRAWN]->(:Issue)
WITH s, count(d) AS drawn
OPTIONAL MATCH (s)-[r:INCLUDES]->(:Issue)
WITH s, drawn, collect(properties(r)) AS labels
CALL (s) {
  OPTIONAL MATCH (i:Issue)
  WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
    AND (s.framework IS NULL OR i.framework = s.framework)
    AND (s.from IS NULL OR i.createdAt >= s.from)
    AND (s.to IS NULL OR i.createdAt < s.to)
    AND i.firstSeenAt > s.drawnAt
  RETURN count(i) AS added
}
RETURN s.id AS id, s.framework AS framework, s.from AS from, s.to AS to, s.seed AS seed, s.size AS size,
       s.population AS population, toString(s.drawnAt) AS drawnAt, toString(s.importedAt) AS importedAt,
       drawn, labels, added
ORDER BY drawnAt, id
