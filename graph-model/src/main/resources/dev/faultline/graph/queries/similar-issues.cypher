// @name similar-issues
// @description Issues most like a given one (or like a text not filed yet), each with what resolved it. Two
// @description rankings are fused: Neo4j's full-text index issue_text (Lucene BM25 over title, body and the error
// @description lines of the first traceback; the query is the words of the given title, error lines and body, the
// @description title's and error lines' boosted) and the vector index issue_text_vector (cosine over the stored
// @description all-MiniLM-L6-v2 text vectors). Reciprocal rank fusion: score = sum over the two rankings of
// @description weight / (rrfK + rank), plus small boosts (not filters) for the same framework, the same predicted
// @description symptom and the same stage. Defaults chosen on judged training issues (docs/similar-issues.md).
// @description Deleted and transferred issues are left out. Resolution: fixed (a merged PR FIXES it), answered (a
// @description maintainer replied), closed or open; answer is the newest maintainer comment, else the newest
// @description reply by someone other than the reporter (answer.maintainer false).
// @param issue String = null  -- the issue id, owner/repo#number; leave it out to search by title and text
// @param title String = null  -- search by this title instead of an issue's ("find issues like this")
// @param text String = null  -- search by this text instead of an issue's body
// @param errorLines String = null  -- the error lines of that text (ErrorLines.of, computed by the caller)
// @param vector Vector = null  -- that text's vector from the pipeline's encoder; none: full text alone
// @param framework String = null  -- that text's framework, for the framework boost
// @param pastOnly Boolean = false  -- with issue: only issues opened before it (else later ones too, whose fix may be the one)
// @param limit Integer = 10  -- at most this many issues
// @param depth Integer = 50  -- candidates read from each index
// @param bodyTerms Integer = 150  -- words of the body in the full-text query, at most
// @param titleBoost Float = 2.0  -- Lucene boost of the title's words in the full-text query
// @param errorBoost Float = 2.0  -- Lucene boost of the error lines' words in the full-text query
// @param rrfK Float = 5.0  -- the fusion's rank constant
// @param textWeight Float = 1.0  -- weight of the full-text ranking in the fusion; 0 leaves the index out
// @param vectorWeight Float = 1.0  -- weight of the vector ranking in the fusion; 0 leaves the index out
// @param frameworkBoost Float = 0.06  -- added for the same framework
// @param symptomBoost Float = 0.02  -- added for the same known symptom (issue given)
// @param stageBoost Float = 0.0  -- added for the same known stage (issue given)
// @column id String  -- similar issue
// @column title String  -- its title
// @column url String  -- its GitHub page
// @column state String  -- open, closed
// @column framework String  -- its framework
// @column kind String  -- its kind
// @column symptom String  -- its symptom
// @column stage String  -- its stage
// @column rootCause String  -- its root cause
// @column fixPattern String  -- its fix pattern
// @column createdAt DateTime  -- when it was opened
// @column closedAt DateTime  -- when it was closed, null when open
// @column score Float  -- fused score, see the description
// @column textRank Integer  -- its rank in the full-text ranking (1 = first), null when not among its candidates
// @column vectorRank Integer  -- its rank in the vector ranking, null when not among its candidates
// @column errorLines String  -- the error lines of its first traceback, null when none
// @column resolution String  -- fixed, answered, closed or open
// @column fixes List<Map>  -- PRs that FIXES it: {id, title, url, state, merged, mergedAt, additions, deletions, changedFiles, changedLines, fixPattern (the PR's own label, else for a merged PR the issue's)}, merged first, newest first
// @column answer Map  -- {author, maintainer, at, text} of the reply described above, null when none
OPTIONAL MATCH (q:Issue {id: $issue})
WITH q
WHERE q IS NOT NULL OR ($issue IS NULL AND ($text IS NOT NULL OR $title IS NOT NULL))
WITH q,
     CASE WHEN q IS NULL THEN coalesce($title, '') ELSE coalesce(q.title, '') END AS title,
     CASE WHEN q IS NULL THEN coalesce($text, '') ELSE coalesce(q.body, '') END AS body,
     CASE WHEN q IS NULL THEN coalesce($errorLines, '') ELSE coalesce(q.errorLines, '') END AS errorLines,
     CASE WHEN q IS NULL THEN $vector ELSE q.textVector END AS vector,
     CASE WHEN q IS NULL THEN $framework ELSE q.framework END AS framework,
     // Lucene's query syntax characters (and separators) become spaces, so any text is a plain list of words.
     ['\\', '+', '-', '&', '|', '!', '(', ')', '{', '}', '[', ']', '^', '"', '~', '*', '?', ':', '/', '\n', '\r',
      '\t', ',', ';', '\'', '`', '<', '>', '=', '#', '@', '$', '%'] AS specials
