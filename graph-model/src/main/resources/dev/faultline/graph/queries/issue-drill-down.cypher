// @name issue-drill-down
// @description One issue with everything the dashboard shows about it: its state and dates, each
// @description classification dimension with the confidence, evidence, classifier version and human-given flag of
// @description its edge (dimensions without an edge -- kind, phase, distributedSpecific, symptomClass and unknown
// @description values -- come from the issue's properties: confidence from kindConfidence, phaseConfidence,
// @description distributedSpecificConfidence, evidence from kindEvidence, symptomEvidence, ... , human-given
// @description from its humanGiven list), its labels,
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
// @column classifications List<Map>  -- {dimension, code, confidence, evidence, classifierVersion, humanGiven, fromEdge}, in dimension order kind, symptom, symptomClass, rootCause, fixPattern, stage, phase, distributedSpecific
// @column labels List<String>  -- label names, sorted
// @column versions List<String>  -- Version ids it reports, sorted
// @column release Map  -- {id, version, publishedAt} of the release it is FILED_AGAINST, or null
// @column fixes List<Map>  -- PRs that FIXES it: {id, title, url, state, merged, mergedAt, additions, deletions, changedFiles}, by id
MATCH (i:Issue {id: $issue})
WITH i, coalesce(i.humanGiven, []) AS human,
     head([(i)-[r:HAS_SYMPTOM]->(n:Symptom) | {code: n.code, edge: r}]) AS symptom,
     head([(i)-[r:CAUSED_BY]->(n:RootCause) | {code: n.code, edge: r}]) AS rootCause,
     head([(i)-[r:RESOLVED_BY]->(n:FixPattern) | {code: n.code, edge: r}]) AS fixPattern,
     head([(i)-[r:IN_STAGE]->(n:Stage) | {code: n.code, edge: r}]) AS stage
WITH i, human,
     [{dimension: 'kind', value: i.kind, confidence: i.kindConfidence, evidence: i.kindEvidence, found: null},
      {dimension: 'symptom', value: i.symptom, confidence: null, evidence: i.symptomEvidence, found: symptom},
      {dimension: 'symptomClass', value: i.symptomClass, confidence: null, evidence: null, found: null},
      {dimension: 'rootCause', value: i.rootCause, confidence: null, evidence: i.rootCauseEvidence, found: rootCause},
      {dimension: 'fixPattern', value: i.fixPattern, confidence: null, evidence: i.fixPatternEvidence,
       found: fixPattern},
      {dimension: 'stage', value: i.stage, confidence: null, evidence: i.stageEvidence, found: stage},
      {dimension: 'phase', value: i.phase, confidence: i.phaseConfidence, evidence: i.phaseEvidence, found: null},
      {dimension: 'distributedSpecific', value: toString(i.distributedSpecific),
       confidence: i.distributedSpecificConfidence, evidence: i.distributedSpecificEvidence, found: null}] AS dimensions
RETURN i.id AS id, i.repo AS repo, i.number AS number, i.title AS title, i.url AS url, i.author AS author,
       i.state AS state, i.framework AS framework, i.frameworkVersion AS frameworkVersion,
       i.createdAt AS createdAt, i.updatedAt AS updatedAt, i.closedAt AS closedAt, i.commentCount AS commentCount,
       i.transferredTo AS transferredTo, i.classifierVersion AS classifierVersion, i.classifiedAt AS classifiedAt,
       [d IN dimensions |
         CASE WHEN d.found IS NULL
           THEN {dimension: d.dimension, code: d.value, confidence: d.confidence, evidence: d.evidence,
                 classifierVersion: i.classifierVersion, humanGiven: d.dimension IN human, fromEdge: false}
           ELSE {dimension: d.dimension, code: d.found.code, confidence: d.found.edge.confidence,
                 evidence: d.found.edge.evidence, classifierVersion: d.found.edge.classifierVersion,
                 humanGiven: coalesce(d.found.edge.humanGiven, d.dimension IN human), fromEdge: true}
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
