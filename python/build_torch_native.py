#!/usr/bin/env python3
"""Compiles libndpad_torch.so for a source checkout: `python3 python/build_torch_native.py
OUTPUT [--include DIR]` (ndpad/_torch_build.py does the work; loaded by path, so that
libndpad need not be loadable here)."""

import importlib.util
import os
import sys

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ndpad", "_torch_build.py")
spec = importlib.util.spec_from_file_location("_ndpad_torch_build", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)

build = module.build  # setup.py's names
Unavailable = module.Unavailable
LIBRARY_NAME = module.LIBRARY_NAME

if __name__ == "__main__":
    sys.exit(module.main())
