"""The README documents every command, and its two set-up commands exist in the Makefile."""

from __future__ import annotations

import click

from kgres.cli import main
from tests.conftest import ROOT


def _commands(group: click.Group, prefix: str = "") -> list[str]:
    out = []
    for name, cmd in group.commands.items():
        out.append(f"{prefix}{name}")
        if isinstance(cmd, click.Group):
            out += _commands(cmd, f"{prefix}{name} ")
    return out


def test_readme_documents_every_command():
    readme = (ROOT / "README.md").read_text()
    for cmd in _commands(main):
        assert f"`kgres {cmd}" in readme, f"README does not document 'kgres {cmd}'"


def test_readme_opens_with_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text()
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    assert "make demo" in first_block and "make test" in first_block
    makefile = (ROOT / "Makefile").read_text()
    assert "\ndemo:" in makefile and "\ntest:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()
