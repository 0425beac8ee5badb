// resolve_redecide_find: the retired entities named by one of the short forms $cores whose merge put them
// into an entity that is still current, with the keys of both sides. Whether that merge was an automatic
// one that still stands is asked after, of the few the short-form checks keep (resolve_redecide_standing):
// asked here, of every row, it walked the holders' mentions (1,000 new mentions into 100k: 119k
// REFERS_TO edges for 4.8k rows, 0.2 s).
// Params: $cores list<string>.
UNWIND $cores AS core
MATCH (x:RetiredEntity {key_core: core})
MATCH (c:Entity {id: x.merged_into})
RETURN c.key_core AS holder_core,
       x.id AS id, x.key_core AS core, x.key_tokens AS tokens, x.norm_type AS type, x.mention_count AS mentions
ORDER BY id
