"""The compiled engine (fourcolor/compiled.py): mypyc over the reviewer's hot modules, built
into fourcolor/_compiled/ with the stamp of the sources it was built from. `make install` runs
it; without mypy or a C compiler it says so and builds nothing: the engine stays pure Python.

    .venv/bin/python scripts/build_native.py          # MYPYC_OPT_LEVEL=0..3 (default 1)
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "fourcolor"


def main() -> int:
    sys.path.insert(0, str(PACKAGE.parent))
    from fourcolor.compiled import FOLDER, MODULES, STAMP, digest

    target = PACKAGE / FOLDER
    shutil.rmtree(target, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # A copy: the sources compiled are the ones stamped, whatever is edited meanwhile.
        shutil.copytree(PACKAGE, work / "fourcolor",
                        ignore=shutil.ignore_patterns("__pycache__", FOLDER))
        os.chdir(work)
        try:
            from mypyc.build import mypycify
            from setuptools import Distribution
            level = os.environ.get("MYPYC_OPT_LEVEL", "1")
            modules = mypycify([f"fourcolor/{m}.py" for m in MODULES], opt_level=level,
                               group_name="fourcolor._native", debug_level="0")
            dist = Distribution({"name": "fourcolor-compiled", "ext_modules": modules})
            build = dist.get_command_obj("build_ext")
            build.build_lib, build.build_temp = str(work / "lib"), str(work / "temp")
            dist.run_command("build_ext")
        except (Exception, SystemExit) as error:  # no mypy, no compiler, a failed build
            print(f"scripts/build_native.py: no compiled engine, pure Python ({error!r:.300})")
            return 0
        target.mkdir()
        for built in (work / "lib" / "fourcolor").glob("*.so"):
            shutil.copy2(built, target / built.name)
        (target / STAMP).write_text(digest(work / "fourcolor"))  # last: a whole build or none
    print(f"scripts/build_native.py: compiled {', '.join(MODULES)} into fourcolor/{FOLDER}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
