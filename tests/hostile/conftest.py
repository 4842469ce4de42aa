"""Fixtures for the hostile-input tests: a clean cache (throttle counters) and signed-in users
for the web form (session) and the API (token)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from records.tokens import create_token
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Upload throttle counters never carry over from one case to the next."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user(db: None) -> User:
    return User.objects.create_user("hostile-uploader")


@pytest.fixture
def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def token_client(user: User) -> APIClient:
    key = create_token(user, "test")[1]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client

