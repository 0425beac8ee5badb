"""``block``: candidate pairs, bounded per entity, computed in the database (never all pairs).

Strategies (each a ``cypher/block_<name>.cypher`` file), combinable:

- ``exact``: same normalised core key, across types ("Baker Street" as GEO and as ORGANIZATION).
- ``acronym``: an acronym key equal to another entity's core key ("LLMs" / "Large Language Models").
- ``holders``: a person's short form ("Conway", "J. Conway") with the :data:`HOLDERS_K` most mentioned
  longer names it can stand for (:func:`~kgres.resolve.ambiguity.holder_keys`: "Jane Conway"), from the
  name-word indexes. Lexical and semantic blocking rank a short form's partners
  by words and vectors, where a common surname's namesakes crowd out the one it means: found only
  after other merges freed a slot, such pairs made a resolve's result depend on the order its
  input arrived in (3k generated mentions in ten increments: 98.7% of one run's pairs, 99.8% with it).
- ``nicknames``: a person's full name with the person names that carry its surname and a nickname
  of its given name, or the name that one is a nickname of ("Bob Cratchit" / "Robert Cratchit": no
  word in common but a surname six Cratchits share), from the ``key_last`` index and the nickname
  table (:func:`~kgres.resolve.score.names.nicknames`).
- ``lexical``: the best full-text matches on name and aliases (shared rare words: "Holmes"). The
  index is rebuilt first: BM25 counts deleted documents until Lucene merges them, which made the
  pairs differ from run to run. A pass (not an increment) spells each query's typo-tolerant words
  out as the graph's words one edit away (:mod:`kgres.resolve.fuzzy`) instead of Lucene's walk of
  its whole term dictionary per query.
- ``semantic``: nearest neighbours by text embedding, cosine >= ``min_cosine``. Up to
  ``semantic_exact_max`` entities they are exact (one matrix product per page of rows, numpy), so
  the same graph always gets the same pairs; above it, and for an increment whose new entities
  are fewer than 1/:data:`EXACT_PER_FOCUS` of the graph's, the vector index answers. Its HNSW
  search is approximate (on a 20k graph it missed 7% of the exact pairs) and its graph depends on
  how Lucene happened to merge segments (2 of 11 identical runs blocked a few different pairs); it
  is also slower up to ~150k entities (20k: 47 s of queries against 6 s of numpy and 3 s to read
  the embeddings).
- ``structural``: entities sharing neighbours, Jaccard over neighbours >= ``structural_cutoff``, the ``k``
  most similar per entity. Up to :data:`STRUCTURAL_GDS_MAX` entities GDS nodeSimilarity computes them
  over the whole graph; it compares every entity with every other (generated power-law graphs of 10k /
  30k / 60k nodes: 6 / 53 / 213 s), so above that, and for a small focus, each entity's pairs are
  walked from it through its neighbours (``resolve_block_structural_walk``: its two-hop neighbourhood,
  hubs of more than :data:`HUB_DEGREE` neighbours skipped). On 11k entities of 100k generated mentions
  the two gave the same 4,913 pairs in about the same time (1.6 s); over cesi-ambiguous's hubs the walk
  took 2.6 s a resolve against 0.7 s. Where ties are cut at ``k`` the walk keeps the smaller ids.
- ``attributes``: entities sharing rare attribute values (dates, postcodes, emails, phone numbers:
  values that at most ``max_value_share`` entities carry), the ``k`` that share the most per entity.
  A record whose name is misspelt is found by what else it shares.
- ``codes``: entities whose names carry one model code ("DMC-FX777" / "DMCFX777"), ranked as
  attribute values are: two shops' titles of one product share little else a query could ask for.
- ``kmeans``: Deg-Rag's semantic blocks: GDS k-means over text embeddings with
  k = sqrt(|E| / 10), then the ``k`` closest members of the same block. Each block's embeddings are
  read once and compared in one matrix product (numpy); in Cypher every entity re-read every
  member's embedding (~10^8 property reads, an hour, at 100k mentions).

Each proposes at most ``k`` pairs per entity; :func:`propose` collects them in Python (a pair
remembers every strategy that proposed it), and a pass of the match model keeps them there until
each is written once, scored. :func:`block` writes them unscored as ``CANDIDATE`` edges, one per
pair and run, ``methods`` listing the strategies (the rule scorer and ``kgres model train`` read
them back). Semantic and k-means blocking need the ``embed`` stage to have run (entities without an
embedding are skipped).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database
from kgres.db.gds import projection
from kgres.db.vectors import unpacked
from kgres.resolve.fuzzy import FuzzyWords
from kgres.resolve.normalize import name_codes
from kgres.resolve.score.names import nicknames

BlockStrategy = Literal["exact", "acronym", "holders", "nicknames", "lexical", "semantic", "structural", "attributes",
                        "codes", "kmeans"]
PER_ENTITY = ("exact", "acronym", "holders", "nicknames", "lexical", "semantic")  # one query per page of entities
# holders: a short form is paired with this many of its most-mentioned holders at most (the one it is
# merged into is the dominant one; its ambiguity comes from the holder table, not from more pairs)
HOLDERS_K = 5
# lexical: the full-text hits asked for first, then (for an entity whose k-th partner ties with the last
# hit, so that an equal one may have been left out) ten times as many, then every hit. 1M generated
# mentions (150k entities): 2,000 entities in 3.3-4.7 s, not 12 s, the same partners; 100k: the same time.
LEXICAL_FETCH = (101, 1010, None)
KMEANS_ROWS = 1024  # rows of a similarity matrix (k-means block, exact semantic) held at once
# ... at most, and no more than fit this many bytes of float32 against every column: the matrix (and
# the copy a row-wise partition makes of it) stays the same size as the graph grows, where 1,024 rows
# of 150k entities held 0.6 GB twice. Pages are independent, so their size never changes a result.
SIMILARITY_BYTES = 96 << 20
MIN_ROWS = 32
HUB_DEGREE = 1000  # structural pairs walked from an entity skip neighbours with more neighbours than this
STRUCTURAL_GDS_MAX = 20_000  # entities: above this, structural pairs are walked from every entity
WALK_SHARE = 0.05  # a focus of at most this share of the entities walks its structural pairs from itself
# An increment's semantic pairs are exact, as a whole pass's are, where the focus is at least 1/this of
# the entities (or a pass before it already read the embeddings): the vector index answers a query in
# about 1 ms, reading an embedding costs about 35 us (1k mentions into 100k generated: 2,097 focus
# entities of 10.5k). A smaller focus (an HTTP batch) asks the index.
EXACT_PER_FOCUS = 30


class BlockConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    strategies: tuple[BlockStrategy, ...] = ("exact", "acronym", "holders", "nicknames", "lexical", "semantic",
                                             "structural", "attributes", "codes")
    k: int = Field(20, ge=1, le=200)
    batch_size: int = Field(2000, ge=1, le=100_000)
    min_cosine: float = Field(0.8, ge=-1, le=1)
    structural_cutoff: float = Field(0.5, gt=0, le=1)
    kmeans_seed: int = 42
    max_value_share: int = Field(100, ge=2, le=100_000)  # attributes: a value more entities share blocks nothing
    # semantic: exact neighbours (deterministic) up to this many entities, the vector index above
    semantic_exact_max: int = Field(100_000, ge=0, le=10_000_000)


class BlockStats(BaseModel):
    run_id: str
    pairs_by_strategy: dict[str, int]
    pairs: int


class Proposals(dict[tuple[str, str], list[str] | tuple[str, ...]]):
    """Candidate pairs (smaller id first) and the strategies that proposed each, in the order of
    ``BlockConfig.strategies``. A pass of the match model scores them in memory and writes each
    pair once, with its outcome (:func:`kgres.resolve.score.stage.score_pairs`); :func:`block`
    writes them unscored."""

    def add(self, pairs: Iterable[tuple[str, str]], method: str) -> None:
        for a, b in pairs:
            methods = self.setdefault((a, b) if a < b else (b, a), [])
            if method not in methods:
                methods.append(method)

    def by_strategy(self) -> dict[str, int]:
        """Pairs per strategy (a pair two strategies proposed counts in both)."""
        out: dict[str, int] = {}
        for methods in self.values():
            for m in methods:
                out[m] = out.get(m, 0) + 1
        return dict(sorted(out.items()))

    def ordered(self, strategies: Sequence[str]) -> "Proposals":
        """The same pairs in id order, each one's methods in the order of ``strategies``, as a tuple
        that every pair proposed by the same strategies shares (a list per pair cost 64 bytes a pair:
        5.9M pairs in the first pass of 1M generated mentions)."""
        rank = {s: i for i, s in enumerate(strategies)}
        shared: dict[tuple[str, ...], tuple[str, ...]] = {}

        def methods(of: list[str]) -> tuple[str, ...]:
            key = tuple(sorted(of, key=lambda m: rank.get(m, len(rank))))
            return shared.setdefault(key, key)
        return Proposals((p, methods(self[p])) for p in sorted(self))


def block(db: Database, run_id: str, cfg: BlockConfig = BlockConfig(),
          on_batch: Callable[[int], None] = lambda n: None, focus: list[str] | None = None,
          incremental: bool = False, vectors: VectorCache | None = None,
          carried: Iterable[tuple[str, str]] = (), words: LexicalWords | None = None,
          on_total: Callable[[int], None] = lambda n: None) -> BlockStats:
    """Write :func:`propose`'s pairs as unscored CANDIDATE edges of ``run_id``; idempotent (one edge
    per pair and run). Arguments as :func:`propose`."""
    pairs = propose(db, cfg, on_batch, focus, incremental, vectors, carried, words, on_total)
    rows = [[a, b, methods] for (a, b), methods in pairs.items()]
    for i in range(0, len(rows), 5000):
        db.write("resolve_block_pairs", pairs=rows[i:i + 5000], run_id=run_id)
    return BlockStats(run_id=run_id, pairs_by_strategy=pairs.by_strategy(), pairs=len(pairs))


def propose(db: Database, cfg: BlockConfig = BlockConfig(), on_batch: Callable[[int], None] = lambda n: None,
            focus: list[str] | None = None, incremental: bool = False,
            vectors: VectorCache | None = None, carried: Iterable[tuple[str, str]] = (),
            words: LexicalWords | None = None, on_total: Callable[[int], None] = lambda n: None) -> Proposals:
    """The candidate pairs of every strategy of ``cfg``, in id order; the database is only read
    (and the full-text index rebuilt).

    ``focus``: block only these entities (a later pass re-examines what the previous one merged); a
    focus of at most :data:`WALK_SHARE` of the entities walks its structural pairs from itself.
    ``incremental`` (with ``focus``: new entities joining a resolved graph): work in proportion to
    the focus, not the graph: the full-text index is used as it is (not rebuilt), and structural
    pairs are walked from the focus (``resolve_block_structural_focus``) instead of computed over
    the whole graph.
    ``vectors``: the embeddings the passes of one resolve share for exact semantic pairs (default:
    read them all now). ``carried``: pairs proposed as they are (method ``partner``), beside the
    focus's: a focused pass scores again the pairs an earlier pass of the resolve had with what has
    just merged, without blocking their far side again (``resolve_focus_partner_pairs``).
    ``words``: the graph's words the passes of one resolve share for lexical queries (default: read
    them now; :class:`LexicalWords`). ``on_batch`` is told how many entity reads each read did, and
    ``on_total`` once how many there will be: an entity is read once by the structural walk where
    there is one, and once by the per-entity strategies.
    """
    out = Proposals()
    out.add(carried, "partner")
    walk = incremental and focus is not None
    # A small focus walks its structural pairs from itself: GDS's node similarity over the whole graph
    # cost 1.3 s a pass at 100k generated mentions however few entities the pass looked at (passes
    # 5-11 of a whole resolve re-examine 960 down to 3).
    entities = db.count("Entity")
    walk_structural = walk or (focus is not None and len(focus) <= WALK_SHARE * entities) \
        or entities > STRUCTURAL_GDS_MAX
    if "lexical" in cfg.strategies and not walk:
        reindex_names(db)
    if "exact" in cfg.strategies:
        db.script("resolve_block_exact_index", timeout_s=600)
    reads: list[tuple[str, Callable[[], Iterable[tuple[str, str]]], int]] = []  # method, read, entities done
    if "structural" in cfg.strategies and walk_structural:
        for ids in (focus[i:i + cfg.batch_size] for i in range(0, len(focus), cfg.batch_size)) \
                if focus is not None else db.entity_ids(cfg.batch_size):
            reads.append(("structural", lambda ids=ids: _walked(db, cfg, ids), len(ids)))
    if ("structural" in cfg.strategies and not walk_structural) or "kmeans" in cfg.strategies:
        _graph_wide(db, out, cfg if not walk_structural else cfg.model_copy(update={"strategies": tuple(
            s for s in cfg.strategies if s != "structural")}), focus)
    if "kmeans" in cfg.strategies:
        _kmeans_pairs(db, out, cfg.k, focus)
    if "attributes" in cfg.strategies:
        reads.append(("attributes", lambda: _attribute_pairs(db, cfg.k, cfg.max_value_share, focus, walk), 0))
    if "codes" in cfg.strategies:
        reads.append(("codes", lambda: _code_pairs(db, cfg.k, cfg.max_value_share, focus, walk), 0))
    per_entity = [s for s in cfg.strategies if s in PER_ENTITY]
    vectors = vectors if vectors is not None else VectorCache()
    exact_semantic = "semantic" in per_entity and entities <= cfg.semantic_exact_max and (
        not walk or vectors.held or entities <= EXACT_PER_FOCUS * len(focus))
    if exact_semantic:
        per_entity.remove("semantic")
    pages = db.entity_ids(cfg.batch_size) if focus is None else (
        focus[i:i + cfg.batch_size] for i in range(0, len(focus), cfg.batch_size))
    spelt = (words or LexicalWords()) if "lexical" in per_entity and not walk else None
    for ids in pages:
        for n, strategy in enumerate(per_entity):
            reads.append((strategy, lambda ids=ids, strategy=strategy: _per_entity(db, cfg, strategy, ids, spelt),
                          len(ids) if n == len(per_entity) - 1 else 0))
    on_total(sum(done for _, _, done in reads))
    if spelt is not None:
        spelt.expand(db, [])  # the graph's words are read once, before the reads run side by side
    for method, pairs, done in _gathered(reads, READERS if walk else WHOLE_READERS):
        out.add(pairs, method)
        if done:
            on_batch(done)
    if exact_semantic:
        _semantic_pairs(db, out, cfg.k, cfg.min_cosine, focus, vectors)
    return out.ordered(cfg.strategies)


def _pairs(rows: list[dict[str, str]]) -> Iterator[tuple[str, str]]:
    return ((r["a"], r["b"]) for r in rows)


# An increment's blocking reads (a few small queries, each independent of the others) run this many at
# a time: the server answers two while Python waits on both, instead of each in turn.
READERS = 3
# A whole pass reads its pages two at a time: one query at a time kept one core of two busy, the
# other idle (Python only waits here). cesi-ambiguous, warm server, three runs each: blocking 12.2-15.4
# -> 8.3-9.1 s (three at a time: 10.0 s); 100k generated mentions: 61 -> 64 s, within the run-to-run spread.
WHOLE_READERS = 2


def _gathered(reads: list[tuple[str, Callable[[], Iterable[tuple[str, str]]], int]], workers: int
              ) -> Iterator[tuple[str, list[tuple[str, str]], int]]:
    """Each read's method, pairs and entities done, in the order of ``reads``: read one after another,
    or (``workers`` > 1) up to ``workers`` at once on threads. The pairs are the same either way."""
    if workers <= 1 or len(reads) <= 1:
        for method, read, done in reads:
            yield method, list(read()), done
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kgres-block") as pool:
        for (method, _, done), pairs in zip(reads, pool.map(lambda r: list(r[1]()), reads)):
            yield method, pairs, done


def _per_entity(db: Database, cfg: BlockConfig, strategy: str, ids: list[str],
                spelt: "LexicalWords | None") -> Iterator[tuple[str, str]]:
    """The pairs ``resolve_block_<strategy>`` proposes for the page of entities ``ids``."""
    if strategy == "lexical":
        return _partners(_lexical(db, ids, cfg.k, spelt.expand(db, ids) if spelt is not None else {}))
    k = min(cfg.k, HOLDERS_K) if strategy == "holders" else cfg.k
    if strategy == "nicknames":
        return _partners(db.read("resolve_block_nicknames", _plain=True, ids=ids, k=k, related=_nickname_params()))
    return _partners(db.read(f"resolve_block_{strategy}", _plain=True, ids=ids, k=k, min_cosine=cfg.min_cosine))


@functools.cache
def _nickname_params() -> dict[str, list[str]]:
    return {name: sorted(others) for name, others in nicknames().items()}


def _lexical(db: Database, ids: list[str], k: int, expand: dict[str, str]) -> list[dict[str, Any]]:
    """``resolve_block_lexical``'s rows for ``ids``: each entity's ``k`` best full-text partners, as if every
    hit were ordered (best score first, ties by id), from the index's best hits only (:data:`LEXICAL_FETCH`)
    wherever those settle it: fewer hits than asked for are all there are, and a k-th partner that scores
    above the lowest hit has every hit scoring as much among them. Rows come in the order of ``ids``."""
    order = {id_: n for n, id_ in enumerate(ids)}
    rows: list[dict[str, Any]] = []
    for fetch in LEXICAL_FETCH:
        again = []
        for r in db.read("resolve_block_lexical", _plain=True, ids=ids, k=k, expand=expand, fetch=fetch):
            if fetch is None or r["fetched"] < fetch or (len(r["others"]) == k and r["kth"] > r["lowest"]):
                rows.append(r)
            else:
                again.append(r["id"])
        if not (ids := again):
            break
    return sorted(rows, key=lambda r: order[r["id"]])


def _partners(rows: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """The pairs of rows ``id``, ``others`` (an entity and the entities a strategy pairs it with), in
    either order (:meth:`Proposals.add` orders them)."""
    return ((r["id"], o) for r in rows for o in r["others"])


class LexicalWords:
    """Lexical blocking's ``$expand`` for a page of entities: their search keys' typo-tolerant terms
    spelt out as the graph's words within one edit (:class:`~kgres.resolve.fuzzy.FuzzyWords`), read
    from every entity's names when first asked and held between the passes of one resolve (100k
    generated mentions: 2.9 s to build before collapse). That holds because a pass adds no word: a
    merge gives the canonical the names of entities that were there, and keeps its own search key.
    An increment leaves the terms to Lucene: reading every name would cost more than its few queries."""

    def __init__(self) -> None:
        self._words: FuzzyWords | None = None
        self._keys: dict[str, str] = {}

    def expand(self, db: Database, ids: list[str]) -> dict[str, str]:
        if self._words is None:
            names: list[str] = []
            for r in db.stream("resolve_block_lexical_words", _plain=True):
                if r["search_key"]:
                    self._keys[r["id"]] = r["search_key"]
                names.extend(n for n in r["names"] if n)
            self._words = FuzzyWords(names)
        # an entity unknown here keeps its terms, for Lucene to answer
        return self._words.spell_out(self._keys[i] for i in ids if i in self._keys)


def reindex_names(db: Database, timeout_s: int = 600) -> None:
    """Rebuild the ``entity_name`` full-text index so lexical blocking is deterministic.

    BM25 statistics count replaced and deleted documents until Lucene merges their segments, at a
    time nobody controls; rebuilt from the store, the index scores the same entities the same way.
    """
    db.script("resolve_block_lexical_reindex", timeout_s=timeout_s)


def _walked(db: Database, cfg: BlockConfig, ids: list[str]) -> Iterator[tuple[str, str]]:
    """The structural pairs of the entities ``ids``, walked from each (``resolve_block_structural_walk``)."""
    return _partners(db.read("resolve_block_structural_walk", _plain=True, ids=ids, k=cfg.k,
                             cutoff=cfg.structural_cutoff, max_degree=HUB_DEGREE))


def _graph_wide(db: Database, out: Proposals, cfg: BlockConfig, focus: list[str] | None) -> None:
    """Structural pairs and k-means block assignment: one GDS projection for the whole graph."""
    with projection(db, "resolve_block_project", "block", with_embedding="kmeans" in cfg.strategies) as graph:
        if not graph.nodes:  # an empty graph: nothing to compare
            return
        if "structural" in cfg.strategies:
            out.add(_pairs(db.query("resolve_block_structural", graph=graph.name, k=cfg.k,
                                    cutoff=cfg.structural_cutoff, focus=focus)), "structural")
        if "kmeans" in cfg.strategies:
            db.query("resolve_block_kmeans_assign", graph=graph.name, k=kmeans_k(graph.nodes), seed=cfg.kmeans_seed)


def _kmeans_pairs(db: Database, out: Proposals, k: int, focus: list[str] | None) -> None:
    """Pair each entity (of ``focus``, if given) with the ``k`` members of its k-means block closest by
    text embedding cosine, ties by id (as ``ORDER BY cosine DESC, id``), into ``out``."""
    for block_row in db.read("resolve_block_kmeans_blocks", _plain=True):
        if block_row["size"] < 2:
            continue
        rows = db.read("resolve_block_kmeans_members", _plain=True, block=block_row["block"])
        vectors = np.stack([unpacked(r["embedding"], np.float32) for r in rows])
        out.add(_closest([r["id"] for r in rows], vectors, k, -np.inf, focus), "kmeans")


class VectorCache:
    """Entity embeddings held between the passes of one resolve: a pass reads every embedded
    entity's key (``Entity.embedding_key``, which changes with the text or the model) and then only
    the embeddings it does not hold under that key, so that a pass re-examining a few merged
    entities no longer reads the whole graph's vectors (20k mentions: such a pass blocked in 2 s,
    not 3)."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[str | None, np.ndarray]] = {}

    @property
    def held(self) -> bool:
        """Whether a pass has read the embeddings (a later one reads only what changed since)."""
        return bool(self._held)

    def vectors(self, db: Database) -> tuple[list[str], np.ndarray | None]:
        """The ids of every embedded entity, in id order, and their embeddings (one row each)."""
        keys = {r["id"]: r["key"] for r in db.collected("resolve_block_semantic_keys")}
        ids = list(keys)
        stale = [i for i in ids if keys[i] is None or self._held.get(i, (None,))[0] != keys[i]]
        for start in range(0, len(stale), 5000):
            for r in db.read("resolve_block_semantic_vectors", _plain=True, ids=stale[start:start + 5000]):
                self._held[r["id"]] = (r["key"], unpacked(r["embedding"], np.float32))
        self._held = {i: self._held[i] for i in ids if i in self._held}  # merged-away entities leave
        ids = [i for i in ids if i in self._held]  # (an embedding removed between the two reads)
        return ids, np.stack([self._held[i][1] for i in ids]) if ids else None


