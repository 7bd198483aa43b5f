"""Test set-up: import the package from this source tree (python/) unless
NDPAD_TEST_INSTALLED=1 asks for the installed one. libndpad itself is found as the package
always finds it (NDPAD_LIBRARY, next to the package, the system)."""

import os
import sys

if os.environ.get("NDPAD_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
