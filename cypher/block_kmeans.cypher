// block_kmeans: pair each Entity in $ids with the $k members of its k-means block closest to it by
// text embedding (Deg-Rag's semantic blocks, bounded per entity).
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.kmeans_block IS NOT NULL
CALL (e) {
  MATCH (o:Entity {kmeans_block: e.kmeans_block})
  WHERE o <> e
  WITH o, vector.similarity.cosine(e.embedding, o.embedding) AS s
  RETURN o ORDER BY s DESC, o.id LIMIT $k
}
WITH CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
MERGE (a)-[c:CANDIDATE {run_id: $run_id}]->(b)
ON CREATE SET c.methods = []
SET c.methods = CASE WHEN 'kmeans' IN c.methods THEN c.methods ELSE c.methods + 'kmeans' END