def _semantic_pairs(db: Database, out: Proposals, k: int, min_cosine: float, focus: list[str] | None,
                    cache: VectorCache) -> None:
    """Pair each entity (of ``focus``, if given) with its ``k`` nearest entities by text embedding
    whose cosine is at least ``min_cosine``, ties by id (as ``resolve_block_semantic`` orders the
    vector index's answers), computed exactly, into ``out``."""
    ids, vectors = cache.vectors(db)
    if len(ids) >= 2:
        out.add(_closest(ids, vectors, k, min_cosine, focus), "semantic")


def _closest(ids: list[str], vectors: np.ndarray, k: int, floor: float,
             focus: list[str] | None) -> set[tuple[str, str]]:
    """The pairs (smaller id first) of each entity (of ``focus``, if given) with the ``k`` others of
    ``ids`` (in id order, one row of ``vectors`` each) closest by cosine at or above ``floor``,
    ties by id. One matrix product per page of rows (:func:`page_rows`). ``vectors`` is normalised in
    place (every caller hands over an array of its own)."""
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    wanted = set(focus) if focus is not None else None
    chosen = np.asarray([i for i, x in enumerate(ids) if wanted is None or x in wanted], dtype=np.int64)
    pairs: set[tuple[str, str]] = set()
    rows = page_rows(len(ids))
    for start in range(0, len(chosen), rows):
        me = chosen[start:start + rows]
        for i, j in _nearest(vectors[me] @ vectors.T, me, k, floor):
            a, b = ids[i], ids[j]
            pairs.add((a, b) if a < b else (b, a))
    return pairs


