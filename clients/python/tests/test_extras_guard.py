"""The core needs only the standard library; the modules for other libraries say which extra is
missing. Run in a child interpreter where numpy, gymnasium, pettingzoo and pyspiel cannot be
imported (whatever this machine has)."""

from __future__ import annotations

import subprocess
import sys
import unittest

from _support import CLIENT

CHILD = """
import sys
for name in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    sys.modules[name] = None  # import raises ImportError
import meeplekit_client
assert not meeplekit_client.HAVE_NUMPY
for module, extra in (("pettingzoo", "pettingzoo"), ("gymnasium", "gymnasium")):
    try:
        __import__("meeplekit_client." + module)
    except ImportError as e:
        assert f"pip install 'meeplekit-client[{extra}]'" in str(e), str(e)
    else:
        raise AssertionError(module + " imported without its extra")
from meeplekit_client import openspiel
assert not openspiel.available()
try:
    openspiel.register()
except ImportError as e:
    assert "pip install 'meeplekit-client[openspiel]'" in str(e), str(e)
else:
    raise AssertionError("register() without pyspiel")
print("ok")
"""


class ExtrasGuardTest(unittest.TestCase):
    def test_core_imports_without_the_extras(self):
        out = subprocess.run([sys.executable, "-c", CHILD], cwd=str(CLIENT), capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "ok")


if __name__ == "__main__":
    unittest.main()
