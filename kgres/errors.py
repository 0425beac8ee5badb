"""One error hierarchy for kgres; the CLI maps it to exit codes.

::

    KgresError                      exit 1 unless noted
    ├── ConfigError                 bad settings or config file
    ├── UnknownQuery                a Cypher file name that does not exist
    ├── InputError                  malformed input: names file, line/row and field
    ├── DatabaseError               a statement failed on the server
    │   └── DatabaseUnavailable     server down or auth refused (exit 3)
    └── RuntimeSetupError           managed Neo4j: install/start/stop problems
"""

from __future__ import annotations

from pathlib import Path


class KgresError(Exception):
    """Root of every error kgres raises on purpose."""


class ConfigError(KgresError):
    """Settings or a config file are invalid."""


class UnknownQuery(KgresError):
    """A Cypher query name has no file under cypher/."""


class InputError(KgresError):
    """Input that cannot be ingested. The message names where: file, line or row, field."""

    def __init__(self, message: str, *, path: Path | str | None = None,
                 line: int | None = None, field: str | None = None) -> None:
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__(f"{': '.join([', '.join(where)] if where else [])}{': ' if where else ''}{message}")
        self.path, self.line, self.field, self.reason = path, line, field, message


class DatabaseError(KgresError):
    """A statement failed on the Neo4j server."""


class DatabaseUnavailable(DatabaseError):
    """Neo4j cannot be reached or refused the credentials."""


class RuntimeSetupError(KgresError):
    """The managed local Neo4j could not be installed, started or stopped."""
