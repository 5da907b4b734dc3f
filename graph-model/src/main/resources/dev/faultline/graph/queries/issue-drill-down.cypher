// @name issue-drill-down
// @description One issue with everything the dashboard shows about it: its state and dates, each
// @description classification dimension with the confidence, evidence, classifier version and human-given flag of
// @description its edge (dimensions without an edge and unknown values come from the issue's properties:
// @description confidence from <key>Confidence for a dimension without an edge, evidence from <key>Evidence,
// @description human-given from its humanGiven list), each label's provenance (its source: rules, model,
// @description llm:<model> or human; the version that gave it, <key>Version, on data written before per-label
// @description versions the issue's classifierVersion, human for a person's label; when it was given, <key>LabelledAt,
// @description null when not recorded; the symptom class's are its symptom's), its labels,
// @description reported versions, the release it is filed against and the PRs that FIXES it. No row when the id
// @description is unknown.
// @param issue String  -- the issue id, owner/repo#number (required)
// @column id String  -- issue id
// @column repo String  -- owner/repo
// @column number Integer  -- issue number
// @column title String  -- title
// @column url String  -- GitHub page
// @column author String  -- login of the reporter
// @column state String  -- open, closed or deleted
// @column framework String  -- framework
// @column frameworkVersion String  -- framework version reported
// @column createdAt DateTime  -- opened
// @column updatedAt DateTime  -- last updated on GitHub
// @column closedAt DateTime  -- closed, null when open
// @column commentCount Integer  -- comments
// @column transferredTo String  -- new id when transferred, else null
// @column classifierVersion String  -- classifier that produced the classification
// @column classifiedAt DateTime  -- when it was classified
// @column labelSource String  -- the tier that gave the issue's classification: rules, model or llm:<model>
// @column promptVersion String  -- the prompt version of a language model's classification, else null
// @column classifications List<Map>  -- {dimension, code, confidence, evidence, classifierVersion, humanGiven, fromEdge, source, version, labelledAt}, in Dimension order ($allDimensions, supplied by the library)
// @column labels List<String>  -- label names, sorted
// @column versions List<String>  -- Version ids it reports, sorted
// @column release Map  -- {id, version, publishedAt} of the release it is FILED_AGAINST, or null
// @column fixes List<Map>  -- PRs that FIXES it: {id, title, url, state, merged, mergedAt, additions, deletions, changedFiles}, by id
MATCH (i:Issue {id: $issue})
WITH i, coalesce(i.humanGiven, []) AS human
WITH i, human,
     [d IN $allDimensions |
       {dimension: d.key,
        value: CASE WHEN d.flag THEN toString(i[d.property]) ELSE i[d.property] END,
        confidence: CASE WHEN d.edgeType IS NULL THEN i[d.confidenceProperty] END,
        evidence: i[d.evidenceProperty],
        found: CASE WHEN d.edgeType IS NOT NULL
                 THEN head([(i)-[r]->(n) WHERE type(r) = d.edgeType | {code: n.code, edge: r}]) END,
        source: coalesce(i[d.sourceProperty],
                         CASE WHEN i.classifierVersion IS NULL THEN null
                              WHEN d.labelKey IN human THEN 'human' ELSE i.labelSource END),
        version: i[d.versionProperty],
        labelledAt: i[d.labelledAtProperty]}]
     AS dimensions
WITH i, human,
     [d IN dimensions |
       d {.*, version: coalesce(d.version, CASE WHEN d.source = 'human' THEN 'human' ELSE i.classifierVersion END)}]
     AS dimensions
RETURN i.id AS id, i.repo AS repo, i.number AS number, i.title AS title, i.url AS url, i.author AS author,
       i.state AS state, i.framework AS framework, i.frameworkVersion AS frameworkVersion,
       i.createdAt AS createdAt, i.updatedAt AS updatedAt, i.closedAt AS closedAt, i.commentCount AS commentCount,
       i.transferredTo AS transferredTo, i.classifierVersion AS classifierVersion, i.classifiedAt AS classifiedAt,
       i.labelSource AS labelSource, i.promptVersion AS promptVersion,
       [d IN dimensions |
         CASE WHEN d.found IS NULL
           THEN {dimension: d.dimension, code: d.value, confidence: d.confidence, evidence: d.evidence,
                 classifierVersion: i.classifierVersion, humanGiven: d.dimension IN human, fromEdge: false,
                 source: d.source, version: d.version, labelledAt: d.labelledAt}
           ELSE {dimension: d.dimension, code: d.found.code, confidence: d.found.edge.confidence,
                 evidence: d.found.edge.evidence, classifierVersion: d.found.edge.classifierVersion,
                 humanGiven: coalesce(d.found.edge.humanGiven, d.dimension IN human), fromEdge: true,
                 source: d.source, version: d.version, labelledAt: d.labelledAt}
         END] AS classifications,
       COLLECT { MATCH (i)-[:HAS_LABEL]->(l:Label) RETURN l.name AS name ORDER BY name } AS labels,
       COLLECT { MATCH (i)-[:REPORTS]->(v:Version) RETURN v.id AS vid ORDER BY vid } AS versions,
       head(COLLECT {
         MATCH (i)-[:FILED_AGAINST]->(r:Release)
         RETURN r {.id, .version, .publishedAt}
       }) AS release,
       COLLECT {
         MATCH (pr:PullRequest)-[:FIXES]->(i)
         WITH pr ORDER BY pr.id
         RETURN pr {.id, .title, .url, .state, .merged, .mergedAt, .additions, .deletions, .changedFiles}
       } AS fixes
