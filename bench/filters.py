"""The archive's filters against an earlier version of `records/filters.py`, side by side in one
process (issue 16 item 3: one filter value): the SQL each builds for the same query parameters,
and the CPU time to parse the parameters and build that SQL.

    .venv/bin/python bench/filters.py --against d5c8ecb            # 300 interleaved rounds
    .venv/bin/python bench/filters.py --against d5c8ecb --rounds 50

`--against REV`: the module as it was at REV (`git show REV:records/filters.py`), loaded beside
the current one; both build a queryset of `GameFilter(params).qs` for each case, interleaved,
CPU time by `time.process_time` (a ratio that a loaded machine moves little). No database is
queried: the SQL is compiled, not run.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import tempfile
import time
from pathlib import Path
from types import ModuleType

from _common import machine_line

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

CASES = [
    {},
    {"player": "Ann"},
    {"player": "Ann", "opponent": "Bo", "ruleset": "bga"},
    {"players": "3", "outcome": "win", "since": "2024-01-01", "until": "2024-12-31"},
    {"match": "4", "min_points": "10", "ordering": "-plies,date"},
    {"uploaded_by": "ann"},
    {"players": "7", "since": "bad", "ordering": "colour"},  # invalid ones are left out
]


def module_at(rev: str, folder: str) -> ModuleType:
    text = subprocess.run(["git", "show", f"{rev}:records/filters.py"], check=True,
                          capture_output=True, text=True).stdout
    path = Path(folder) / "filters_before.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("filters_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sql(module: ModuleType, params: dict[str, str]) -> str:
    from records.models import Game

    return str(module.GameFilter(params, queryset=Game.objects.all()).qs.query)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    import django

    django.setup()
    from records import filters as current

    print(machine_line())
    with tempfile.TemporaryDirectory() as folder:
        before = module_at(args.against, folder)
        same = sum(sql(before, params) == sql(current, params) for params in CASES)
        print(f"the same SQL for {same} of {len(CASES)} cases")
        cpu = {"before": 0.0, "now": 0.0}
        for _ in range(args.rounds):
            for name, module in (("before", before), ("now", current)):
                start = time.process_time()
                for params in CASES:
                    sql(module, params)
                cpu[name] += time.process_time() - start
    for name, total in cpu.items():
        print(f"{name}: {total / (args.rounds * len(CASES)) * 1e6:.0f} µs CPU per parse and build")
    print(f"now / before: {cpu['now'] / cpu['before']:.3f}")


if __name__ == "__main__":
    main()
