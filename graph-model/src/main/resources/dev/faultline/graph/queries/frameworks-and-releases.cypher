// @name frameworks-and-releases
// @description Every framework with how many issues it has and its releases, newest first: the choices of the
// @description dashboard's framework and release filters. One row per framework.
// @param framework String = null  -- only this framework; null = every framework
// @column framework String  -- framework name
// @column issues Integer  -- issues of the framework (deleted and transferred-away ones included)
// @column releases List<Map>  -- {id, version, publishedAt, prerelease}, newest first
MATCH (f:Framework)
WHERE $framework IS NULL OR f.name = $framework
RETURN f.name AS framework,
       COUNT { MATCH (i:Issue) WHERE i.framework = f.name } AS issues,
       COLLECT {
         MATCH (r:Release)-[:OF]->(f)
         WITH r ORDER BY r.publishedAt DESC, r.version DESC
         RETURN r {.id, .version, .publishedAt, .prerelease}
       } AS releases
ORDER BY framework
