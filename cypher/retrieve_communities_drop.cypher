// retrieve_communities_drop: remove every Community node and the community ids on entities (rebuilt when stale).
// Params: none.
CALL () { MATCH (k:Community) DETACH DELETE k }
CALL () { MATCH (e:Entity) WHERE e.community IS NOT NULL REMOVE e.community }
RETURN true AS dropped
