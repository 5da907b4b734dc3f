// @name similar-issues
// @description Past issues most like a given one, with the PRs that FIXES them. Candidates share its symptom or
// @description its stage (classification edges). Score = 3 same symptom + 2 same stage + 2 same root cause
// @description + 1 same framework + 1 per shared label + 1 per shared reported version + 1 per shared title word
// @description (lower-cased, 4+ letters, common words left out). Ties: issues with fixes first, then newest.
// @param issue String  -- the issue id, owner/repo#number (required)
// @param pastOnly Boolean = true  -- only issues opened before this one
// @param limit Integer = 10  -- at most this many issues
// @column id String  -- similar issue
// @column title String  -- its title
// @column url String  -- its GitHub page
// @column state String  -- open, closed
// @column framework String  -- its framework
// @column symptom String  -- its symptom
// @column stage String  -- its stage
// @column rootCause String  -- its root cause
// @column fixPattern String  -- its fix pattern
// @column createdAt DateTime  -- when it was opened
// @column score Integer  -- similarity score, see the description
// @column sharedLabels List<String>  -- label names both have, sorted
// @column sharedVersions List<String>  -- Version ids both report, sorted
// @column sharedTitleWords List<String>  -- title words both have, in the order of the given issue's title
// @column fixes List<Map>  -- PRs that FIXES it: {id, title, url, merged, mergedAt, additions, deletions}, by id
MATCH (i:Issue {id: $issue})
WITH i,
     ['with', 'when', 'after', 'from', 'that', 'this', 'does', 'doesn', 'not', 'using', 'while', 'have', 'into',
      'for', 'the', 'and', 'bug', 'issue', 'error', 'fails', 'failed', 'failure', 'question', 'help', 'support',
      'cannot', 'can\'t', 'should', 'about', 'there', 'then', 'than', 'what', 'which', 'will', 'been'] AS stop,
     [',', '.', ':', ';', '(', ')', '[', ']', '{', '}', '"', '\'', '`', '!', '?', '/', '\\', '=', '<', '>', '|', '*']
       AS punctuation
WITH i, stop, punctuation,
     COLLECT { MATCH (i)-[:HAS_LABEL]->(l:Label) RETURN l.name AS name ORDER BY name } AS labels,
     COLLECT { MATCH (i)-[:REPORTS]->(v:Version) RETURN v.id AS vid ORDER BY vid } AS versions,
     reduce(t = toLower(coalesce(i.title, '')), p IN punctuation | replace(t, p, ' ')) AS cleanTitle
WITH i, stop, punctuation, labels, versions,
     reduce(ws = [], w IN split(cleanTitle, ' ') |
       CASE WHEN size(w) >= 4 AND NOT w IN stop AND NOT w IN ws THEN ws + w ELSE ws END) AS words
CALL (i) {
  MATCH (i)-[:HAS_SYMPTOM]->(:Symptom)<-[:HAS_SYMPTOM]-(c:Issue)
  RETURN c
  UNION
  MATCH (i)-[:IN_STAGE]->(:Stage)<-[:IN_STAGE]-(c:Issue)
  RETURN c
}
WITH i, stop, punctuation, labels, versions, words, c
WHERE c <> i AND c.state <> 'deleted' AND c.transferredTo IS NULL
  AND (NOT $pastOnly OR c.createdAt < i.createdAt)
WITH i, c,
     [l IN labels WHERE EXISTS { (c)-[:HAS_LABEL]->(:Label {name: l}) }] AS sharedLabels,
     [v IN versions WHERE EXISTS { (c)-[:REPORTS]->(:Version {id: v}) }] AS sharedVersions,
     [w IN words WHERE w IN split(reduce(t = toLower(coalesce(c.title, '')), p IN punctuation | replace(t, p, ' ')), ' ')]
       AS sharedTitleWords
WITH c, sharedLabels, sharedVersions, sharedTitleWords,
     CASE WHEN c.symptom = i.symptom AND NOT i.symptom IN ['UNKNOWN', 'NONE'] THEN 3 ELSE 0 END
     + CASE WHEN c.stage = i.stage AND i.stage <> 'UNKNOWN' THEN 2 ELSE 0 END
     + CASE WHEN c.rootCause = i.rootCause AND i.rootCause <> 'UNKNOWN' THEN 2 ELSE 0 END
     + CASE WHEN c.framework = i.framework THEN 1 ELSE 0 END
     + size(sharedLabels) + size(sharedVersions) + size(sharedTitleWords) AS score,
     EXISTS { (:PullRequest)-[:FIXES]->(c) } AS hasFix
ORDER BY score DESC, hasFix DESC, c.createdAt DESC, c.id
LIMIT $limit
RETURN c.id AS id, c.title AS title, c.url AS url, c.state AS state, c.framework AS framework,
       c.symptom AS symptom, c.stage AS stage, c.rootCause AS rootCause, c.fixPattern AS fixPattern,
       c.createdAt AS createdAt, score, sharedLabels, sharedVersions, sharedTitleWords,
       COLLECT {
         MATCH (pr:PullRequest)-[:FIXES]->(c)
         WITH pr ORDER BY pr.id
         RETURN pr {.id, .title, .url, .merged, .mergedAt, .additions, .deletions}
       } AS fixes
