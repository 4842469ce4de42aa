"""The environment readers behind config/settings.py: good values read, bad values refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str, refuse_retired


@pytest.mark.parametrize("raw", ["1", "true", "True", "YES", "on", " true "])
def test_it_reads_true_spellings(raw: str) -> None:
    assert env_bool("FLAG", False, environ={"FLAG": raw}) is True


@pytest.mark.parametrize("raw", ["0", "false", "FALSE", "no", "Off"])
def test_it_reads_false_spellings(raw: str) -> None:
    assert env_bool("FLAG", True, environ={"FLAG": raw}) is False


@pytest.mark.parametrize("environ", [{}, {"FLAG": ""}, {"FLAG": "   "}])
def test_it_uses_the_bool_default_when_unset_or_blank(environ: dict[str, str]) -> None:
    assert env_bool("FLAG", True, environ=environ) is True
    assert env_bool("FLAG", False, environ=environ) is False


@pytest.mark.parametrize("raw", ["maybe", "2", "yes please", "flase"])
def test_it_refuses_a_bool_it_cannot_read(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"FLAG={raw!r} is not a boolean"):
        env_bool("FLAG", environ={"FLAG": raw})


def test_it_reads_the_process_environment_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURCOLOR_TEST_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FOURCOLOR_TEST_FLAG"):
        env_bool("FOURCOLOR_TEST_FLAG")
    monkeypatch.setenv("FOURCOLOR_TEST_FLAG", "on")
    assert env_bool("FOURCOLOR_TEST_FLAG") is True


@pytest.mark.parametrize(("raw", "expected"), [("0", 0), ("42", 42), (" 7 ", 7), ("-3", -3)])
def test_it_reads_integers(raw: str, expected: int) -> None:
    assert env_int("N", 99, environ={"N": raw}) == expected


def test_it_uses_the_int_default_when_unset() -> None:
    assert env_int("N", 99, environ={}) == 99


@pytest.mark.parametrize("raw", ["ten", "1.5", "0x10", "1e3"])
def test_it_refuses_an_int_it_cannot_read(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"N={raw!r} is not an integer"):
        env_int("N", 1, environ={"N": raw})


def test_it_refuses_ints_outside_the_bounds() -> None:
    assert env_int("N", 1, minimum=0, maximum=10, environ={"N": "10"}) == 10
    assert env_int("N", 1, minimum=0, maximum=10, environ={"N": "0"}) == 0
    with pytest.raises(ImproperlyConfigured, match="below the minimum 0"):
        env_int("N", 1, minimum=0, environ={"N": "-1"})
    with pytest.raises(ImproperlyConfigured, match="above the maximum 10"):
        env_int("N", 1, maximum=10, environ={"N": "11"})


def test_it_splits_lists_on_commas_and_trims_items() -> None:
    environ = {"HOSTS": " a.example , b.example,c "}
    assert env_list("HOSTS", environ=environ) == ["a.example", "b.example", "c"]
    assert env_list("HOSTS", environ={"HOSTS": "only"}) == ["only"]


def test_it_uses_a_copy_of_the_list_default() -> None:
    default = ["x"]
    value = env_list("HOSTS", default, environ={})
    assert value == ["x"]
    value.append("y")
    assert default == ["x"]
    assert env_list("HOSTS", environ={}) == []


@pytest.mark.parametrize("raw", ["a,,b", "a,", ",a", "a, ,b"])
def test_it_refuses_a_list_with_an_empty_item(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("HOSTS", environ={"HOSTS": raw})


def test_it_reads_strings_trimmed_and_blank_as_unset() -> None:
    assert env_str("S", environ={"S": " value "}) == "value"
    assert env_str("S", environ={}) is None
    assert env_str("S", environ={"S": "  "}) is None


@pytest.mark.parametrize(("environ", "says"), [
    ({"EMAIL_PORT": "587"}, "EMAIL_PORT is no longer read: use EMAIL_URL"),
    ({"SECURE_COOKIES": "false"}, "SECURE_COOKIES is no longer read: use HTTPS"),
    ({"GUNICORN_BIND": "0.0.0.0:80"}, "GUNICORN_BIND is no longer read: use gunicorn's own"),
    ({"API_PAGE_SIZE": "20"}, "API_PAGE_SIZE is no longer read: the setting is fixed"),
    ({"JOB_POLL_SECONDS": "5"}, "JOB_POLL_SECONDS is no longer read: use manage.py run_jobs"),
])
def test_it_refuses_a_variable_that_is_no_longer_read(environ: dict[str, str], says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        refuse_retired(environ)


def test_it_accepts_gunicorns_own_variable_and_a_blank_retired_one() -> None:
    refuse_retired({"GUNICORN_CMD_ARGS": "--workers 3", "EMAIL_HOST": " ", "DEBUG": "true"})
