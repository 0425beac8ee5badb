// run_unfinished_decisions: runs left 'running' that `kgres resolve` does not resume: decisions (a
// person's accept, the LLM judge's) killed between recording their merge and finishing.
// Params: $strategies list<string> (the strategies `kgres resolve` runs and resumes itself).
MATCH (r:ResolutionRun {status: 'running'})
WHERE NOT r.strategy IN $strategies
RETURN r.id AS id
ORDER BY r.started_at, r.id
