// Filing issues against releases (write/upsert-releases.cypher, write/upsert-issues.cypher): a release looks up the
// issues of its framework that report its version, and those that report none and were opened in its time span.
// Composite indexes let both be index seeks (equality on the framework, then equality or a range) instead of
// reading every issue of the framework.
CREATE INDEX issue_framework_version IF NOT EXISTS FOR (n:Issue) ON (n.framework, n.frameworkVersion);
CREATE INDEX issue_framework_created IF NOT EXISTS FOR (n:Issue) ON (n.framework, n.createdAt);
