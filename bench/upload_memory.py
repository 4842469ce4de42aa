"""Memory of an upload on its way through the job queue, traced (issue 12: "worker memory
within a fixed bound whatever the upload size").

    DEBUG=false SECRET_KEY=... ALLOWED_HOSTS=x DATABASE_URL=postgres://... \\
        .venv/bin/python bench/upload_memory.py [--sizes 3,30]

For each size (MB) a file of distinct valid records is written to a temporary file, then,
with tracemalloc, the peak of Python allocations while (1) the request's part stores it as a
job (`jobs.queue.create_import_job` over the open file, 1 MiB JobChunk rows), (2) the worker
reads it back (`jobs.payload.read`), (3) the worker counts its records for the progress bar
(`count_records` over that stream). Run with DEBUG off: with DEBUG on Django keeps every
query with its parameters, the chunks included. The job is deleted afterwards.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def traced(step: Callable[[], Any]) -> tuple[Any, float]:
    tracemalloc.start()
    try:
        result = step()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="3,30", help="megabytes, comma-separated")
    args = parser.parse_args()
    import django

    django.setup()
    from fault_worker_kill import make_file

    from jobs import payload
    from jobs.queue import create_import_job
    from jobs.tasks import _source
    from records.services import count_records

    print("size MB | records | store peak MiB | read peak MiB | count peak MiB")
    for size in (float(s) for s in args.sizes.split(",")):
        text, _ = make_file(int(size * 1_000_000 / 780), "memory")
        with tempfile.NamedTemporaryFile(suffix=".fcn") as file:
            file.write(text.encode())
            file.flush()
            del text
            with open(file.name, "rb") as upload:
                job, store = traced(lambda: create_import_job(upload, None, "memory.fcn"))
        _, read = traced(lambda job=job: sum(len(p) for p in payload.read(job.pk,
                                                                          as_text=False)))
        records, count = traced(lambda job=job: count_records(_source(job)))
        print(f"{job.payload_size / 1e6:7.1f} | {records:7,} | {store:14.2f} | {read:13.2f} | "
              f"{count:14.2f}")
        job.delete()
    return 0


if __name__ == "__main__":
    sys.exit(main())
