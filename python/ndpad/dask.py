"""ndpad.dask: numpy.pad and ndpad.crop_pad for dask arrays, on one machine or a cluster.

    import dask.array as da, ndpad.dask
    x = da.random.random((20000, 20000), chunks=4096).astype("float32")
    y = ndpad.dask.pad(x, 16, "reflect")        # a dask array equal to numpy.pad(x, 16, ...)
    y.rechunk(4096).to_zarr("padded.zarr")       # zarr wants regular chunks; any scheduler

The graph: along each axis, the output's chunks are the input's chunks over the interior
and border regions split into chunks no larger than the input's largest chunk on that
axis, and no chunk straddles a border/interior seam. An output block whose every axis is
interior IS the input block (the graph names the input's key: no task, no copy). Every
other block is one task that writes the same bytes as that block of the whole padded
array with window plans (ndpad_window_plan_create) run on the input where it lies: the
block is split into runs whose input box (ndpad_window_input_box) lies in one input
block, and each run's plan reads that block in place. A block that reads one input block
depends on it (dask runs the task where it is); one that reads several depends on the one
holding most of what it reads and on strips of the others, tasks that slice out only the
part it reads where each block is. Only when tiny chunks would make many runs is the box
gathered first. A block that reads nothing and holds one value is a broadcast of it.
pad(..., chunks=...) gives output chunks of the caller's choice instead (a zarr array's),
each block made the same way from the input blocks it reads.

Modes constant (one value, or per axis/side in numpy's corner order), edge, reflect,
symmetric (reflect_type "even"), wrap and empty run this way, with numpy >= 2.1's results
for pads larger than an axis (as ndpad.pad). linear_ramp, maximum, mean, median and
minimum take numpy.pad's own steps on dask arrays (axis after axis, numpy's calls on the
same values: equal to numpy.pad bit for bit, where dask.array.pad's sums differ and it has
no median). Callables, reflect_type "odd", object dtypes in the ndpad modes above and
numpy 2's new-style dtypes (StringDType, user dtypes) are handed to dask.array.pad.
Bad arguments raise what numpy.pad raises. A result of one block is a new writable array
(never a view of the input, a broadcast or the input block itself), as dask.array.pad's.

Threads: every block's plans run at one thread, on the thread dask runs the task on (a
worker thread: dask already runs one task per thread), so ndpad starts no thread of its
own in a dask worker and a worker's threads are dask's to count (issue 31; tested on a
LocalCluster of worker processes).
"""

import bisect
import itertools

import numpy as np

import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _lib
from . import _args, _constant, _native

__all__ = ["pad", "crop_pad", "graph_tasks"]

