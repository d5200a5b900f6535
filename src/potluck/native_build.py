"""Build the compiled rules: ``python -m potluck.native_build`` (``make native``).

Compiles ``potluck.native.COMPILED_MODULES`` with mypyc into this source tree's
``build/native/`` (never beside the sources), then writes the manifest of the
sources' SHA-256 that ``import potluck`` checks before it loads anything. A fresh
build is left alone (``--force`` rebuilds). Where mypyc or a C compiler is missing it
says so in one line and exits 0: the rules then run as pure Python, which is the
same program, only slower. ``--check`` only reports which build ``import potluck``
would load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from potluck.native import (
    COMPILED_MODULES,
    FORMAT,
    GROUP,
    MANIFEST,
    build_directory,
    check_build,
    platform_tag,
    source_digests,
    source_path,
)


def missing_tools() -> str | None:
    """Why this machine cannot compile (no mypyc, no C compiler, no Python headers),
    or ``None``."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy, in the dev extra)"
    try:
        import librt.vecs  # noqa: F401
    except ImportError:
        return "librt.vecs (mypyc's typed vectors) is not installed: it comes with mypy 2.4"
    compiler = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None and shutil.which("cc") is None:
        return "there is no C compiler"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return "the Python headers (Python.h) are not installed"
    return None


def build(directory: Path, *, quiet: bool = True) -> None:
    """Compile every module of the group into ``directory`` (replaced whole only once
    the new build is complete, so an interrupted build leaves no half build behind)."""
    digests = source_digests()
    src = source_path("potluck.x").parent.parent
    directory.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="native-", dir=directory.parent) as scratch:
        work = Path(scratch)
        out = work / "out"
        script = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            "paths, out, temp, group = sys.argv[1].split(','), sys.argv[2], sys.argv[3], "
            "sys.argv[4]\n"
            "setup(name='potluck-native', ext_modules=mypycify(paths, opt_level='3', "
            "group_name=group, target_dir=temp + '/c'), script_args=['-q', 'build_ext', "
            "'--build-lib', out, '--build-temp', temp])\n"
        )
        paths = [str(source_path(module).relative_to(src)) for module in COMPILED_MODULES]
        env = {**os.environ, "PYTHONPATH": str(src), "MYPY_CACHE_DIR": str(work / "mypy")}
        result = subprocess.run(
            [sys.executable, "-c", script, ",".join(paths), str(out), str(work / "tmp"), GROUP],
            cwd=src,
            env=env,
            capture_output=quiet,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            detail = (result.stdout or "")[-3000:] + (result.stderr or "")[-3000:]
            raise RuntimeError(f"mypyc failed (exit {result.returncode}):\n{detail}")
        if source_digests() != digests:
            raise RuntimeError("the sources changed while they were compiled: build again")
        manifest = {
            "format": FORMAT,
            "platform": platform_tag(),
            "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "sources": digests,
        }
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
        old = work / "old"
        if directory.exists():
            directory.rename(old)
        out.rename(directory)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m potluck.native_build",
        description="Compile the rules' hot modules with mypyc into build/native/.",
    )
    parser.add_argument("--force", action="store_true", help="rebuild even a fresh build")
    parser.add_argument("--check", action="store_true", help="only say which build would load")
    parser.add_argument("--verbose", action="store_true", help="show mypyc's and gcc's output")
    args = parser.parse_args(argv)
    directory = build_directory()
    if directory is None:
        print("potluck: not a source checkout and no $POTLUCK_NATIVE_DIR: nothing to build")
        return 0
    problem = check_build(directory)
    if args.check:
        print(f"compiled build in {directory}" if problem is None else f"pure Python: {problem}")
        return 0
    if problem is None and not args.force:
        print(f"potluck: the compiled build in {directory} is up to date")
        return 0
    missing = missing_tools()
    if missing is not None:
        print(f"potluck: {missing}, so the rules run as pure Python (the same rules, slower)")
        return 0
    print(f"potluck: compiling {len(COMPILED_MODULES)} modules with mypyc ({problem})...")
    started = time.monotonic()
    build(directory, quiet=not args.verbose)
    print(f"potluck: built {directory} in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
