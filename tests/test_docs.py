"""The README documents every command in its command table (and names none that does not exist),
its Development tree names every package, and its two set-up commands exist in the Makefile."""

from __future__ import annotations

import re

import click

from kgres.cli import main
from tests.conftest import ROOT


def commands(group: click.Group = main, prefix: str = "") -> list[str]:
    """Every command of the click tree, groups included ("neo4j", "neo4j start"...)."""
    out = []
    for name, cmd in sorted(group.commands.items()):
        out.append(f"{prefix}{name}")
        if isinstance(cmd, click.Group):
            out += commands(cmd, f"{prefix}{name} ")
    return out


def _table_commands() -> list[str]:
    """The command column of the README's "Commands" table, options and arguments cut off."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `kgres ([^`]+)`", table, flags=re.M)
    return [" ".join(w for w in row.split() if re.fullmatch(r"[a-z][a-z0-9-]*", w)) for row in rows]


def test_readme_table_documents_every_command():
    table = _table_commands()
    leaves = [c for c in commands() if not isinstance(_lookup(c), click.Group)]
    for cmd in leaves:
        assert any(row == cmd or row.startswith(cmd + " ") for row in table), \
            f"README's command table does not document 'kgres {cmd}'"


def test_readme_table_names_only_real_commands():
    real = set(commands())
    for row in _table_commands():
        words = row.split()
        assert any(" ".join(words[:n]) in real for n in range(1, len(words) + 1)), f"'kgres {row}' is not a command"


def test_readme_development_tree_names_every_package():
    readme = (ROOT / "README.md").read_text()
    tree = readme.split("## Development", 1)[1].split("```", 2)[1]
    for package in sorted(p.parent.name for p in (ROOT / "kgres").glob("*/__init__.py")):
        assert f"{package}/" in tree, f"the Development tree does not show kgres/{package}/"


def _lookup(path: str) -> click.Command:
    cmd: click.Command = main
    for word in path.split():
        cmd = cmd.commands[word]  # type: ignore[attr-defined]
    return cmd


def test_readme_opens_with_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text()
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    assert "make demo" in first_block and "make test" in first_block
    makefile = (ROOT / "Makefile").read_text()
    assert "\ndemo:" in makefile and "\ntest:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()
