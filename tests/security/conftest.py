"""Fixtures for the security tests: the web tests' archive and users.

(The browser check of the Content-Security-Policy lives with the other browser tests, in
tests/web/browser/test_content_security_policy.py: one Chromium per session.)
"""

from __future__ import annotations

# Re-exported so that pytest finds them here too (they are defined for tests/web/).
from tests.web.conftest import (  # noqa: F401
    archive,
    empty_cache,
    shared_archive,
    user,
)
