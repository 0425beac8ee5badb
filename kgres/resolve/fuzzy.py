"""The typo-tolerant words of lexical blocking's full-text queries, spelt out before Lucene sees them.

A blocking query (``Entity.search_key``, :func:`kgres.resolve.normalize._search`) marks each word of
six letters or more ``~1``: any word of the index one edit away matches it. Lucene answers such a
word by walking its whole term dictionary with an edit automaton, once per query; on a 100k-mention
generated graph that walk was two thirds of lexical blocking (4,000 entities: 3.8 s, against 1.3 s
with plain words). A pass over every entity asks it for every entity, so :class:`FuzzyWords` finds
the words within one edit once, in Python, from the words of every entity's name and aliases, and
each query names them: ``+portland~1`` becomes ``+(portland portlnd)``.

The words are taken as the index's analyzer (Lucene's standard tokenizer, lower-cased) cuts them,
closely enough: letters and digits, joined across an inner apostrophe, dot or colon ("o'brien",
"u.s"); Chinese, Japanese and Korean one character at a time (Lucene keeps a Korean or katakana word
whole: such a word of six or more finds no single character one edit away, so it stays as below). A
word for which nothing in the graph is found stays ``~1``, for Lucene to answer as before.

Scores differ from Lucene's own expansion in one way: Lucene blends the expanded words' frequencies
(a rare misspelling scores as the common spelling does), while spelt out each word scores as its own
frequency says, so a rare misspelling of a name ranks its entity higher.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz.distance import OSA

from kgres.resolve.normalize import _lucene

# As Lucene's standard tokenizer cuts a name (UAX #29 word boundaries), closely enough for blocking.
_IDEOGRAPH = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_IDEOGRAPH}]|(?:(?![{_IDEOGRAPH}])\w)+(?:['\u2019.:](?:(?![{_IDEOGRAPH}])\w)+)*")
MAX_EXPANSIONS = 50  # Lucene's FuzzyQuery default: the closest words, then the first in order
MIN_FUZZY = 6  # letters: the shortest word a search key marks ~1 (normalize._search)


def index_words(text: str) -> list[str]:
    """The words the ``entity_name`` full-text index holds for ``text`` (approximately: see module)."""
    return _WORD.findall(text.lower())


class FuzzyWords:
    """Every word of the graph's entity names and aliases, indexed by its one-letter deletions, so
    that the words one edit (an insertion, deletion, substitution or swap of neighbours) from a
    query's word are found without comparing it with every word."""

    def __init__(self, names: Iterable[str]) -> None:
        words = {w for name in names for w in index_words(name) if len(w) >= MIN_FUZZY - 1}
        self._by_deletion: dict[str, list[str]] = {}
        for w in sorted(words):
            for d in {w, *_deletions(w)}:
                self._by_deletion.setdefault(d, []).append(w)

    def near(self, word: str) -> list[str]:
        """The graph's words at most one edit from ``word``, closest first, then in order; at most
        :data:`MAX_EXPANSIONS`."""
        found = {w for d in (word, *_deletions(word)) for w in self._by_deletion.get(d, ())}
        close = sorted((OSA.distance(word, w), w) for w in found)
        return [w for dist, w in close if dist <= 1][:MAX_EXPANSIONS]

    def spell_out(self, search_keys: Iterable[str]) -> dict[str, str]:
        """For each ``~1`` term of ``search_keys`` (``+word~1`` or ``word~1``), the term that names
        the graph's words within one edit instead (``+(word wrod)``); a term with none is left out
        (the query keeps it as it is)."""
        out: dict[str, str] = {}
        for key in search_keys:
            for term in key.split():
                if term in out or not term.endswith("~1"):
                    continue
                must = term.startswith("+")
                word = term[1 if must else 0:-2].replace("\\", "")
                if near := self.near(word):
                    out[term] = ("+" if must else "") + "(" + " ".join(_lucene(w) for w in near) + ")"
        return out


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}
