"""ndpad: numpy.pad's drop-in over libndpad, a multi-threaded C library that pads and crops
N-dimensional tensors.

    import numpy as np, ndpad
    ndpad.pad(np.arange(4), 2, "reflect")          # same call and result as numpy.pad
    ndpad.pad(x, 1, "edge", threads=2, out=buf)     # extra keyword-only arguments
    ndpad.crop_pad(x, [-1, 2], [1, -2], "reflect")  # negative pads crop (OpenVINO Pad-12)
    ndpad.center_crop_pad(img, [224, 224], axes=[0, 1])  # ONNX CenterCropPad
    ndpad.pad_per_index(img, ((1, 1), (1, 1), (0, 0)), mean)  # a pad value per channel
    ndpad.pad_packed(int4_bytes, (4, 6), 1, "edge", bits=4)  # packed 1/2/4-bit elements

Other array libraries: ndpad.pad takes any array that exports DLPack in CPU memory (torch,
JAX, array-API arrays) without copying it and returns that library's array;
ndpad.array_api.pad is array_api_extra.pad's signature with every mode.

PyTorch: `import ndpad.torch` (torch.nn.functional.pad over libndpad, install()).

libndpad is loaded with ctypes from, in order: the path in the NDPAD_LIBRARY environment
variable (a file, or a directory holding libndpad.so), the libndpad.so next to this file
(pip builds and installs it there), the dynamic loader's search path (LD_LIBRARY_PATH,
ld.so.cache), ctypes.util.find_library, and the lib directories of common install prefixes
(/usr/local, this Python's prefix).
"""

from ._lib import NdpadError, NdpadMemoryError, NdpadValueError, library_path
from ._packed import center_crop_pad_packed, crop_pad_packed, pack, pad_packed, unpack
from ._pad import center_crop_pad, crop_pad, pad, pad_per_index
from . import array_api  # noqa: F401  (ndpad.array_api.pad)
from . import _threadpoolctl  # noqa: F401  (registers threadpoolctl's controller for libndpad)

__version__ = "0.1.0"
__all__ = ["pad", "pad_per_index", "crop_pad", "center_crop_pad", "pad_packed", "crop_pad_packed",
           "center_crop_pad_packed", "pack", "unpack", "NdpadError", "NdpadValueError",
           "NdpadMemoryError", "library_path", "array_api", "__version__"]
