// schema_status_versions: version of the Neo4j server and its edition. Plugin versions are asked separately
// (status_plugin_version_*) because a server without a plugin fails the whole statement.
// Params: none.
CALL dbms.components() YIELD name, versions, edition
RETURN versions[0] AS neo4j, edition
