"""Shared helpers of the deployment tests: the Dockerfile and .dockerignore read the way Docker
reads them (the subset this project uses), and the protocol helpers of tests/app loaded by path
(tests/app is collected as a package named like the server's `app`, so it is not imported by name)."""
from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_app_helpers():
    spec = importlib.util.spec_from_file_location("osaka_protocol_helpers", ROOT / "tests" / "app" / "helpers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


proto = _load_app_helpers()


@dataclass
class Instruction:
    """One Dockerfile instruction: `op` upper case, `args` the raw text after it, `line` 1-based."""
    op: str
    args: str
    line: int

    def exec_form(self) -> list[str] | None:
        """The JSON array of an exec-form CMD/ENTRYPOINT/HEALTHCHECK CMD, else None."""
        text = self.args
        if self.op == "HEALTHCHECK":
            if " CMD " not in f" {text} ":
                return None
            text = text.split("CMD", 1)[1]
        text = text.strip()
        if not text.startswith("["):
            return None
        return json.loads(text)

    def flags(self) -> dict[str, str]:
        """`--name=value` options at the start (HEALTHCHECK, COPY, FROM)."""
        out = {}
        for word in shlex.split(self.args.split(" CMD ", 1)[0] if self.op == "HEALTHCHECK" else self.args):
            if word.startswith("--") and "=" in word:
                key, value = word[2:].split("=", 1)
                out[key] = value
        return out


def dockerfile(path: Path = ROOT / "Dockerfile") -> list[list[Instruction]]:
    """The Dockerfile as build stages (each starting with its FROM), continuation lines joined and
    comments dropped (https://docs.docker.com/reference/dockerfile/#format)."""
    stages: list[list[Instruction]] = []
    pending, start = "", 0
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = (pending + line).strip()
        pending = ""
        op, _, args = text.partition(" ")
        ins = Instruction(op.upper(), args.strip(), start)
        if ins.op == "FROM":
            stages.append([])
        assert stages, f"line {start}: {ins.op} before FROM"
        stages[-1].append(ins)
    return stages


def env_of(stage: list[Instruction]) -> dict[str, str]:
    """The ENV key=value pairs set in a stage."""
    out: dict[str, str] = {}
    for ins in stage:
        if ins.op == "ENV":
            for word in shlex.split(ins.args):
                key, _, value = word.partition("=")
                out[key] = value
    return out


def dockerignore_patterns(path: Path = ROOT / ".dockerignore") -> list[str]:
    """The patterns of .dockerignore in order (an exception keeps its leading `!`)."""
    patterns = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            patterns.append(line.rstrip("/"))
    return patterns


def ignored(rel: str, patterns: list[str]) -> bool:
    """Whether a context path (posix, relative) is excluded: a pattern matches the path or one
    of its parent directories; `**/` matches any number of directories (Go filepath.Match plus
    Docker's `**`); the last matching pattern decides, and one starting with `!` re-includes
    (https://docs.docker.com/build/concepts/context/#dockerignore-files)."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    out = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        pattern = pattern[1:] if keep else pattern
        for prefix in prefixes:
            if fnmatch.fnmatchcase(prefix, pattern) or (
                    pattern.startswith("**/") and fnmatch.fnmatchcase(prefix.split("/")[-1], pattern[3:])):
                out = not keep
                break
    return out


def context_files(patterns: list[str] | None = None) -> list[str]:
    """Every file of the build context (the repository minus .dockerignore), relative paths."""
    patterns = dockerignore_patterns() if patterns is None else patterns
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        base = Path(dirpath).relative_to(ROOT).as_posix()
        rel = (lambda name: name) if base == "." else (lambda name: f"{base}/{name}")
        dirnames[:] = sorted(d for d in dirnames if not ignored(rel(d), patterns))
        out.extend(rel(f) for f in sorted(filenames) if not ignored(rel(f), patterns))
    return out
