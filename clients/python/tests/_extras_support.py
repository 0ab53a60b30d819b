"""Tests of the modules for other libraries (PettingZoo, Gymnasium, OpenSpiel): they need those
libraries, which the standard-library-only client does not. Without them such a test is skipped
and says which package is missing and how to install it; with ``MEEPLEKIT_REQUIRE_EXTRAS=1`` (as
CI sets in the virtual environment it installs them into) a missing library fails the test
instead, so that a broken install cannot pass as skips."""

from __future__ import annotations

import importlib.util
import os
import unittest

REQUIRE = os.environ.get("MEEPLEKIT_REQUIRE_EXTRAS", "") not in ("", "0")


def needs(extra, *modules):
    """A class decorator: the test case runs only if every one of ``modules`` can be imported."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]

    def decorate(cls):
        if not missing:
            return cls
        reason = f"needs {', '.join(missing)}: pip install 'meeplekit-client[{extra}]' (or ./clients/python[{extra}])"
        if not REQUIRE:
            return unittest.skip(reason)(cls)

        @classmethod
        def fail(klass):
            raise AssertionError(f"MEEPLEKIT_REQUIRE_EXTRAS is set, but the test {reason}")

        cls.setUpClass = fail
        return cls

    return decorate
