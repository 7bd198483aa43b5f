"""The torch ndpad.torch needs, checked when ndpad.torch is imported (its first import of the
package, before any module that needs torch 2.4's torch.library)."""

import torch

MIN_TORCH = (2, 4)


def _version(text):
    parts = []
    for piece in text.split("+")[0].split(".")[:2]:
        digits = "".join(c for c in piece if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if _version(torch.__version__) < MIN_TORCH:
    raise ImportError("ndpad.torch needs torch >= %d.%d (torch.library.register_fake, "
                      "register_autograd); this is torch %s" % (MIN_TORCH + (torch.__version__,)))