def page_rows(columns: int) -> int:
    """Rows of a page of a similarity matrix with ``columns`` columns (see ``SIMILARITY_BYTES``)."""
    return max(MIN_ROWS, min(KMEANS_ROWS, SIMILARITY_BYTES // (4 * max(columns, 1))))


def _nearest(sims: np.ndarray, rows: np.ndarray, k: int, floor: float) -> Iterator[tuple[int, int]]:
    """(row, column) of each row's ``k`` best columns of ``sims`` at or above ``floor``, best first,
    ties by column; ``rows`` are the matrix rows' own columns (never paired with themselves)."""
    own = (np.arange(len(rows)), rows)
    sims[own] = -np.inf
    above = sims >= floor
    above[own] = False
    if np.count_nonzero(above) > 8 * k * len(rows):
        # many columns above the floor (near-identical texts): cut each row to its k best, ties at
        # the cut included, before sorting; usually the floor alone leaves few and this is skipped
        n = sims.shape[1]
        kth = min(k, n - 1)
        above &= sims >= np.partition(sims, n - kth, axis=1)[:, n - kth, None]
    r, c = np.nonzero(above)
    order = np.lexsort((c, -sims[r, c], r))
    r, c = r[order], c[order]
    keep = np.arange(len(r)) - np.searchsorted(r, r, side="left") < k
    return zip(rows[r[keep]].tolist(), c[keep].tolist())


def _attribute_pairs(db: Database, k: int, max_share: int, focus: list[str] | None,
                     indexed: bool = False) -> Iterable[tuple[str, str]]:
    """Pair each entity (of ``focus``, if given) with the ``k`` entities that share the most, and the
    rarest, attribute values with it (a date of birth, a postcode, an email, a phone number: each
    value scores log(N / entities carrying it)); values that more than ``max_share`` entities carry
    block nothing. ``indexed`` (an increment): the carriers of the focus's values come from the
    mention_block_values index, not from reading every entity's attributes (:func:`_indexed_sharing`)."""
    if focus is not None and indexed:
        values = {r["id"]: {f"a:{v}" for v in _attribute_values(r["attributes"])}
                  for i in range(0, len(focus), 5000)
                  for r in db.read("resolve_block_attributes_of", _plain=True, ids=focus[i:i + 5000])}
        return _indexed_sharing(db, values, k, max_share)
    ids: list[str] = []
    postings: dict[str, list[int]] = {}
    for row in db.stream("resolve_block_attributes"):
        i = len(ids)
        ids.append(row["id"])
        for value in _attribute_values(row["attributes"]):
            postings.setdefault(value, []).append(i)
    return _sharing(ids, postings, k, max_share, focus)


def _attribute_values(attributes_json: Sequence[str]) -> set[str]:
    """The attribute values of mentions' ``attributes_json`` as blocking compares them: ``key=folded``."""
    from kgres.resolve.score.identifiers import attributes_of
    from kgres.resolve.score.sides import fold_value

    return {f"{key}={folded}" for key, value in attributes_of(attributes_json) if (folded := fold_value(value))}


def _code_pairs(db: Database, k: int, max_share: int, focus: list[str] | None,
                indexed: bool = False) -> Iterable[tuple[str, str]]:
    """Pair entities whose names carry one model code (:func:`~kgres.resolve.normalize.name_codes`
    spells "DMC-FX777" and "DMCFX777" ``dmcfx777``), the ``k`` sharing the most and rarest per
    entity, as :func:`_attribute_pairs` does with attribute values (``indexed`` too). Two shops'
    titles of one product share little else a query could ask for: each adds words of its own, and
    its family's other products embed as close as it does."""
    if focus is not None and indexed:
        values = {r["id"]: {f"c:{c}" for c in _codes(r["name"], r["aliases"])}
                  for i in range(0, len(focus), 5000)
                  for r in db.read("resolve_block_codes_of", _plain=True, ids=focus[i:i + 5000])}
        return _indexed_sharing(db, values, k, max_share)
    ids: list[str] = []
    postings: dict[str, list[int]] = {}
    for row in db.stream("resolve_block_codes", _plain=True):
        if codes := _codes(row["name"], row["aliases"]):
            i = len(ids)
            ids.append(row["id"])
            for code in codes:
                postings.setdefault(code, []).append(i)
    return _sharing(ids, postings, k, max_share, focus)


def _codes(name: str, aliases: list[str] | None) -> list[str]:
    """The model codes an entity's name and aliases carry, sorted."""
    return sorted(set().union(*(name_codes(n) for n in [name, *(aliases or [])])))


def mention_values(name: str, attributes_json: str | None) -> list[str]:
    """What a mention carries for attribute and code blocking, as the mention_block_values index holds
    it: each attribute value as ``a:key=folded`` and each model code of its name as ``c:code``
    (the values :func:`_attribute_pairs` and :func:`_code_pairs` compare an entity's mentions by)."""
    attributes = _attribute_values([attributes_json]) if attributes_json else set()
    return sorted(f"a:{v}" for v in attributes) + sorted(f"c:{c}" for c in name_codes(name))


def fill_mention_values(db: Database, page: int = 5000) -> int:
    """Write :func:`mention_values` on every mention imported before kgres wrote them at import;
    return how many. An increment's attribute and code blocking read them from an index."""
    filled, after = 0, ""
    while rows := db.read("resolve_block_values_missing", _plain=True, after=after, limit=page)[0]["page"]:
        db.write("resolve_block_values_write", rows=[
            {"id": r["id"], "values": mention_values(r["name"], r["attributes_json"])} for r in rows])
        filled += len(rows)
        after = rows[-1]["id"]
    return filled


def _indexed_sharing(db: Database, values: dict[str, set[str]], k: int, max_share: int) -> set[tuple[str, str]]:
    """:func:`_sharing` for the entities of ``values`` (entity id -> the blocking values it carries, as
    :func:`mention_values` spells them), with each value's carriers from the mention_block_values
    index (at most ``max_share`` + 1: one more blocks nothing) instead of every entity's values, and
    N the graph's entities (a whole pass counts those carrying values of the kind: the increment's
    ranking of a focus entity's partners can differ where they share different numbers of values)."""
    wanted = sorted(set().union(*values.values())) if values else []
    carriers: dict[str, list[str]] = {}
    for i in range(0, len(wanted), 1000):
        queries = [{"value": v, "query": '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'}
                   for v in wanted[i:i + 1000]]
        for r in db.read("resolve_block_value_carriers", _plain=True, values=queries, limit=max_share + 1,
                           timeout_s=300):
            carriers[r["value"]] = r["ids"]
    for entity, carried in values.items():  # an entity carries its own values, indexed or not
        for v in carried:
            if len(carriers.setdefault(v, [])) <= max_share and entity not in carriers[v]:
                carriers[v].append(entity)
    ids = sorted({e for es in carriers.values() for e in es})
    index = {e: i for i, e in enumerate(ids)}
    postings = {v: sorted(index[e] for e in es) for v, es in carriers.items()}
    return _sharing(ids, postings, k, max_share, sorted(values), total=db.count("Entity"))


def _sharing(ids: list[str], postings: dict[str, list[int]], k: int, max_share: int,
             focus: list[str] | None, total: int | None = None) -> set[tuple[str, str]]:
    """Each entity of ``ids`` (of ``focus``, if given) paired with the ``k`` entities that share the
    most and rarest values with it (``postings``: value -> the indexes in ``ids`` of the entities
    carrying it); a value scores log(N / its carriers), N ``total`` or (default) all of ``ids``; one
    more than ``max_share`` carry nothing."""
    if len(ids) < 2:
        return set()
    n = max(total or 0, len(ids))
    values_of: dict[int, list[tuple[float, list[int]]]] = {}
    for members in postings.values():
        if 2 <= len(members) <= max_share:
            weight = math.log(n / len(members))
            for i in members:
                values_of.setdefault(i, []).append((weight, members))
    wanted = set(focus) if focus is not None else None
    pairs: set[tuple[str, str]] = set()
    for i, shared in values_of.items():
        if wanted is not None and ids[i] not in wanted:
            continue
        scores: dict[int, float] = {}
        for weight, members in shared:
            for j in members:
                if j != i:
                    scores[j] = scores.get(j, 0.0) + weight
        for j in sorted(scores, key=lambda j: (-scores[j], j))[:k]:
            pairs.add((min(ids[i], ids[j]), max(ids[i], ids[j])))
    return pairs


def kmeans_k(entities: int) -> int:
    """Deg-Rag's number of semantic blocks: sqrt(|E| / 10), at least 1."""
    return max(1, round(math.sqrt(entities / 10)))
