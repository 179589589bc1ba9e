"""A plain ``exec`` command line is read without argparse, to the very same arguments;
anything else (help, errors, abbreviations, repeats) is left to argparse."""

from __future__ import annotations

import pytest

from llm_operator import cli, cli_exec

PLAIN = [
    ["exec", "--workspace", "ws"],
    ["exec", "--yes", "--workspace", "ws", "--state-dir", "st", "-"],
    ["exec", "--no", "--workspace=ws", "reply.txt"],
    ["exec", "--workspace", "ws", "reply.txt", "--yes"],
    ["exec", "--workspace", "ws", "--results", "base64", "--state-dir=a=b"],
    ["exec", "--workspace=-dash", "--results=readable", "-"],
    ["exec", "--workspace", "", "a file with spaces"],
]

LEFT_TO_ARGPARSE = [
    [],
    ["exec"],  # --workspace is required
    ["exec", "--help"],
    ["exec", "-h", "--workspace", "ws"],
    ["exec", "--work", "ws"],  # an abbreviation
    ["exec", "--workspace"],
    ["exec", "--workspace", "--yes"],
    ["exec", "--workspace", "-", "x"],
    ["exec", "--workspace", "a", "--workspace", "b"],
    ["exec", "--yes", "--no", "--workspace", "ws"],
    ["exec", "--yes", "--yes", "--workspace", "ws"],
    ["exec", "--yes=1", "--workspace", "ws"],
    ["exec", "--workspace", "ws", "--results", "json"],
    ["exec", "--workspace", "ws", "one", "two"],
    ["exec", "--workspace", "ws", "--", "reply"],
    ["exec", "--workspace", "ws", "-x"],
    ["undo", "--workspace", "ws"],
    ["pack", "--workspace", "ws"],
    ["--workspace", "ws", "exec"],
]


@pytest.mark.parametrize("argv", PLAIN)
def test_a_plain_exec_line_gives_what_argparse_gives(argv: list[str]) -> None:
    plain = cli_exec.plain_exec(argv)
    assert plain is not None
    expected = vars(cli._parser().parse_args(argv))
    assert {name: getattr(plain, name) for name in expected} == expected


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert cli_exec.plain_exec(argv) is None


def test_an_exec_line_argparse_refuses_is_still_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["exec", "--yes", "--no", "--workspace", "ws"])
    assert stopped.value.code == cli.EXIT_USAGE
    assert "not allowed with argument" in capsys.readouterr().err
