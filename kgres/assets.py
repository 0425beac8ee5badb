"""Where the non-Python parts of kgres live: ``cypher/``, ``neo4j/``, ``procedures/``, ``sample/``.

In a source checkout (or editable install) they sit at the repository root; a wheel bundles them
under ``kgres/_assets/``.
"""

from __future__ import annotations

from pathlib import Path

from kgres.errors import KgresError

_PKG = Path(__file__).resolve().parent


def asset_dir(name: str) -> Path:
    """Return the folder ``name`` from the checkout or the installed package.

    Raises:
        KgresError: neither location has it (a broken install).
    """
    for d in (_PKG.parent / name, _PKG / "_assets" / name):
        if d.is_dir():
            return d
    raise KgresError(f"kgres asset folder '{name}' is missing from this installation (looked beside {_PKG})")
