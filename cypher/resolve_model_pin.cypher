// resolve_model_pin: mark a match model pinned: later resolves use it instead of training, while it
// weighs the comparisons the graph has ([resolve.model] train = "auto").
// Params: $id string.
MATCH (x:MatchModel {id: $id})
SET x.pinned = true
