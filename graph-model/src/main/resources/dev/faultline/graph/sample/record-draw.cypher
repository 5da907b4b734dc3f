// Records a drawn sample (ValidationSamples.draw): the ValidationSample node with its scope, seed, size, population and
// time of the draw (kept from the first draw of the same id), a DRAWN edge with its order to every drawn issue; returns
// what a person needs to label each, in draw order.
MERGE (s:ValidationSample {id: $id})
  ON CREATE SET s.framework = $framework, s.from = $from, s.to = $to,
                s.seed = $seed, s.size = $size, s.population = $population,
                s.drawnAt = datetime()
WITH s
UNWIND range(0, size($ids) - 1) AS k
MATCH (i:Issue {id: $ids[k]})
MERGE (s)-[d:DRAWN]->(i)
SET d.order = k
RETURN i.id AS id, i.url AS url, i.title AS title, left(coalesce(i.body, ''), $excerpt) AS excerpt
ORDER BY d.order
