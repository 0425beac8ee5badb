// resolve_normalize_write: store the name keys computed by kgres.normalize on Entities.
// Params: $rows list<{id, core, tokens, acronym, numbers, norm_type, gender, title, search, first, last, stamp}>
// (first, last: a multi-word person name's first and last word, else null).
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.key_core = row.core, e.key_tokens = row.tokens, e.key_acronym = row.acronym,
    e.key_numbers = row.numbers, e.norm_type = row.norm_type, e.key_gender = row.gender, e.key_title = row.title,
    e.search_key = row.search, e.key_first = row.first, e.key_last = row.last,
    e.key_stamp = row.stamp
