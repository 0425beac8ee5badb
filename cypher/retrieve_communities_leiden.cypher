// retrieve_communities_leiden: GDS Leiden communities of the resolved graph (active relations, weighted),
// seeded and single-threaded so a rebuild gives the same communities; written as Entity.community.
// Params: $graph string (from retrieve_project), $seed int.
CALL gds.leiden.write($graph, {writeProperty: 'community', randomSeed: $seed, concurrency: 1,
                               relationshipWeightProperty: 'weight'})
YIELD communityCount, modularity
RETURN communityCount AS communities, modularity
