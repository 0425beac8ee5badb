// retrieve_serve_health: proof the database answers, with the entity count (count store: constant time).
// Params: none.
MATCH (e:Entity)
RETURN count(e) AS n
