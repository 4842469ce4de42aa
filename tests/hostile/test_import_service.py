"""(b) The import service, `records.services.import_records` (a stream of pieces, as a file
reader gives them) and `import_texts` (one text per record, as an NDJSON import gives them):
every record of every hostile input gets the manifest's verdict, and the database then holds
exactly the stored records, whole."""

from __future__ import annotations

import io

import pytest

import fourcolor
from records.models import Game
from records.services import ImportReport, import_records, import_texts

from .checks import Verdict, assert_database_holds, assert_verdicts, deadline
from .corpus import CASES, Case, params

pytestmark = pytest.mark.django_db


def verdicts(report: ImportReport) -> list[Verdict]:
    out = []
    for result in report.results:
        error = result.error or {}
        out.append(Verdict(result.status, error.get("line"), error.get("col"), error.get("ply"),
                           error.get("category"), str(error.get("message") or "")))
    return out


def assert_counts(case: Case, report: ImportReport) -> None:
    assert (report.stored, report.duplicates, report.refused) == (
        case.stored, case.duplicates, case.refused)


@pytest.mark.parametrize("case", params())
def test_it_imports_each_input_as_the_manifest_says(case: Case) -> None:
    with deadline(case.seconds):
        report = import_records(case.chunks())
    assert_counts(case, report)
    assert_verdicts(case, verdicts(report))
    assert_database_holds(case, case.data())


@pytest.mark.parametrize("case", params(c for c in CASES if c.file is not None))
def test_it_imports_each_input_from_a_binary_file(case: Case) -> None:
    with deadline(case.seconds):
        report = import_records(io.BytesIO(case.data()))
    assert_counts(case, report)
    assert_verdicts(case, verdicts(report))
    assert_database_holds(case, case.data())


@pytest.mark.parametrize(
    "case", params(c for c in CASES if c.file is not None and c.text_in_json)
)
def test_it_imports_each_record_text_on_its_own(case: Case) -> None:
    """import_texts counts lines from 1 in each text: the refusal sits at the same place,
    shifted by the line the record started on in the file."""
    text = case.data().decode("utf-8-sig")
    pieces = list(fourcolor.iter_records(io.StringIO(text, newline="")))
    with deadline(case.seconds):
        report = import_texts([piece.text for piece in pieces])
    assert_counts(case, report)
    shifted = [
        Verdict(v.status, None if v.line is None else v.line + piece.line - 1, v.col, v.ply,
                v.category, v.message)
        for v, piece in zip(verdicts(report), pieces, strict=True)
    ]
    assert_verdicts(case, shifted)
    assert_database_holds(case, case.data())


def test_it_stores_nothing_twice_when_the_same_hostile_file_comes_again() -> None:
    case = next(c for c in CASES if c.name == "malformed_records")
    import_records(case.data())
    again = import_records(case.data())
    assert (again.stored, again.duplicates, again.refused) == (0, case.stored, case.refused)
    assert Game.objects.count() == case.stored
