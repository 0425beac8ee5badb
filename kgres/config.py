"""Settings: where Neo4j is and how kgres behaves.

Sources, strongest first: explicit arguments, environment (``NEO4J_*`` for the connection,
``KGRES_*`` for the rest, ``__`` for nesting: ``KGRES_SERVER__BOLT_PORT=7688``), a TOML file
(``--config FILE`` or ``KGRES_CONFIG``), defaults. Secrets never go in TOML: the password comes
from ``NEO4J_PASSWORD`` or, for the managed server, from a file only the user can read.

With ``NEO4J_URI`` unset, kgres talks to its managed local server (``kgres neo4j start``).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from kgres.errors import ConfigError


class Neo4jSettings(BaseSettings):
    """An external Neo4j, from ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``."""

    model_config = SettingsConfigDict(env_prefix="NEO4J_", extra="ignore")

    uri: str | None = None
    user: str = "neo4j"
    password: SecretStr | None = None
    database: str = "neo4j"


class ServerSettings(BaseModel):
    """The managed local server (``kgres neo4j ...``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bolt_port: int = Field(7687, ge=1, le=65535)
    heap: str = Field("2g", pattern=r"^\d+[kmgKMG]$")
    pagecache: str = Field("1g", pattern=r"^\d+[kmgKMG]$")
    startup_timeout_s: float = Field(180.0, gt=0)


class IngestSettings(BaseModel):
    """Batching for ``kgres ingest``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    batch_size: int = Field(5000, ge=1, le=100_000)


class SchemaSettings(BaseModel):
    """Index settings applied by ``kgres init``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    embedding_dimensions: int = Field(384, ge=1, le=4096)
    fastrp_dimensions: int = Field(128, ge=1, le=4096)


class LockSettings(BaseModel):
    """The writer lock (kgres.db.lock), ``[lock]`` in the config file (``KGRES_LOCK__WAIT_S``,
    ``KGRES_LOCK__TTL_S``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wait_s: float = Field(60.0, ge=0, le=86_400)  # how long a second writer waits before failing
    ttl_s: float = Field(60.0, ge=1, le=86_400)  # a holder silent this long is presumed dead


def _default_home() -> Path:
    return Path(os.path.expanduser("~/.kgres"))


class Settings(BaseSettings):
    """Everything kgres reads from the environment and the config file."""

    model_config = SettingsConfigDict(env_prefix="KGRES_", env_nested_delimiter="__", extra="forbid")

    home: Path = Field(default_factory=_default_home)
    server: ServerSettings = ServerSettings()
    ingest: IngestSettings = IngestSettings()
    schema_: SchemaSettings = Field(SchemaSettings(), alias="schema")
    lock: LockSettings = LockSettings()
    resolve: dict[str, Any] = {}  # validated by kgres.resolve.ResolveConfig when a run starts
    llm: dict[str, Any] = {}      # validated by kgres.llm.LLMSettings when an LLM stage starts
    retrieve: dict[str, Any] = {}  # validated by kgres.retrieve.RetrieveConfig

    @field_validator("home")
    @classmethod
    def _expand(cls, v: Path) -> Path:
        return Path(os.path.expanduser(str(v))).resolve()

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource):
        return init_settings, env_settings


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Read settings: ``overrides`` > environment > TOML file > defaults.

    Raises:
        ConfigError: the file is unreadable, not TOML, or has unknown/invalid keys.
    """
    config_file = config_file or (Path(os.environ["KGRES_CONFIG"]) if os.environ.get("KGRES_CONFIG") else None)
    data: dict[str, Any] = {}
    if config_file is not None:
        try:
            data = tomllib.loads(Path(config_file).read_text(encoding="utf-8"))
        except OSError as e:
            raise ConfigError(f"{config_file}: cannot read config file: {e.strerror}") from e
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{config_file}: not valid TOML: {e}") from e
    try:
        env_only = Settings()  # environment and defaults
        merged = _deep_merge(data, _explicit(env_only))
        return Settings(**_deep_merge(merged, overrides))
    except ValidationError as e:
        where = f"{config_file}: " if config_file else ""
        raise ConfigError(f"{where}invalid settings: {_first_error(e)}") from e


def _explicit(s: BaseModel) -> dict[str, Any]:
    """The fields that were set (by the environment), recursively, by alias."""
    out: dict[str, Any] = {}
    for name in s.model_fields_set:
        field = type(s).model_fields[name]
        key = field.alias or name
        value = getattr(s, name)
        out[key] = _explicit(value) if isinstance(value, BaseModel) else value
    return out


def _deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in top.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" + (f" ({len(e.errors()) - 1} more)" if len(e.errors()) > 1 else "")
