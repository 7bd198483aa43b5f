"""threadpoolctl's controller for libndpad: `threadpool_info()` lists it and
`threadpool_limits(n)` caps its default thread count, as they do for OpenBLAS and OpenMP
(scikit-learn, numpy and joblib users cap every native pool this way). Registered when
ndpad is imported and threadpoolctl (3.5 or later: `register`) is installed."""

import ctypes

try:
    from threadpoolctl import LibController, register
except ImportError:  # threadpoolctl missing or older than 3.5: nothing to register
    LibController = register = None

__all__ = []

if LibController is not None:

    class NdpadController(LibController):
        """libndpad's threads: ndpad_get_default_threads / ndpad_set_default_threads, the
        budget of every call that leaves its thread count to the library (ndpad.pad without
        threads=, ndpad.dask's blocks run at one thread regardless)."""

        user_api = "ndpad"
        internal_api = "ndpad"
        filename_prefixes = ("libndpad",)
        check_symbols = ("ndpad_get_default_threads", "ndpad_set_default_threads")

        def _calls(self):
            self.dynlib.ndpad_get_default_threads.restype = ctypes.c_int32
            self.dynlib.ndpad_get_default_threads.argtypes = []
            self.dynlib.ndpad_set_default_threads.restype = ctypes.c_int
            self.dynlib.ndpad_set_default_threads.argtypes = [ctypes.c_int32]
            return self.dynlib

        def get_num_threads(self):
            return int(self._calls().ndpad_get_default_threads())

        def set_num_threads(self, num_threads):
            # threadpoolctl passes the count to restore as well as the limit: both >= 1.
            return self._calls().ndpad_set_default_threads(max(int(num_threads), 0))

        def get_version(self):
            version = getattr(self.dynlib, "ndpad_version", None)
            if version is None:
                return None
            version.restype = ctypes.c_char_p
            version.argtypes = []
            return version().decode()

    register(NdpadController)
