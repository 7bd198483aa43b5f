"""The gradient of padding: each input element receives the sum of the output gradient over
the positions it was copied to (cropped elements and constant borders give nothing back).

The index map of a pad is a product of per-axis maps, so the gradient is reduced one padded
axis at a time: the run of positions that copy the input in order is one narrow copy, the
few border positions are summed in with index_add_. Both are differentiable torch
operations, so higher-order gradients work too."""

import torch

__all__ = ["index_maps", "pad_backward", "source"]

_CONSTANT, _EDGE, _REFLECT, _SYMMETRIC, _WRAP = 0, 1, 2, 3, 4  # ndpad_mode


def source(mode, d, k):
    """Source index of input positions `k` (a LongTensor) of an axis of extent d (api.md's
    mapping), -1 where the output takes the pad value."""
    if mode == _CONSTANT:
        return torch.where((k >= 0) & (k < d), k, torch.full_like(k, -1))
    if mode == _EDGE:
        return k.clamp(0, d - 1)
    if mode == _REFLECT:
        if d == 1:
            return torch.zeros_like(k)
        period = 2 * (d - 1)
        m = k.remainder(period)
        return torch.where(m < d, m, period - m)
    if mode == _SYMMETRIC:
        period = 2 * d
        m = k.remainder(period)
        return torch.where(m < d, m, period - 1 - m)
    return k.remainder(d)  # _WRAP


def index_maps(shape, pads_begin, pads_end, mode, crop_first):
    """Per padded axis: (axis, out_start, in_start, length, border_out, border_src): output
    positions [out_start, out_start + length) copy input [in_start, ...) in order, and the
    output positions border_out copy input positions border_src.

    crop_first: negative pads crop before the others pad, and borders come from the cropped
    part (torch's circular padding); otherwise borders come from the whole input."""
    maps = []
    for axis, (d, b, e) in enumerate(zip(shape, pads_begin, pads_end)):
        if b == 0 and e == 0:
            continue
        n = d + b + e
        j = torch.arange(n, dtype=torch.int64)
        if crop_first:
            lo = max(-b, 0)
            kept = d + min(b, 0) + min(e, 0)
            out_start, in_start, length = max(b, 0), lo, kept
            src = lo + source(mode, kept, j - out_start) if kept else torch.full_like(j, -1)
        else:
            out_start = max(b, 0)
            length = max(min(b + d, n) - out_start, 0)
            in_start = out_start - b
            src = source(mode, d, j - b) if d else torch.full_like(j, -1)
        border = torch.ones(n, dtype=torch.bool)
        border[out_start:out_start + length] = False
        border &= src >= 0
        border_out = border.nonzero().flatten()
        maps.append((axis, out_start, in_start, length, border_out, src[border_out]))
    return maps


def pad_backward(grad, shape, maps):
    """The input's gradient from the output's `grad`, for the maps of index_maps()."""
    g = grad
    for axis, out_start, in_start, length, border_out, border_src in maps:
        size = list(g.shape)
        size[axis] = shape[axis]
        res = g.new_zeros(size)
        if length > 0:
            res.narrow(axis, in_start, length).copy_(g.narrow(axis, out_start, length))
        if border_out.numel():
            res = res.index_add(axis, border_src, g.index_select(axis, border_out))
        g = res
    return g
