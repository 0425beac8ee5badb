// retrieve_communities_build: one Community node per Leiden community of at least $min_size entities, its
// members by degree; members link to it with IN_COMMUNITY. Run retrieve_communities_drop first.
// Params: $min_size int, $stamp string.
MATCH (e:Entity) WHERE e.community IS NOT NULL
WITH e, e.community AS c, COUNT { (e)-[:RELATED]-() } AS degree
ORDER BY degree DESC, e.id
WITH c, collect(e) AS members
WHERE size(members) >= $min_size
CREATE (k:Community {id: 'community:' + toString(c), stamp: $stamp, size: size(members),
                     members_top: [m IN members[0..12] | m.name]})
WITH k, members
UNWIND members AS m
CREATE (m)-[:IN_COMMUNITY]->(k)
RETURN count(DISTINCT k) AS communities
