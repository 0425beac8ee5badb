// schema_status_plugin_apoc: the apoc plugin's version; fails when the plugin is not installed.
// Params: none.
RETURN apoc.version() AS version
