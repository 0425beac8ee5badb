"""Cypher statements live in ``cypher/<name>.cypher``; this module is the only one that knows where.

Each file holds one statement (``schema.cypher`` holds several, split on ``;`` at line ends).
Files are found in the source checkout, or in the installed package's bundled copy.
"""

from __future__ import annotations

import functools
from pathlib import Path

from kgres.assets import asset_dir
from kgres.errors import KgresError, UnknownQuery


def directory() -> Path:
    """The folder holding the .cypher files."""
    return asset_dir("cypher")


def names() -> list[str]:
    """Every query name available to :func:`load`."""
    return sorted(p.stem for p in directory().glob("*.cypher"))


@functools.cache
def load(name: str) -> str:
    """Return the text of ``cypher/<name>.cypher``.

    Raises:
        UnknownQuery: no such file.
    """
    path = directory() / f"{name}.cypher"
    if not path.is_file():
        raise UnknownQuery(f"no Cypher query named '{name}' (expected {path})")
    return path.read_text(encoding="utf-8")


def statements(name: str) -> list[str]:
    """Split a multi-statement file (schema) into statements, dropping comment-only parts."""
    out = []
    for part in load(name).split(";\n"):
        body = "\n".join(l for l in part.splitlines() if not l.strip().startswith("//")).strip()
        if body:
            out.append(body.rstrip(";"))
    return out


@functools.cache
def chain(first: str, then: str, carried: tuple[str, ...]) -> str:
    """One statement that runs ``then`` on what ``first`` returns, saving a round trip.

    ``first`` returns columns named like ``carried``; ``then`` binds those parameters in its first
    statement line, ``WITH $ids AS ids, $weights AS weights``, and uses only the variables after it.
    The chained statement replaces that one line with ``WITH ids, weights``, so both files stay
    runnable on their own (``then`` with the parameters given).

    Raises:
        KgresError: ``then`` does not start by binding exactly ``carried``.
    """
    binding = "WITH " + ", ".join(f"${c} AS {c}" for c in carried)
    lines = load(then).splitlines()
    body = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("//")]
    if not body or lines[body[0]].strip() != binding:
        raise KgresError(f"cypher/{then}.cypher must start with '{binding}' to be chained after {first}")
    lines[body[0]] = "WITH " + ", ".join(carried)
    return f"CALL () {{\n{load(first)}\n}}\n" + "\n".join(lines)
