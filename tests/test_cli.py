"""The CLI through click's runner: exit codes, --json documents, errors on stderr."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgres.cli import main
from tests.graphs import counts, write_jsonl
from tests.test_docs import commands


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


def test_help_lists_commands_and_exit_codes(run):
    result = run("--help")
    assert result.exit_code == 0
    for cmd in ("demo", "ingest", "init", "neo4j", "reset", "status"):
        assert cmd in result.output
    assert "3 Neo4j unreachable" in result.output


@pytest.mark.parametrize("cmd", commands())
def test_every_command_has_help(run, cmd):
    """Every command of the click tree (walked, not listed by hand) has help with a description."""
    result = run(*cmd.split(), "--help")
    assert result.exit_code == 0 and len(result.output.splitlines()) > 3
    assert result.output.startswith(f"Usage: main {cmd}")


def test_status_json(run, db, neo4j_env):
    result = run("status", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["versions"]["kgres_plugin"] == "0.1.0" and doc["counts"]["mentions"] == 0


def test_ingest_json_then_table(run, db, neo4j_env, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [{"kind": "mention", "id": "m1", "name": "Sherlock Holmes"},
                                              {"kind": "mention", "id": "m2", "name": "Holmes"}])
    result = run("ingest", "jsonl", str(path), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["mentions"] == 2
    again = run("ingest", "jsonl", str(path))
    assert again.exit_code == 0 and "nodes created" in again.output


def test_bad_input_exits_1_with_location(run, db, neo4j_env, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kind": "mention", "id": "m1", "name": "A"}\n{"kind": "mention", "id": "m2"}\n')
    result = run("ingest", "jsonl", str(path))
    assert result.exit_code == 1
    assert f"Error: {path}, line 2, field 'name'" in result.stderr
    assert counts(db)["nodes"] == 0


def test_unknown_format_is_a_usage_error(run):
    assert run("ingest", "csv", "x").exit_code == 2


def test_reset_needs_yes(run, db, neo4j_env):
    assert run("reset").exit_code == 2
    assert run("reset", "--yes").exit_code == 0


def test_unreachable_database_exits_3(run, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")
    result = run("status")
    assert result.exit_code == 3 and "not reachable" in result.stderr


def test_wrong_password_exits_3(run, neo4j_env, monkeypatch):
    monkeypatch.setenv("NEO4J_PASSWORD", "definitely-wrong")
    result = run("status")
    assert result.exit_code == 3 and "refused the credentials" in result.stderr


def test_bad_config_file_exits_1(run, tmp_path):
    cfg = tmp_path / "kgres.toml"
    cfg.write_text("[server]\nheap = 'lots'\n")
    result = run("--config", str(cfg), "status")
    assert result.exit_code == 1 and "server.heap" in result.stderr
    cfg.write_text("[server\n")
    assert "not valid TOML" in run("--config", str(cfg), "status").stderr


def test_managed_status_when_stopped_exits_3(run, tmp_path, monkeypatch):
    monkeypatch.setenv("KGRES_HOME", str(tmp_path))
    result = run("neo4j", "status", "--json")
    assert result.exit_code == 3 and json.loads(result.output)["running"] is False


def test_json_output_is_strict_json_even_with_nan_weights():
    """A NaN or infinite weight a source graph carried prints as null: bare NaN is not JSON."""
    import json as _json

    from kgres.cli import to_json

    def strict(token):
        raise ValueError(f"not JSON: {token}")

    text = to_json({"weight": float("nan"), "edges": [{"w": float("inf")}, {"w": 1.5}], "n": 2})
    assert _json.loads(text, parse_constant=strict) == {"weight": None, "edges": [{"w": None}, {"w": 1.5}], "n": 2}


def test_names_that_would_drive_the_terminal_are_shown_escaped(run, db, neo4j_env, tmp_path):
    """A right-to-left override or an escape sequence in an extracted name is printed as an escape."""
    path = write_jsonl(tmp_path / "evil.jsonl", [
        {"kind": "mention", "id": "m1", "name": "Invoice \u202egpj.exe", "type": "FILE"},
        {"kind": "mention", "id": "m2", "name": "Red \x1b[31mAlert\x1b[2J", "type": "THING"}])
    assert run("ingest", "jsonl", str(path)).exit_code == 0
    out = run("explain", "ent:jsonl:m1")
    assert out.exit_code == 0, out.output
    assert "\u202e" not in out.output and "Invoice \\u202egpj.exe" in out.output
    out = run("explain", "ent:jsonl:m2")
    assert "\x1b" not in out.output and "\\u001b[31mAlert" in out.output
    doc = json.loads(run("explain", "ent:jsonl:m1", "--json").output)
    assert doc["entity"]["name"] == "Invoice \u202egpj.exe"  # data stays as it was; only display escapes


@pytest.mark.parametrize("terminal", [False, True], ids=["log", "terminal"])
def test_stage_progress_says_what_each_stage_did(terminal):
    """A long command's stderr: each note, and one line per finished stage with its count, seconds and
    rate, on a terminal (beside the live bar) or not; a stage an error leaves says how far it got."""
    import io
    import re

    from rich.console import Console

    from kgres.cli.progress import StageProgress

    buf = io.StringIO()
    with pytest.raises(RuntimeError, match="boom"):
        with StageProgress(Console(file=buf, force_terminal=terminal, width=200)) as progress:
            progress("incremental: 3 new entities against the resolved graph")
            progress.stage("pass 2: score")
            progress.expect(3000, "pairs")
            progress.advance(1000)
            progress.advance(2000)
            progress.end()
            progress.stage("pass 2: cluster")
            progress.stage("pass 2: merge")
            progress.expect(10, "entities")
            progress.advance(4)
            raise RuntimeError("boom")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.getvalue())  # a terminal's control sequences
    lines = [line.strip() for line in text.replace("\r", "\n").splitlines() if line.strip()]
    said = [line for line in lines if line.startswith(("incremental", "pass 2: score  ", "pass 2: cluster  ",
                                                       "pass 2: merge  "))]
    assert said[0] == "incremental: 3 new entities against the resolved graph"
    assert re.fullmatch(r"pass 2: score  3,000 pairs in \d+\.\d s \([\d,]+ pairs/s\)", said[1])
    assert re.fullmatch(r"pass 2: cluster  \d+\.\d s", said[2])
    assert re.fullmatch(r"pass 2: merge  stopped after \d+\.\d s, 4 of 10 entities done", said[3])
    assert len(said) == 4


def test_stage_progress_in_a_log_says_how_far_a_long_stage_is():
    """Off a terminal, a stage that counts its work says how far it is every so often (here at every
    count), with what is left, and still ends with its line."""
    import io
    import re

    from rich.console import Console

    from kgres.cli.progress import StageProgress

    buf = io.StringIO()
    with StageProgress(Console(file=buf, force_terminal=False, width=200), every=0) as progress:
        progress.stage("pass 2: block")
        progress.expect(3000, "entity reads")
        progress.advance(1000)
        progress.advance(2000)
    lines = buf.getvalue().splitlines()
    assert re.fullmatch(r"pass 2: block  1,000 of 3,000 entity reads after \d+\.\d s \([\d,]+ entity reads/s, "
                        r"about \d+\.\d min left\)", lines[0])
    assert re.fullmatch(r"pass 2: block  3,000 of 3,000 entity reads after .*", lines[1])
    assert re.fullmatch(r"pass 2: block  3,000 entity reads in \d+\.\d s \([\d,]+ entity reads/s\)", lines[2])
    assert len(lines) == 3
