// Provenance of labels (issue #19): every issue records the tier that labelled it (labelSource: rules, model or
// llm:<model>), the prompt version of a language model's labels, a rank (a language model's row wins over an
// offline row of the same state) and each dimension's own source (human when a GitHub label set it); every
// classification edge carries its source. The index lets users count what each tier labelled.
CREATE INDEX issue_label_source IF NOT EXISTS FOR (n:Issue) ON (n.labelSource);
// Issues written before this migration were labelled by an offline tier: derive their provenance from their
// classifier version, in batches so a large graph is not rewritten in one transaction.
MATCH (i:Issue)
WHERE i.labelSource IS NULL AND i.classifierVersion IS NOT NULL
CALL (i) {
  WITH i, CASE WHEN i.classifierVersion STARTS WITH 'rules' THEN 'rules' ELSE 'model' END AS tier,
       coalesce(i.humanGiven, []) AS human
  SET i.labelSource = tier,
      i.labelRank = 0,
      i.kindSource = CASE WHEN 'kind' IN human THEN 'human' ELSE tier END,
      i.symptomSource = CASE WHEN 'symptom' IN human THEN 'human' ELSE tier END,
      i.rootCauseSource = CASE WHEN 'rootCause' IN human THEN 'human' ELSE tier END,
      i.fixPatternSource = CASE WHEN 'fixPattern' IN human THEN 'human' ELSE tier END,
      i.stageSource = CASE WHEN 'stage' IN human THEN 'human' ELSE tier END,
      i.phaseSource = CASE WHEN 'phase' IN human THEN 'human' ELSE tier END,
      i.distributedSpecificSource = CASE WHEN 'distributedSpecific' IN human THEN 'human' ELSE tier END
} IN TRANSACTIONS OF 5000 ROWS;
MATCH (:Issue)-[e:HAS_SYMPTOM|CAUSED_BY|RESOLVED_BY|IN_STAGE]->()
WHERE e.source IS NULL
CALL (e) {
  SET e.source = CASE
    WHEN e.humanGiven THEN 'human'
    WHEN e.classifierVersion STARTS WITH 'rules' THEN 'rules'
    ELSE 'model' END
} IN TRANSACTIONS OF 5000 ROWS;