WITH q, vector, framework,
     [part IN [title, errorLines, body] |
       reduce(ws = [], w IN split(reduce(t = toLower(part), s IN specials | replace(t, s, ' ')), ' ') |
         CASE WHEN size(w) >= 2 AND size(w) <= 40 AND NOT w IN ws THEN ws + w ELSE ws END)] AS words
WITH q, vector, framework,
     words[0] AS titleWords, words[1] AS errorWords, words[2][..$bodyTerms] AS bodyWords
WITH q, vector, framework,
     trim(
       CASE WHEN size(titleWords) = 0 THEN ''
            ELSE '(' + reduce(s = '', w IN titleWords | s + ' ' + w) + ')^' + toString($titleBoost) END
       + ' ' +
       CASE WHEN size(errorWords) = 0 THEN ''
            ELSE '(' + reduce(s = '', w IN errorWords | s + ' ' + w) + ')^' + toString($errorBoost) END
       + ' ' + reduce(s = '', w IN bodyWords | s + ' ' + w)) AS lucene
CALL (lucene) {
  WITH lucene WHERE lucene <> '' AND $textWeight > 0
  CALL db.index.fulltext.queryNodes('issue_text', lucene, {limit: $depth + 1}) YIELD node
  RETURN collect(node) AS textHits
}
CALL (vector) {
  WITH vector WHERE vector IS NOT NULL AND $vectorWeight > 0
  CALL db.index.vector.queryNodes('issue_text_vector', $depth + 1, vector) YIELD node
  RETURN collect(node) AS vectorHits
}
// Left out before ranking: the issue itself, deleted and transferred issues, and later ones when pastOnly.
WITH q, framework,
     [n IN textHits WHERE (q IS NULL OR n <> q) AND coalesce(n.state, '') <> 'deleted' AND n.transferredTo IS NULL
        AND (q IS NULL OR NOT $pastOnly OR n.createdAt < q.createdAt)][..$depth] AS textRanked,
     [n IN vectorHits WHERE (q IS NULL OR n <> q) AND coalesce(n.state, '') <> 'deleted' AND n.transferredTo IS NULL
        AND (q IS NULL OR NOT $pastOnly OR n.createdAt < q.createdAt)][..$depth] AS vectorRanked
UNWIND textRanked + vectorRanked AS c
WITH DISTINCT q, framework, textRanked, vectorRanked, c
WITH q, framework, c,
     head([k IN range(0, size(textRanked) - 1) WHERE textRanked[k] = c]) AS textRank,
     head([k IN range(0, size(vectorRanked) - 1) WHERE vectorRanked[k] = c]) AS vectorRank
WITH c, textRank, vectorRank,
     coalesce($textWeight / ($rrfK + textRank + 1), 0.0)
     + coalesce($vectorWeight / ($rrfK + vectorRank + 1), 0.0)
     + CASE WHEN framework IS NOT NULL AND c.framework = framework THEN $frameworkBoost ELSE 0.0 END
     + CASE WHEN q IS NOT NULL AND c.symptom = q.symptom AND NOT q.symptom IN ['UNKNOWN', 'NONE']
            THEN $symptomBoost ELSE 0.0 END
     + CASE WHEN q IS NOT NULL AND c.stage = q.stage AND q.stage <> 'UNKNOWN' THEN $stageBoost ELSE 0.0 END
       AS score
ORDER BY score DESC, c.id
LIMIT $limit
WITH c, textRank, vectorRank, score,
     COLLECT {
       MATCH (pr:PullRequest)-[:FIXES]->(c)
       WITH pr ORDER BY coalesce(pr.merged, false) DESC, pr.mergedAt DESC, pr.id
       RETURN pr {.id, .title, .url, .state, .merged, .mergedAt, .additions, .deletions, .changedFiles,
                  changedLines: CASE WHEN pr.additions IS NULL THEN null ELSE pr.additions + coalesce(pr.deletions, 0) END,
                  fixPattern: CASE WHEN coalesce(pr.fixPattern, 'UNKNOWN') <> 'UNKNOWN' THEN pr.fixPattern
                                   WHEN pr.merged THEN c.fixPattern END}
     } AS fixes
RETURN c.id AS id, c.title AS title, c.url AS url, c.state AS state, c.framework AS framework, c.kind AS kind,
       c.symptom AS symptom, c.stage AS stage, c.rootCause AS rootCause, c.fixPattern AS fixPattern,
       c.createdAt AS createdAt, c.closedAt AS closedAt, round(score, 6) AS score,
       textRank + 1 AS textRank, vectorRank + 1 AS vectorRank, c.errorLines AS errorLines,
       CASE WHEN any(f IN fixes WHERE f.merged) THEN 'fixed'
            WHEN c.answerByMaintainer THEN 'answered'
            WHEN c.state = 'closed' THEN 'closed'
            ELSE 'open' END AS resolution,
       fixes,
       CASE WHEN c.answerText IS NULL THEN null
            ELSE {author: c.answerAuthor, maintainer: c.answerByMaintainer, at: c.answerAt, text: c.answerText}
       END AS answer
