// retrieve_communities_stamp: the stamp the current communities were built for (null when there are none).
// Params: none.
OPTIONAL MATCH (k:Community)
RETURN head(collect(k.stamp)) AS stamp, count(k) AS communities
