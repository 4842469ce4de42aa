"""Name search as people type: without accents, in any case, by the start of any word.

Vietnamese players mostly type without diacritics, so "nguyen" must find "Nguyễn Văn An" and
"an" must find him too. Every searchable name (a player's, an uploader's username, a match's
tag) is folded into words (`words`) kept in one table, `NameWord`, indexed for "starts with":
a search reads that index, never scans the names. A query's words must each start some word
of the name: "ng an" finds "Nguyễn Văn An", "van ng" finds him too.

Folding (`fold`): NFKD with the combining marks dropped, casefolded, and the letters that do
not decompose mapped by hand (đ/Đ to d, ...). A word is a run of letters and digits. A word
of wide (CJK) characters, written without spaces, is also indexed from each of its characters
on, so "小明" finds "王小明".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from django.db import models
from django.db.models import Lookup, QuerySet

# Letters NFKD leaves whole, as a reader without the accent would type them.
_UNDECOMPOSED = str.maketrans({"đ": "d", "ð": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe",
                               "ß": "ss", "ı": "i"})
_WORD = re.compile(r"[^\W_]+")
# A folded word is at most this long in the index (longer ones are cut: a prefix still finds
# them); PostgreSQL's btree entries are limited, and nobody types 100 letters to search.
MAX_WORD = 100
# A query's words beyond this many are ignored (a name has a few; each costs a subquery).
MAX_QUERY_WORDS = 8


def fold(text: str) -> str:
    """`text` without accents, casefolded: "Nguyễn Đức" -> "nguyen duc"."""
    # Casefolded between two decompositions: a compatibility character may decompose into
    # capitals ("🄐" to "(A)"), and casefolding may give a letter with a mark ("İ" to "i̇").
    decomposed = unicodedata.normalize(
        "NFKD", unicodedata.normalize("NFKD", text).casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_UNDECOMPOSED)


def _wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in ("W", "F")


def words(text: str) -> list[str]:
    """The folded words of a name as the index keeps them (in order, without repeats)."""
    found: dict[str, None] = {}
    for word in _WORD.findall(fold(text)):
        found[word[:MAX_WORD]] = None
        if _wide(word[0]):
            for start in range(1, len(word)):
                found[word[start:start + MAX_WORD]] = None
    return list(found)


def query_words(text: str) -> list[str]:
    """The folded words of what a visitor typed (each must start a word of the name)."""
    return [word[:MAX_WORD] for word in _WORD.findall(fold(text))]


class StartsWith(Lookup):  # type: ignore[type-arg]
    """``word__starts=...``: the column starts with the value, as an index range.

    Django's ``startswith`` is a ``LIKE`` that SQLite cannot answer from a plain index (its
    ``LIKE`` ignores ASCII case), so SQLite gets the equivalent range of the binary order;
    PostgreSQL gets ``LIKE`` against the ``varchar_pattern_ops`` index (its default collation
    does not sort by code point, so a range would be wrong there)."""

    lookup_name = "starts"

    def as_sql(self, compiler, connection):  # type: ignore[no-untyped-def]
        lhs, lhs_params = self.process_lhs(compiler, connection)
        value = str(self.rhs)
        if connection.vendor == "postgresql":
            escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            return f"{lhs} LIKE %s", [*lhs_params, escaped + "%"]
        return f"({lhs} >= %s AND {lhs} < %s)", [
            *lhs_params, value, *lhs_params, value + "\U0010ffff"
        ]


class SearchWordField(models.CharField):  # type: ignore[type-arg]
    """A folded word (the ``starts`` lookup is registered on it)."""


SearchWordField.register_lookup(StartsWith)


class NameWord(models.Model):
    """One folded word of a searchable name: a player's, an uploader's or a match's."""

    class Kind(models.TextChoices):
        PLAYER = "player"
        USER = "user"
        MATCH = "match"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    ref = models.BigIntegerField(help_text="the player's, user's or match's id")
    word = SearchWordField(max_length=MAX_WORD)

    class Meta:
        app_label = "records"
        constraints = [
            # The search's index: "starts with" on the word, the ids read from the index
            # itself. PostgreSQL's LIKE 'x%' needs the pattern operator class; other databases
            # ignore it and read the range.
            models.UniqueConstraint(
                fields=["kind", "word", "ref"], name="name_word_prefix",
                opclasses=["varchar_pattern_ops", "varchar_pattern_ops", "int8_ops"],
            ),
        ]
        indexes = [models.Index(fields=["kind", "ref"], name="name_word_ref")]  # upkeep

    def __str__(self) -> str:
        return f"{self.kind} {self.ref}: {self.word}"


def index_new_names(kind: str, names: Mapping[int, str]) -> None:
    """Index the names of new rows of `kind` (id -> name); words already there are kept."""
    if not names:
        return
    NameWord.objects.bulk_create(
        [NameWord(kind=kind, ref=ref, word=word)
         for ref, name in names.items() for word in words(name)],
        batch_size=1000, ignore_conflicts=True,
    )


def index_names(kind: str, names: Mapping[int, str]) -> None:
    """Index the names of `kind` again (a renamed user): their old words are replaced."""
    NameWord.objects.filter(kind=kind, ref__in=list(names)).delete()
    index_new_names(kind, names)


def matching(kind: str, query: str) -> QuerySet[NameWord] | None:
    """The ids (`ref`) of the names of `kind` every word of `query` starts a word of, as a
    subquery for ``pk__in``; None when the query has no word (it filters nothing).

    Each further word is a sibling subquery of the first (``ref IN (...) AND ref IN (...)``),
    never nested in the one before: SQLite's parser overflows at about nine levels. A word
    that starts another word of the query adds nothing and is left out; past `MAX_QUERY_WORDS`
    the rest of the query is ignored."""
    typed = list(dict.fromkeys(query_words(query)))
    needed = [word for word in typed
              if not any(other != word and other.startswith(word) for other in typed)]
    if not needed:
        return None
    first, *others = needed[:MAX_QUERY_WORDS]
    refs = NameWord.objects.filter(kind=kind, word__starts=first)
    for word in others:
        refs = refs.filter(ref__in=NameWord.objects.filter(
            kind=kind, word__starts=word).values("ref"))
    return refs.values("ref").distinct()


def search(queryset: QuerySet[models.Model], kind: str, query: str,
           field: str = "pk") -> QuerySet[models.Model]:
    """`queryset` narrowed to the rows whose `field` (an id of `kind`) matches `query`."""
    refs = matching(kind, query)
    return queryset if refs is None else queryset.filter(**{f"{field}__in": refs})

