// resolve_embed_copies_held: those of the keyed entities in $ids (an increment's new entities) whose
// identical-name key (key_core, norm_type, key_gender, as resolve_collapse_keys_focus groups them) an entity
// outside $ids carries: the collapse merges them into the copy the graph had, so their texts are not
// encoded ahead (kgres.resolve.embed.encode_ahead; 100 new generated mentions: some 80 of 100).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL AND e.key_core <> ''
  AND EXISTS {
    MATCH (o:Entity {key_core: e.key_core})
    WHERE NOT o.id IN $ids
      AND (o.norm_type = e.norm_type OR (o.norm_type IS NULL AND e.norm_type IS NULL))
      AND (o.key_gender = e.key_gender OR (o.key_gender IS NULL AND e.key_gender IS NULL))
  }
RETURN e.id AS id
