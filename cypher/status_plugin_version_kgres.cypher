// status_plugin_version_kgres: the kgres plugin's version; fails when the plugin is not installed.
// Params: none.
RETURN kgres.version() AS version
