// schema_vector_indexes: the vector indexes kgres owns and their dimensions, to compare with settings.
// Params: none. Returns name, dimensions.
SHOW VECTOR INDEXES YIELD name, options
WHERE name IN ['entity_embedding', 'mention_embedding', 'community_embedding', 'entity_fastrp']
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
ORDER BY name