# numpy.pad's keyword arguments per mode: its checks, in its order.
_ALLOWED_KWARGS = {
    "empty": (), "edge": (), "wrap": (),
    "constant": ("constant_values",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def pad(x, pad_width, mode="constant", *, chunks=None, **kwargs):
    """numpy.pad for a dask array: returns a dask array equal to
    numpy.pad(x.compute(), pad_width, mode, **kwargs) (numpy >= 2.1's results).

    x: a dask.array.Array (anything else goes through dask.array.asarray).
    pad_width, mode, **kwargs: exactly as numpy.pad.
    chunks: None (default): the output's chunks follow the input's (the module's graph
        rules). Otherwise the output's chunks, in any form dask.array.Array.rechunk takes
        (e.g. the input's chunksize, or a zarr array's chunks): each block is then made
        directly from the input blocks it reads, without the pass over the whole array that
        rechunking the default result would take. A block equal to an input block is still
        that block."""
    x = da.asarray(x)
    ndim = x.ndim
    widths = _args.pad_widths(pad_width, ndim)  # numpy's TypeError / ValueError
    if chunks is None and not any(b or e for b, e in widths) and (
            callable(mode) or (mode in _ALLOWED_KWARGS and
                               set(kwargs) <= set(_ALLOWED_KWARGS[mode]))):
        return x  # as dask.array.pad: a zero pad is the input array itself
    if callable(mode):
        return _rechunked(da.pad(x, pad_width, mode, **kwargs), chunks)
    if mode not in _ALLOWED_KWARGS:
        raise ValueError("mode '{}' is not supported".format(mode))
    unsupported = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    if unsupported:
        raise ValueError("unsupported keyword arguments for mode '{}': {}"
                         .format(mode, unsupported))
    if mode in _NUMPY_MODES and not _args.new_style_dtype(x.dtype) and ndim:
        _check_known_chunks(x)
        _check_empty_axes(x, widths)
        return _rechunked(_numpy_mode(x, widths, mode, kwargs), chunks)
    if (mode not in _args.NATIVE_KWARGS or x.dtype.hasobject or x.dtype.itemsize == 0 or
            _args.new_style_dtype(x.dtype) or
            not 1 <= ndim <= _lib.MAX_RANK or
            (mode in ("reflect", "symmetric") and not _args.is_even(kwargs))):
        return _rechunked(da.pad(x, pad_width, mode, **kwargs), chunks)
    _check_known_chunks(x)
    if mode not in ("constant", "empty"):
        _check_empty_axes(x, widths)

    pad_value, slabs = None, []
    if mode == "constant":
        pad_value, slabs = _constant_values(x, widths, kwargs.get("constant_values", None))
    native = "constant" if mode == "empty" else mode  # empty: any border value will do
    return _padded(x, _lib.MODES[native], [b for b, _ in widths], [e for _, e in widths],
                   None, pad_value, slabs, "ndpad-pad-" + mode, chunks)


def crop_pad(x, pads_begin, pads_end, mode="constant", value=0, interior=None, *,
             chunks=None):
    """ndpad.crop_pad for a dask array (OpenVINO Pad-12 / nGraph Pad: negative pads crop,
    borders come from the whole input, interior padding in mode "constant"); arguments and
    errors as ndpad.crop_pad, `chunks` as for pad(). Returns a dask array."""
    x = da.asarray(x)
    ndim = x.ndim
    if ndim > _lib.MAX_RANK:
        raise ValueError("ndpad supports at most %d axes, got %d" % (_lib.MAX_RANK, ndim))
    if not isinstance(mode, str) or mode not in _lib.MODES:
        raise ValueError("mode %r is not supported by crop_pad (one of %s)"
                         % (mode, ", ".join(_lib.MODES)))
    if x.dtype.hasobject or x.dtype.itemsize == 0 or _args.new_style_dtype(x.dtype):
        raise TypeError("ndpad.dask.crop_pad needs a dtype without Python objects, got %s"
                        % x.dtype)
    pb = _args.per_axis(pads_begin, ndim, "pads_begin")
    pe = _args.per_axis(pads_end, ndim, "pads_end")
    inter = None if interior is None else _args.per_axis(interior, ndim, "interior")
    if chunks is None and not any(pb) and not any(pe) and not any(inter or ()):
        return x  # nothing to pad or crop: the input array itself (as pad)
    _check_known_chunks(x)
    pad_value = None
    if mode == "constant":
        pad_value = _constant.value_bytes(value, x.dtype)
    probe, keep = _lib.make_problem(_lib.MODES[mode], x.dtype.itemsize, x.shape, pb, pe,
                                    interior=inter, pad_value=pad_value)
    _lib.output_shape(probe)  # validates the whole problem: NdpadValueError naming the axis
    del keep
    return _padded(x, _lib.MODES[mode], pb, pe, inter, pad_value, [], "ndpad-crop-pad",
                   chunks)


def _check_empty_axes(x, widths):
    """numpy.pad's error for an empty axis padded in a mode that reads data."""
    if x.size == 0:
        for axis, pair in enumerate(widths):
            if x.shape[axis] == 0 and any(pair):
                raise ValueError("can't extend empty axis {} using modes other than "
                                 "'constant' or 'empty'".format(axis))


# --------------------------------------------------------------------------------------
# linear_ramp and the statistics: numpy.pad's own steps, axis after axis, on dask arrays
# --------------------------------------------------------------------------------------

_NUMPY_MODES = ("linear_ramp", "maximum", "mean", "median", "minimum")
_STAT_FUNCTIONS = {"maximum": np.amax, "minimum": np.amin, "mean": np.mean,
                   "median": np.median}


def _at(axis, sl, ndim):
    return (slice(None),) * axis + (sl,) + (slice(None),) * (ndim - axis - 1)


def _numpy_mode(x, widths, mode, kwargs):
    """numpy.pad's linear_ramp, maximum, mean, median and minimum as numpy computes them:
    axis after axis, each pad from the array padded along the axes before (numpy's
    corners), with numpy's own calls on the same values (np.linspace on the edge, the
    statistic over the whole stat_length along the axis, numpy's rounding for integers and
    its assignment's cast), so the result equals numpy.pad's bit for bit. A statistic's
    block holds its stat_length along the axis (the other axes keep their chunks); a ramp's
    border slab (one side of one axis) is one task."""
    ndim, dtype = x.ndim, x.dtype
    new_shape = tuple(d + b + e for d, (b, e) in zip(x.shape, widths))
    if x.size == 0:  # numpy's empty-axis check passed: nothing to compute
        return da.empty(new_shape, dtype=dtype)
    if mode == "linear_ramp":
        pairs = _args.as_pairs(kwargs.get("end_values", 0), ndim)
    else:
        func = _STAT_FUNCTIONS[mode]
        pairs = []
        for axis, (left, right) in enumerate(
                _args.as_pairs(kwargs.get("stat_length", None), ndim, as_index=True)):
            d = x.shape[axis]  # numpy clamps to the axis, then checks maximum/minimum
            left = d if left is None or d < left else int(left)
            right = d if right is None or d < right else int(right)
            if (left == 0 or right == 0) and mode in ("maximum", "minimum"):
                raise ValueError("stat_length of 0 yields no value for padding")
            pairs.append((left, right))
    y = x
    for axis, (b, e) in enumerate(widths):
        if not (b or e):
            continue
        d = y.shape[axis]
        if mode == "linear_ramp":
            left = _ramp(y[_at(axis, slice(0, 1), ndim)], pairs[axis][0], b, axis, False)
            right = _ramp(y[_at(axis, slice(d - 1, d), ndim)], pairs[axis][1], e, axis,
                          True)
        else:
            lo, hi = pairs[axis]
            left = _stat(y[_at(axis, slice(0, lo), ndim)], func, axis, dtype)
            right = left if lo == hi == d else \
                _stat(y[_at(axis, slice(d - hi, d), ndim)], func, axis, dtype)
            shape = list(y.shape)
            left = da.broadcast_to(left, tuple(shape[:axis] + [b] + shape[axis + 1:]))
            right = da.broadcast_to(right, tuple(shape[:axis] + [e] + shape[axis + 1:]))
        y = da.concatenate([part for part, n in ((left, b), (y, 1), (right, e)) if n],
                           axis=axis)
    return y


def _stat_block(block, func, axis, dtype):
    stat = func(block, axis=axis, keepdims=True)
    if np.issubdtype(dtype, np.integer):
        stat.round(out=stat)  # numpy.pad rounds a statistic for an integer array
    out = np.empty(stat.shape, dtype=dtype)
    out[...] = stat  # and assigns it (the assignment's cast)
    return out


def _stat(part, func, axis, dtype):
    """numpy's statistic of `part` along `axis` (kept as extent 1), cast as numpy.pad
    assigns it; each block holds the whole axis, so the reduction is numpy's own."""
    # numpy's reduction order depends on which axes have more than one element (an axis
    # of one is dropped, and the reduced axis may become the inner loop: pairwise sums):
    # no block has one element on an axis numpy's slab has more of.
    whole = part.rechunk({k: -1 if k == axis else _no_unit_chunks(c)
                          for k, c in enumerate(part.chunks)})
    chunks = tuple((1,) if k == axis else c for k, c in enumerate(whole.chunks))
    return whole.map_blocks(_stat_block, func, axis, dtype, chunks=chunks, dtype=dtype,
                            meta=np.empty((0,) * part.ndim, dtype=dtype))


def _no_unit_chunks(chunks):
    """An axis's chunks with each chunk of one element merged into a neighbour (unless the
    axis has one element)."""
    merged = []
    for c in chunks:
        if merged and (c == 1 or merged[-1] == 1):
            merged[-1] += c
        else:
            merged.append(c)
    return tuple(merged)


def _ramp_block(edge, end_value, width, axis, dtype, reverse):
    ramp = np.linspace(start=end_value, stop=edge.squeeze(axis), num=width,
                       endpoint=False, dtype=dtype, axis=axis)
    return ramp[_at(axis, slice(None, None, -1), ramp.ndim)] if reverse else ramp


def _ramp(edge, end_value, width, axis, reverse):
    """numpy.pad's ramp from `end_value` to the edge slab, `width` long along `axis`: one
    np.linspace call over the whole slab (linspace's arithmetic depends on whether any
    element's step is zero), then split into the edge's chunks."""
    whole = edge.rechunk(-1)
    chunks = tuple((width,) if k == axis else c for k, c in enumerate(whole.chunks))
    ramp = whole.map_blocks(_ramp_block, end_value, width, axis, edge.dtype, reverse,
                            chunks=chunks, dtype=edge.dtype,
                            meta=np.empty((0,) * edge.ndim, dtype=edge.dtype))
    return ramp.rechunk(tuple(c if k != axis else (width,) for k, c in enumerate(edge.chunks)))


def _check_known_chunks(x):
    """dask's own error for arrays with unknown (nan) chunk sizes: every block's place in
    the output depends on the chunk sizes of every axis."""
    if any(np.isnan(c) for axis in x.chunks for c in axis):
        from dask.array.core import unknown_chunk_message
        raise ValueError("Arrays chunk sizes are unknown: %s%s"
                         % (x.shape, unknown_chunk_message))


def graph_tasks(result, source):
    """Keys the graph of `result` adds to that of `source` (its tasks, aliases included):
    the figure to compare with dask.array.pad's for the same call."""
    return len(dict(result.__dask_graph__())) - len(dict(source.__dask_graph__()))


# --------------------------------------------------------------------------------------
# constant_values: one pad value for libndpad, numpy's slabs for the others
# --------------------------------------------------------------------------------------

def _constant_values(x, widths, constant_values):
    ndim, shape, dtype = x.ndim, x.shape, x.dtype
    new_shape = tuple(d + b + e for d, (b, e) in zip(shape, widths))
    if constant_values is None:
        return _constant.value_bytes(np.array(0).ravel()[0], dtype), []
    values = _args.as_pairs(constant_values, ndim)
    seen, converted = [], {}
    for axis in range(ndim):
        for side in (0, 1):
            v = values[axis][side]
            if _constant.slab_size(ndim, axis, side, widths, shape, new_shape) == 0:
                np.empty(0, dtype=dtype)[:] = v  # numpy assigns it too: same errors
                continue
            vb = converted.get(id(v))
            if vb is None:
                vb = converted[id(v)] = _constant.value_bytes(v, dtype)
            seen.append((axis, side, vb))
    if not seen:
        return _constant.value_bytes(0, dtype), []
    pad_value = seen[0][2]
    slabs = []
    if any(s[2] != pad_value for s in seen):
        # From the first slab with another value on, numpy's order decides the corners.
        first = next(i for i, s in enumerate(seen) if s[2] != pad_value)
        for axis, side, vb in seen[first:]:
            sl = _constant.slab(ndim, axis, side, widths, new_shape)
            slabs.append((tuple((s.start or 0, new_shape[k] if s.stop is None else s.stop)
                                for k, s in enumerate(sl)), vb))
    return pad_value, slabs


# --------------------------------------------------------------------------------------
# the graph
# --------------------------------------------------------------------------------------

def _split(begin, end, size):
    """[begin, end) as consecutive pieces of at most `size`, as even as possible."""
    length = end - begin
    if length <= 0:
        return []
    count = -(-length // size)
    base, extra = divmod(length, count)
    pieces, start = [], begin
    for i in range(count):
        stop = start + base + (1 if i < extra else 0)
        pieces.append((start, stop))
        start = stop
    return pieces


def _extent(d, b, e, r):
    """The output extent of one axis: d elements dilated by r, pads b and e."""
    dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
    return max(b + dilated + e, 0)


def _axis_pieces(d, b, e, r, in_chunks, typical, out_chunks=None):
    """The output chunks of one axis as (o0, o1, input chunk index or None): `out_chunks`
    when given, else the input's chunks over the part that copies the input and borders
    split at most `typical` long; the index is set when the piece is exactly one whole
    input chunk."""
    n = _extent(d, b, e, r)
    if out_chunks is not None:
        bounds = np.concatenate([[0], np.cumsum(out_chunks)]).astype(np.int64)
        whole = {} if r else {(b + s0, b + s0 + c): i for i, (s0, c) in enumerate(
            zip(np.concatenate([[0], np.cumsum(in_chunks)]).astype(np.int64), in_chunks))}
        pieces = [(int(o0), int(o1), whole.get((int(o0), int(o1))))
                  for o0, o1 in zip(bounds[:-1], bounds[1:])]
        return pieces or [(0, 0, None)]
    dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
    lo = min(max(b, 0), n)
    hi = max(min(b + dilated, n), lo)
    pieces = [(o0, o1, None) for o0, o1 in _split(0, lo, typical)]
    if r == 0:
        start = 0
        for index, c in enumerate(in_chunks):
            s0, s1 = b + start, b + start + c
            a0, a1 = max(s0, lo), min(s1, hi)
            if a0 < a1:
                pieces.append((a0, a1, index if (a0, a1) == (s0, s1) else None))
            start += c
    else:
        pieces += [(o0, o1, None) for o0, o1 in _split(lo, hi, typical)]
    pieces += [(o0, o1, None) for o0, o1 in _split(hi, n, typical)]
    return pieces or [(0, 0, None)]


def _rechunked(y, chunks):
    return y if chunks is None else y.rechunk(chunks)


def _padded(x, mode, pb, pe, interior, pad_value, slabs, prefix, chunks=None):
    ndim, shape, dtype = x.ndim, x.shape, x.dtype
    itemsize = dtype.itemsize
    largest = max((max(c) for c in x.chunks if c), default=1) or 1
    out_chunks = [None] * ndim
    if chunks is not None:
        out_shape = tuple(_extent(shape[k], pb[k], pe[k], interior[k] if interior else 0)
                          for k in range(ndim))
        out_chunks = da.core.normalize_chunks(chunks, out_shape, dtype=dtype,
                                              previous_chunks=x.chunks)
    axes, starts = [], []
    for k in range(ndim):
        typical = max(x.chunks[k], default=0) or largest
        r = interior[k] if interior else 0
        pieces = _axis_pieces(shape[k], pb[k], pe[k], r, x.chunks[k], typical,
                              out_chunks[k])
        # The window call is separable by axis: each piece's runs, and which input chunk
        # each run reads, come from the axis alone.
        problem, keep = _lib.make_problem(mode, itemsize, [shape[k]], [pb[k]], [pe[k]],
                                          interior=[r] if interior else None,
                                          pad_value=pad_value)
        starts.append([int(v) for v in np.concatenate([[0], np.cumsum(x.chunks[k])])])
        axes.append([(o0, o1, alias, _axis_runs(problem, o0, o1, starts[k]))
                     for o0, o1, alias in pieces])
        del keep

    token = tokenize(x, mode, pb, pe, interior, pad_value, slabs, out_chunks)
    name = "%s-%s" % (prefix, token)
    spec = (mode, dtype, tuple(shape), tuple(pb), tuple(pe),
            None if interior is None else tuple(interior), pad_value, tuple(slabs))
    dsk = {}
    for out_index in np.ndindex(*(len(a) for a in axes)):
        entries = [axes[k][i] for k, i in enumerate(out_index)]
        key = (name,) + tuple(out_index)
        if all(e[2] is not None for e in entries):
            dsk[key] = (x.name,) + tuple(e[2] for e in entries)  # the input block itself
        else:
            dsk[key] = _border_task(x, starts, spec, entries,
                                    ("ndpad-strip-" + token,) + tuple(out_index), dsk)
    if all(len(a) == 1 for a in axes):
        # One block is the whole result, and dask < 2024 hands it to the caller as it is:
        # a view, an input block or a broadcast would alias the caller's data or be
        # read-only. dask.array.pad's results are new writable arrays: so is this one.
        key = (name,) + (0,) * ndim
        dsk[key] = (_own_copy, dsk[key], isinstance(dsk[key], tuple) and
                    dsk[key][:1] == (x.name,))
    chunks = tuple(tuple(e[1] - e[0] for e in a) for a in axes)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks, dtype=dtype)


def _own_copy(block, alias):
    """A one-block result: a new writable array unless the task made one (an input block
    (`alias`), a view or a broadcast is copied)."""
    if alias or block.base is not None or not block.flags.writeable:
        return np.array(block, copy=True)
    return block


def _border_task(x, starts, spec, entries, strip_prefix, dsk):
    """The task of one output block that is not an input block: its window, its parts (one
    window plan each) and the input blocks or strips (added to `dsk`) it depends on."""
    window = tuple((e[0], e[1]) for e in entries)
    runs = [e[3] for e in entries]
    if any(all(run[4] is None for run in axis_runs) for axis_runs in runs):
        return (_window_block, spec, window, ((window, None, -1),), None, ())  # all pad
    view = _view_of_block(starts, spec, window, runs)
    if view is not None:
        chunk_index, index = view
        return (_view_block, (x.name,) + chunk_index, index,
                tuple(o1 - o0 for o0, o1 in window))
    # Per axis, the part of each input chunk the block reads (the union of its runs').
    spans = []
    for axis_runs in runs:
        span = {}
        for _, _, i0, i1, chunk in axis_runs:
            if chunk is not None:
                lo, hi = span.get(chunk, (i0, i1))
                span[chunk] = (min(lo, i0), max(hi, i1))
        spans.append(sorted(span.items()))
    sources = list(itertools.product(*spans))  # per source, per axis: (chunk, (i0, i1))
    number = {tuple(c for c, _ in source): j for j, source in enumerate(sources)}
    largest_part = max(range(len(sources)), key=lambda j: np.prod(
        [i1 - i0 for _, (i0, i1) in sources[j]]))
    deps, origins = [], []
    for j, source in enumerate(sources):
        block = (x.name,) + tuple(c for c, _ in source)
        first = tuple(starts[k][c] for k, (c, _) in enumerate(source))
        local = tuple(slice(i0 - f, i1 - f) for (_, (i0, i1)), f in zip(source, first))
        whole = all(i0 == starts[k][c] and i1 == starts[k][c + 1]
                    for k, (c, (i0, i1)) in enumerate(source))
        if j == largest_part or whole:
            # The block itself: dask runs the task where most of its input is, and the
            # task slices it (a view).
            deps.append(block)
            origins.append(first)
        else:
            # Only the strip it reads travels to the task, sliced where the block is.
            strip_key = strip_prefix + (j,)
            dsk[strip_key] = (_strip, block, local)
            deps.append(strip_key)
            origins.append(tuple(i0 for _, (i0, _) in source))
    parts = []
    for combo in itertools.product(*runs):
        sub_window = tuple((a, b) for a, b, _, _, _ in combo)
        if any(run[4] is None for run in combo):
            parts.append((sub_window, None, -1))
        else:
            parts.append((sub_window, tuple((i0, i1) for _, _, i0, i1, _ in combo),
                          number[tuple(run[4] for run in combo)]))
    gather = None
    if len(parts) > _MAX_PLANS:
        # Many small runs (tiny chunks under a pad that folds over them): gather the box
        # once and run one plan on it.
        gather = tuple((span[0][1][0], span[-1][1][1]) for span in spans)
        parts = ((window, gather, 0),)
    return (_window_block, spec, window, tuple(parts), gather, tuple(origins)) + tuple(deps)


def _source_index(mode, d, b, r, o):
    """The input index output position `o` of one axis reads (README, Semantics), or None
    for a pad value."""
    j = o - b
    if mode == _lib.MODES["constant"]:
        dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
        return j // (r + 1) if 0 <= j < dilated and j % (r + 1) == 0 else None
    if mode == _lib.MODES["edge"]:
        return min(max(j, 0), d - 1)
    if mode == _lib.MODES["wrap"]:
        return j % d
    if mode == _lib.MODES["reflect"]:
        if d == 1:
            return 0
        m = j % (2 * (d - 1))
        return m if m < d else 2 * (d - 1) - m
    m = j % (2 * d)  # symmetric
    return m if m < d else 2 * d - 1 - m


def _view_of_block(starts, spec, window, runs):
    """(input chunk index, numpy index) when the output block is a view of one input block:
    on every axis one run whose positions read consecutive input elements forwards or
    backwards, or one element repeated (a broadcast), as dask.array.pad's reversed and
    broadcast slices are. None otherwise. Such a block costs no task time and no memory
    (a copy of a whole 32 MiB plane, first touch of fresh pages included, took longer than
    dask's whole pad: issue 33)."""
    mode, _, shape, pb, _, interior, _, _ = spec
    chunk_index, index = [], []
    for k, axis_runs in enumerate(runs):
        if len(axis_runs) != 1:
            return None
        a, b, i0, i1, chunk = axis_runs[0]
        r = interior[k] if interior else 0
        if chunk is None or (r and b - a > 1):
            return None
        first = _source_index(mode, shape[k], pb[k], r, a)
        last = _source_index(mode, shape[k], pb[k], r, b - 1)
        if first is None or last is None:
            return None
        n, f = b - a, starts[k][chunk]
        if i1 - i0 == 1 and first == last == i0:
            index.append(slice(i0 - f, i1 - f))  # broadcast to n by _view_block
        elif i1 - i0 == n and last - first == n - 1 and first == i0:
            index.append(slice(i0 - f, i1 - f))
        elif i1 - i0 == n and first - last == n - 1 and last == i0:
            index.append(slice(i1 - 1 - f, i0 - 1 - f if i0 > f else None, -1))
        else:
            return None
        chunk_index.append(chunk)
    return tuple(chunk_index), tuple(index)


def _view_block(block, index, shape):
    """An output block that is a view of an input block (see _view_of_block): no copy."""
    view = block[index]
    return view if view.shape == shape else np.broadcast_to(view, shape)


# At most this many window plans per output block; beyond, its input box is gathered into
# one buffer first (tiny input chunks under a pad that folds over them make many runs).
_MAX_PLANS = 16


def _axis_runs(problem, o0, o1, starts):
    """The output range [o0, o1) of the 1-D `problem` as runs (a, b, i0, i1, chunk): each
    run's input box [i0, i1) lies in the one input chunk `chunk` (starts: the chunks'
    first indices, then the extent), or the run reads nothing (i0 == i1, chunk None)."""
    def box(a, b):
        ((i0, i1),) = _lib.window_input_box(problem, [a], [b])
        return i0, i1

    def chunk_of(i):
        return bisect.bisect_right(starts, i) - 1

    def one_chunk(a, b):
        i0, i1 = box(a, b)
        return i0 == i1 or chunk_of(i0) == chunk_of(i1 - 1)

    runs, a = [], o0
    while a < o1:
        # The longest run from a: boxes only grow with the window, and one output element
        # reads at most one input element, so a binary search finds its end.
        lo, hi = a + 1, o1
        if not one_chunk(a, hi):
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if one_chunk(a, mid):
                    lo = mid
                else:
                    hi = mid - 1
        i0, i1 = box(a, hi)
        runs.append((a, hi, i0, i1, chunk_of(i0) if i0 < i1 else None))
        a = hi
    return runs


def _strip(block, index):
    """The part of an input block that a border task elsewhere reads: a copy when it is a
    small part (neither the whole block travels nor stays pinned for it), else a view."""
    part = block[index]
    if 2 * part.size < block.size:
        part = part.copy()
    return part


def _intersects(bounds, window):
    return all(max(s0, w0) < min(s1, w1) for (s0, s1), (w0, w1) in zip(bounds, window))


def _window_block(spec, window, parts, gather, origins, *sources):
    """One output block: a window plan per part (sub-window, its input box, the source it
    reads, -1: none), each reading its source where it lies; with `gather`, the sources are
    first copied into that box. `origins`: each source's first input index. Runs on a
    worker."""
    mode, dtype, shape, pb, pe, interior, pad_value, slabs = spec  # dtype: np.dtype
    # (never dtype.str: '|V6' would lose a structured dtype's fields)
    ndim = len(shape)
    if gather is not None:
        box = np.empty(tuple(i1 - i0 for i0, i1 in gather), dtype=dtype)
        for source, origin in zip(sources, origins):
            src, dst = [], []
            for k in range(ndim):
                a0 = max(gather[k][0], origin[k])
                a1 = min(gather[k][1], origin[k] + source.shape[k])
                src.append(slice(a0 - origin[k], a1 - origin[k]))
                dst.append(slice(a0 - gather[k][0], a1 - gather[k][0]))
            box[tuple(dst)] = source[tuple(src)]
        sources, origins = (box,), (tuple(i0 for i0, _ in gather),)
    out_shape = tuple(o1 - o0 for o0, o1 in window)
    if (len(parts) == 1 and parts[0][2] < 0 and pad_value is not None and
            not any(_intersects(bounds, window) for bounds, _ in slabs)):
        # All one pad value: a read-only broadcast of it (as dask.array.pad's constant
        # borders), no memory to fill; a consumer that needs it dense makes it so.
        return np.broadcast_to(np.frombuffer(pad_value, dtype=dtype).reshape(()), out_shape)
    out = np.empty(out_shape, dtype=dtype)
    if out.size == 0:
        return out
    out_strides = _native.out_strides(out)
    problem, keep = _lib.make_problem(mode, dtype.itemsize, shape, pb, pe,
                                      interior=interior, pad_value=pad_value)
    for sub_window, box, s in parts:
        if s < 0:
            box, box_strides, in_ptr = ((0, 0),) * ndim, [0] * ndim, None
        else:
            view = np.asarray(sources[s], dtype=dtype)[tuple(
                slice(i0 - o, i1 - o) for (i0, i1), o in zip(box, origins[s]))]
            box_strides = _native.elem_strides(view)
            if box_strides is None:
                view = np.ascontiguousarray(view)
                box_strides = _native.elem_strides(view)
            in_ptr = _native.address(view) if view.size else None
        target = out[tuple(slice(a - w0, b - w0) for (a, b), (w0, _) in zip(sub_window, window))]
        _lib.run_window(problem, [a for a, _ in sub_window], [b for _, b in sub_window],
                        [i0 for i0, _ in box], [i1 for _, i1 in box], box_strides,
                        out_strides, in_ptr, _native.address(target), threads=1)
    del keep
    for bounds, value in slabs:  # numpy's later slabs overwrite corners
        sl = []
        for (s0, s1), (w0, w1) in zip(bounds, window):
            a0, a1 = max(s0, w0), min(s1, w1)
            if a0 >= a1:
                break
            sl.append(slice(a0 - w0, a1 - w0))
        else:
            out[tuple(sl)] = np.frombuffer(value, dtype=dtype)[0]
    return out
