// schema_status_plugin_gds: the gds plugin's version; fails when the plugin is not installed.
// Params: none.
RETURN gds.version() AS version
