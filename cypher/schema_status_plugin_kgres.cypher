// schema_status_plugin_kgres: the kgres plugin's version; fails when the plugin is not installed.
// Params: none.
RETURN kgres.version() AS version
