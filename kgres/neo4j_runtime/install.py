"""``kgres neo4j install``: build the managed runtime from Maven Central into the cache.

Layout under ``<home>/runtime/`` (nothing is written into the source tree)::

    neo4j-5.26.24-gds-2.13.9-apoc-5.26.5-<pomhash>/lib/*.jar        server runtime
                                                  /plugins/*.jar    APOC core, shaded OpenGDS
    kgres-procedures-<srchash>.jar                                   our plugin, per source version
    current.json                                                     what `start` uses
    install.log                                                      Maven's output

Each part is rebuilt only when what it is built from changes (versions, poms, plugin sources), so a
second ``install`` is a no-op. Builds go to a temporary folder and are renamed into place, so an
interrupted install never leaves a half-built runtime behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from kgres.assets import asset_dir
from kgres.errors import RuntimeSetupError
from kgres.neo4j_runtime.versions import APOC_VERSION, GDS_VERSION, JAVA_MAJOR, NEO4J_VERSION

Step = Callable[[str], None]


@dataclass(frozen=True)
class Runtime:
    """An installed runtime: what the launcher needs to start a server."""

    java: str
    lib: str
    plugins: list[str]
    neo4j_version: str
    gds_version: str
    apoc_version: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def runtime_root(home: Path) -> Path:
    return home / "runtime"


def installed_runtime(home: Path) -> Runtime | None:
    """The runtime recorded by the last successful install, or None if there is none, it is gone, or
    its kgres plugin was built from other sources than this kgres carries (an upgrade that changed
    the plugin: the queries may call functions the old jar lacks)."""
    path = runtime_root(home) / "current.json"
    if not path.is_file():
        return None
    rt = Runtime(**json.loads(path.read_text()))
    if not Path(rt.lib).is_dir() or not all(Path(p).is_file() for p in rt.plugins):
        return None
    if _plugin_path(home).name not in {Path(p).name for p in rt.plugins}:
        return None
    return rt


def _plugin_path(home: Path) -> Path:
    """Where the kgres plugin built from this kgres's sources is kept (named by their hash)."""
    return runtime_root(home) / f"kgres-procedures-{_tree_hash(asset_dir('procedures'), skip=('target',))}.jar"


def install(home: Path, on_step: Step = lambda msg: None, force: bool = False) -> Runtime:
    """Make sure the runtime and our plugin are built; return the runtime.

    Raises:
        RuntimeSetupError: Java 17/21 or Maven is missing, or a Maven build failed (see install.log).
    """
    root = runtime_root(home)
    root.mkdir(parents=True, exist_ok=True)
    java = find_java()
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeSetupError("Maven ('mvn') is not on PATH; install Maven 3.8+ (Debian: apt-get install maven)")
    log = root / "install.log"

    server_dir = root / f"neo4j-{NEO4J_VERSION}-gds-{GDS_VERSION}-apoc-{APOC_VERSION}-{_tree_hash(asset_dir('neo4j'))}"
    if force or not (server_dir / ".complete").is_file():
        on_step(f"building Neo4j {NEO4J_VERSION} + APOC {APOC_VERSION} + OpenGDS {GDS_VERSION} from Maven Central")
        _build_runtime(mvn, java, server_dir, log)
    else:
        on_step(f"Neo4j {NEO4J_VERSION} runtime already built")

    src = asset_dir("procedures")
    plugin = _plugin_path(home)
    if force or not plugin.is_file():
        on_step("building the kgres procedures plugin")
        _build_plugin(mvn, java, src, plugin, log)
    else:
        on_step("kgres procedures plugin already built")

    plugins = sorted(str(p) for p in (server_dir / "plugins").glob("*.jar")) + [str(plugin)]
    rt = Runtime(java=java, lib=str(server_dir / "lib"), plugins=plugins, neo4j_version=NEO4J_VERSION,
                 gds_version=GDS_VERSION, apoc_version=APOC_VERSION)
    _atomic_write(root / "current.json", rt.to_json())
    return rt


def find_java() -> str:
    """Path of a Java 17 (or 21) binary: ``$JAVA_HOME``, then Debian's JDK 17, then ``java`` on PATH.

    Raises:
        RuntimeSetupError: none of them is Java 17 or 21.
    """
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "java")
    candidates += sorted(Path("/usr/lib/jvm").glob(f"*-{JAVA_MAJOR}-*/bin/java"))
    on_path = shutil.which("java")
    if on_path:
        candidates.append(Path(on_path))
    seen = []
    for c in candidates:
        if not c.exists():
            continue
        major = java_major(str(c))
        seen.append(f"{c} ({major or 'unknown'})")
        if major in (17, 21):
            return str(c)
    raise RuntimeSetupError(
        "Neo4j 5.26 needs Java 17 (or 21); found " + (", ".join(seen) if seen else "no java at all")
        + ". Install OpenJDK 17 (Debian: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME.")


def java_major(java: str) -> int | None:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2)) if major == 1 and m.group(2) else major


def _build_runtime(mvn: str, java: str, target: Path, log: Path) -> None:
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
        build = Path(tmp) / "src"
        shutil.copytree(asset_dir("neo4j"), build, ignore=shutil.ignore_patterns("dist", "target"))
        dist = Path(tmp) / "dist"
        _mvn(mvn, java, ["-f", str(build / "pom.xml"), "package", f"-Ddist={dist}"], log)
        if not (dist / "lib").is_dir() or not list((dist / "plugins").glob("*.jar")):
            raise RuntimeSetupError(f"Maven finished but produced no runtime in {dist}; see {log}")
        (dist / ".complete").write_text(NEO4J_VERSION)
        if target.exists():
            shutil.rmtree(target)
        dist.rename(target)


def _build_plugin(mvn: str, java: str, src: Path, target: Path, log: Path) -> None:
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
        build = Path(tmp) / "procedures"
        shutil.copytree(src, build, ignore=shutil.ignore_patterns("target"))
        _mvn(mvn, java, ["-f", str(build / "pom.xml"), "package", "-DskipTests"], log)
        jar = build / "target" / "kgres-procedures.jar"
        if not jar.is_file():
            raise RuntimeSetupError(f"Maven finished but built no {jar.name}; see {log}")
        shutil.copyfile(jar, Path(tmp) / target.name)
        (Path(tmp) / target.name).rename(target)


def _mvn(mvn: str, java: str, args: list[str], log: Path) -> None:
    env = dict(os.environ, JAVA_HOME=str(Path(java).resolve().parent.parent))
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"\n$ mvn -B {' '.join(args)}\n")
        out.flush()
        proc = subprocess.run([mvn, "-B", *args], stdout=out, stderr=subprocess.STDOUT, env=env)
    if proc.returncode != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:])
        raise RuntimeSetupError(f"Maven build failed (exit {proc.returncode}); full log in {log}:\n{tail}")


def _tree_hash(folder: Path, skip: tuple[str, ...] = ("dist", "target")) -> str:
    """Short hash of every file's path and content under ``folder``: the cache key of a build."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if p.is_file() and not any(part in skip for part in rel.parts):
            h.update(str(rel).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:10]


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
