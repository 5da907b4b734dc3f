// The population a validation sample is drawn from (ValidationSamples.draw): every issue of the scope, of any kind,
// not deleted or transferred, in id order (the draw shuffles this list with its seed).
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
RETURN i.id AS id
ORDER BY id
