// @name label-sources
// @description The mix of label sources in a scope: the labels of the issues in the filters (the dashboard view's),
// @description counted by dimension, source (rules, model, llm:<model> or human: a GitHub label) and the version that
// @description gave them. Per label, as the issue records it: <key>Source, <key>Version and <key>LabelledAt; on data
// @description written before per-label versions the version is the issue's classifierVersion (human for a person's
// @description label). Every labelled dimension (not the symptom class, whose label is its symptom's), in Dimension
// @description order, then most labels first. Deleted, transferred-away and unclassified issues are left out.
// @param framework String = null  -- framework name; null = every framework
// @param from DateTime = null  -- issues opened at or after this instant; null = from the start
// @param to DateTime = null  -- issues opened before this instant; null = up to now
// @param release String = null  -- only issues FILED_AGAINST this release, framework@version; null = any
// @param kind String = null  -- only issues of this kind (e.g. BUG); null = every kind
// @param dimension Dimension = null  -- only this dimension's labels (symptomClass: the symptom's); null = every labelled dimension
// @param minConfidence Confidence = default  -- the bar of the labelled column: 0..1, all (= 0), calibrated or default
// @column dimension String  -- dimension key
// @column source String  -- rules, model, llm:<model> or human (unknown when the issue records none)
// @column version String  -- the version that gave the labels (llm:<model>/<prompt> for a language model's, human for a person's)
// @column labels Integer  -- labels of the dimension in scope from this source and version
// @column share Float  -- labels / the dimension's labels in scope, 4 decimals
// @column labelled Integer  -- of those, labels that pass minConfidence
// @column coverage Float  -- labelled / labels, 4 decimals
// @column firstLabelledAt DateTime  -- earliest <key>LabelledAt among them, null when none is recorded
// @column lastLabelledAt DateTime  -- latest <key>LabelledAt among them, null when none is recorded
MATCH (i:Issue)
WHERE i.state <> 'deleted' AND i.transferredTo IS NULL AND i.classifierVersion IS NOT NULL
  AND ($framework IS NULL OR i.framework = $framework)
  AND ($kind IS NULL OR i.kind = $kind)
  AND ($from IS NULL OR i.createdAt >= $from)
  AND ($to IS NULL OR i.createdAt < $to)
  AND ($release IS NULL OR EXISTS { (i)-[:FILED_AGAINST]->(:Release {id: $release}) })
WITH i, coalesce(i.humanGiven, []) AS human
UNWIND [k IN range(0, size($allDimensions) - 1)
        WHERE $allDimensions[k].labelled
          AND ($dimension IS NULL
               OR $allDimensions[k].key IN [x IN $allDimensions WHERE x.key = $dimension | x.labelKey]) |
        {index: k, d: $allDimensions[k]}] AS entry
WITH i, human, entry.index AS index, entry.d AS d
WITH i, index, d,
     coalesce(i[d.sourceProperty], CASE WHEN d.key IN human THEN 'human' ELSE i.labelSource END, 'unknown')
     AS source
WITH i, index, d, source,
     coalesce(i[d.versionProperty], CASE WHEN source = 'human' THEN 'human' ELSE i.classifierVersion END) AS version
WITH index, d.key AS dimension, source, version,
     count(*) AS labels,
     count(CASE WHEN @passes(i, d.key) THEN 1 END) AS labelled,
     min(i[d.labelledAtProperty]) AS firstLabelledAt,
     max(i[d.labelledAtProperty]) AS lastLabelledAt
WITH index, dimension,
     collect({source: source, version: version, labels: labels, labelled: labelled,
              firstLabelledAt: firstLabelledAt, lastLabelledAt: lastLabelledAt}) AS groups,
     sum(labels) AS total
UNWIND groups AS g
RETURN dimension, g.source AS source, g.version AS version, g.labels AS labels,
       round(toFloat(g.labels) / total, 4) AS share,
       g.labelled AS labelled,
       round(toFloat(g.labelled) / g.labels, 4) AS coverage,
       g.firstLabelledAt AS firstLabelledAt, g.lastLabelledAt AS lastLabelledAt
ORDER BY index, labels DESC, source, version
