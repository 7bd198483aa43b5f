// libndpad_torch.so: ndpad's kernels for torch's own CPU padding operators, registered
// and removed at run time (ndpad.torch.install() / uninstall()) through the dispatcher.
//
// Loaded with torch.ops.load_library(); it defines the operators
//   ndpad::install(int[] ndpad_functions, int threshold) -> ()
//       route through libndpad: the addresses of its functions in the copy ndpad's ctypes
//       layer loaded (so one library, one wisdom, one error state); again: a new threshold
//   ndpad::uninstall() -> ()          give torch its kernels back
//   ndpad::installed() -> bool
//   ndpad::calls() -> int[]           [calls run by ndpad, calls kept on torch's path]
//   ndpad::stalls() -> int            stalls of torch's pool that made ndpad back off
//   ndpad::built_for() -> str         torch.__version__ at compile time (NDPAD_TORCH_VERSION)
//   ndpad::set_pool(int choice) -> () whose threads run the tiles (benchmarks compare them)
// and the CPU kernels of ndpad::pad and ndpad::crop_pad (declared in _torch_ops.py).
// No Python C API: the file depends on libtorch's C++ ABI only, not on Python's.
//
// Routed, for plain strided CPU tensors whose output has at least `threshold` elements and
// that torch's own kernel accepts (everything else is torch's kernel, called directly, so
// results, errors and layouts are torch's):
//   constant_pad_nd                       CPU          torch's autograd formula
//   reflection_pad1d/2d/3d                CPU          torch's autograd formula
//   replication_pad1d/2d/3d               CPU          torch's autograd formula
//   _pad_circular (composite)             CPU and AutogradCPU, with the gradient below
// Below the threshold the previous kernel runs without a dispatcher round trip:
// at::cpu::reflection_pad2d() and friends (torch's CPU kernels), at::native::constant_pad_nd()
// and at::native::_pad_circular() (torch's composite implementations).

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_pad_circular_native.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/constant_pad_nd_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/reflection_pad1d_cpu_dispatch.h>
#include <ATen/ops/reflection_pad2d_cpu_dispatch.h>
#include <ATen/ops/reflection_pad3d_cpu_dispatch.h>
#include <ATen/ops/replication_pad1d_cpu_dispatch.h>
#include <ATen/ops/replication_pad2d_cpu_dispatch.h>
#include <ATen/ops/replication_pad3d_cpu_dispatch.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <string>
#include <unordered_map>
#include <vector>

#include "ndpad.h"

#ifndef NDPAD_TORCH_VERSION
#error "NDPAD_TORCH_VERSION (torch.__version__) is set by python/build_torch_native.py"
#endif

namespace
{

// ---- libndpad: the functions of the copy ndpad's ctypes layer loaded ---------------------

struct Ndpad {
    decltype(&ndpad_plan_create) plan_create = nullptr;
    decltype(&ndpad_execute) execute = nullptr;
    decltype(&ndpad_plan_destroy) plan_destroy = nullptr;
    decltype(&ndpad_last_error) last_error = nullptr;
    decltype(&ndpad_status_string) status_string = nullptr;
};

Ndpad g_ndpad;                          // set once, by set_functions(), before any use
std::atomic<int64_t> g_threshold{1024}; // install() always sets it
std::atomic<bool> g_active{false};      // install() sets, uninstall() clears: the kernels
                                        // stay registered, off they call torch's own
std::atomic<int64_t> g_routed{0}, g_kept{0};
// Whose threads run the tiles (set_pool(); benchmarks compare them): torch's intra-op pool
// (the default), ndpad's own workers (NDPAD_SCHEDULE_DEFAULT) or ndpad's OpenMP team
// (NDPAD_SCHEDULE_FIXED_TEAM).
enum PoolChoice : int64_t { kTorchPool = 0, kNdpadWorkers = 1, kNdpadTeam = 2 };
std::atomic<int64_t> g_pool{kTorchPool};

// ---- torch's intra-op pool as ndpad's host pool: one pool per torch process -------------

int64_t now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A busy machine: at::parallel_for returns when every thread of torch's team has arrived at
// its join, so a team thread that lost its core keeps the caller waiting a scheduler time
// slice (milliseconds) whatever the size of the work; torch's own operators pay it too.
// ndpad takes the rule of its own workers (ndpad.h, THREADS): a caller that had run out of
// tasks and then waited a stall (1 ms or more, and 8 times one of its own tasks) runs the
// next executions alone for a back-off period (10 ms, doubled at each stall up to 1 s).
// The first execution after a period uses the pool again; each one whose team kept up
// shortens the period by an eighth (not a half, as ndpad's workers do: torch's join waits
// for every team thread, not only for one that took a task, so on a busy machine about
// every other call stalls and halving would keep the period short).
constexpr int64_t kStallNs = 1000000, kBackoffMinNs = 10000000, kBackoffMaxNs = 1000000000;
std::atomic<int64_t> g_alone_until{0}, g_backoff{0}; // steady_clock ns; ns (0: none)
std::atomic<int64_t> g_stalls{0};                    // stalls seen (ndpad::stalls())

void note_join(int64_t start, int64_t caller_done, size_t caller_tasks, int64_t end)
{
    const int64_t wait = end - caller_done;
    const int64_t own =
        (caller_done - start) / static_cast<int64_t>(std::max<size_t>(caller_tasks, 1));
    int64_t period = g_backoff.load(std::memory_order_relaxed);
    if (wait >= kStallNs && wait >= 8 * own) {
        period = std::min(std::max(2 * period, kBackoffMinNs), kBackoffMaxNs);
        g_alone_until.store(end + period, std::memory_order_relaxed);
        g_stalls.fetch_add(1, std::memory_order_relaxed);
    } else if (period > 0) {
        period -= period / 8;
        if (period < kBackoffMinNs) period = 0;
    } else {
        return;
    }
    g_backoff.store(period, std::memory_order_relaxed);
}

// torch's intra-op pool as ndpad's host pool. The tasks are claimed from a shared counter,
// not split in fixed halves (at::parallel_for's chunks): the caller starts at once and
// takes task after task while torch's team thread wakes up, and a late thread finds less
// (or nothing) left. Any thread may run any task (the host pool contract); the counter
// lives on the caller's stack until at::parallel_for returns. at::parallel_for is inline
// (an OpenMP region in PyPI's torch): this file is compiled with -fopenmp for it
// (_torch_build.py), or it would run every task on the caller.
void torch_parallel_for(void *, ndpad_task_fn task, void *task_context, size_t n)
{
    const int64_t start = now_ns();
    if (start < g_alone_until.load(std::memory_order_relaxed)) {
        for (size_t i = 0; i < n; i++) task(task_context, i); // backing off: alone
        return;
    }
    std::atomic<size_t> next{0};
    const pthread_t caller = pthread_self();
    int64_t caller_done = 0;
    size_t caller_tasks = 0;
    at::parallel_for(0, static_cast<int64_t>(n), 1, [&](int64_t, int64_t) {
        const bool on_caller = pthread_equal(pthread_self(), caller);
        for (size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
             i = next.fetch_add(1, std::memory_order_relaxed)) {
            task(task_context, i);
            caller_tasks += on_caller;
        }
        if (on_caller) caller_done = now_ns();
    });
    if (caller_done != 0) note_join(start, caller_done, caller_tasks, now_ns());
}

template <typename F> void set_function(int64_t address, F &fn)
{
    fn = reinterpret_cast<F>(static_cast<uintptr_t>(address));
}

// `functions`: the addresses of ndpad_plan_create, ndpad_execute, ndpad_plan_destroy,
// ndpad_last_error and ndpad_status_string, in this order (ctypes gives them).
void set_ndpad(const std::vector<int64_t> &functions)
{
    TORCH_CHECK(functions.size() == 5, "ndpad::install: 5 function addresses expected, got ",
                functions.size());
    for (size_t k = 0; k < functions.size(); k++)
        TORCH_CHECK(functions[k] != 0, "ndpad::install: function address ", k, " is NULL");
    set_function(functions[0], g_ndpad.plan_create);
    set_function(functions[1], g_ndpad.execute);
    set_function(functions[2], g_ndpad.plan_destroy);
    set_function(functions[3], g_ndpad.last_error);
    set_function(functions[4], g_ndpad.status_string);
}

// ---- plans, cached: planning costs tens of microseconds, a repeated pad pays it once ----

using Key = std::vector<int64_t>;

struct KeyHash {
    size_t operator()(const Key &k) const
    {
        uint64_t h = 1469598103934665603ull; // FNV-1a over the words
        for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
        return static_cast<size_t>(h);
    }
};

class PlanCache
{
  public:
    using Plan = std::shared_ptr<ndpad_plan>;

    // The plan of `problem` on `threads` threads; a plan evicted while another thread runs
    // it lives until that thread drops its reference.
    Plan get(const ndpad_problem &problem, int32_t threads, int64_t pool_choice, const Key &key)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = index_.find(key);
            if (it != index_.end()) {
                order_.splice(order_.begin(), order_, it->second);
                return it->second->second;
            }
        }
        ndpad_options options;
        std::memset(&options, 0, sizeof options);
        // torch's pool (at::parallel_for): torch.set_num_threads() governs ndpad too, and
        // no second team spins beside torch's. The plan copies the description.
        ndpad_thread_pool pool;
        pool.parallel_for = torch_parallel_for;
        pool.context = nullptr;
        pool.threads = threads;
        options.threads = threads;
        if (threads > 1 && pool_choice == kTorchPool) options.thread_pool = &pool;
        if (pool_choice == kNdpadTeam) options.schedule = NDPAD_SCHEDULE_FIXED_TEAM;
        ndpad_plan *raw = nullptr;
        ndpad_status status = g_ndpad.plan_create(&problem, &options, &raw);
        TORCH_CHECK(status == NDPAD_OK, "ndpad: ", g_ndpad.status_string(status), ": ",
                    g_ndpad.last_error());
        Plan plan(raw, g_ndpad.plan_destroy);
        std::lock_guard<std::mutex> lock(mutex_);
        if (index_.find(key) == index_.end()) {
            order_.emplace_front(key, plan);
            index_[key] = order_.begin();
            if (order_.size() > kCapacity) {
                index_.erase(order_.back().first);
                order_.pop_back();
            }
        }
        return plan;
    }

    // Held across fork() by the handlers registered below the install section.
    std::mutex &fork_mutex()
    {
        return mutex_;
    }

  private:
    static constexpr size_t kCapacity = 64;
    std::mutex mutex_;
    std::list<std::pair<Key, Plan>> order_; // most recently used first
    std::unordered_map<Key, std::list<std::pair<Key, Plan>>::iterator, KeyHash> index_;
};

// Never destroyed: at exit, libndpad's own teardown may already have run.
PlanCache &g_plans = *new PlanCache;

// Output elements of torch's pad list (pairs, last dimension first) on `x`, saturating; 0
// when an extent is not positive. The first test of every kernel: a small tensor goes to
// torch's kernel before anything else is looked at.
int64_t padded_numel(const at::Tensor &x, at::IntArrayRef pad)
{
    const at::IntArrayRef sizes = x.sizes();
    const int64_t ndim = static_cast<int64_t>(sizes.size());
    const int64_t pairs = static_cast<int64_t>(pad.size() / 2);
    int64_t n = 1;
    for (int64_t k = 0; k < ndim; k++) {
        const int64_t i = ndim - 1 - k; // the pair of dimension k
        const int64_t d = sizes[k] + (i < pairs ? pad[2 * i] + pad[2 * i + 1] : 0);
        if (d <= 0) return 0;
        n = n > INT64_MAX / d ? INT64_MAX : n * d;
    }
    return n;
}

bool plain_tensor(const at::Tensor &x)
{
    return x.layout() == at::kStrided && x.device().is_cpu() && !x.is_quantized() &&
           x.scalar_type() != at::kComplexHalf && x.dim() <= NDPAD_MAX_RANK;
}

// torch's pad list (pairs, last dimension first) as per-dimension begin/end pads.
void per_dim_pads(at::IntArrayRef pad, int64_t ndim, std::vector<int64_t> &begin,
                  std::vector<int64_t> &end)
{
    begin.assign(ndim, 0);
    end.assign(ndim, 0);
    for (size_t i = 0; i < pad.size() / 2; i++) {
        begin[ndim - 1 - i] = pad[2 * i];
        end[ndim - 1 - i] = pad[2 * i + 1];
    }
}

// libndpad: pad `x` into `out`, allocated by the caller with x's sizes plus the pads
// (api.md's semantics: negative pads crop, borders come from the whole input). `value`
// is the fill of CONSTANT. Runs on torch's intra-op pool.
// `threads` < 0: torch.get_num_threads() threads on the pool g_pool chooses (torch's by
// default); >= 0: ndpad's own threads, that many (0 = all cores), as ndpad.torch.pad's
// threads= asks.
void run_into(at::Tensor x, const std::vector<int64_t> &begin, const std::vector<int64_t> &end,
              ndpad_mode mode, const at::Scalar *value, const at::Tensor &out,
              int64_t threads_asked = -1)
{
    const int64_t ndim = x.dim();
    if (out.numel() == 0) return;
    if (x.is_conj() || x.is_neg())
        x = x.resolve_conj().resolve_neg(); // the lazy bits are not in the memory
    const int64_t elem = x.element_size();
    // The fill's bytes as torch's fill_ makes them (its conversion and overflow errors).
    int64_t value_words[2] = {0, 0};
    if (mode == NDPAD_CONSTANT && value != nullptr) {
        at::Tensor v = at::empty({}, x.options()).fill_(*value);
        std::memcpy(value_words, v.data_ptr(), elem);
    }
    const int32_t threads =
        threads_asked >= 0 ? static_cast<int32_t>(threads_asked) : at::get_num_threads();
    const int64_t pool_choice =
        threads_asked >= 0 ? kNdpadWorkers : g_pool.load(std::memory_order_relaxed);
    Key key;
    key.reserve(7 + 5 * ndim);
    key.insert(key.end(), {threads, mode, elem, ndim, value_words[0], value_words[1], pool_choice});
    key.insert(key.end(), x.sizes().begin(), x.sizes().end());
    key.insert(key.end(), begin.begin(), begin.end());
    key.insert(key.end(), end.begin(), end.end());
    key.insert(key.end(), x.strides().begin(), x.strides().end());
    key.insert(key.end(), out.strides().begin(), out.strides().end());
    ndpad_problem problem;
    std::memset(&problem, 0, sizeof problem);
    problem.rank = static_cast<int32_t>(ndim);
    problem.mode = mode;
    problem.elem_size = static_cast<size_t>(elem);
    problem.shape = x.sizes().data();
    problem.pads_begin = begin.data();
    problem.pads_end = end.data();
    problem.in_strides = x.strides().data();
    problem.out_strides = out.strides().data();
    problem.pad_value = mode == NDPAD_CONSTANT ? value_words : nullptr;
    PlanCache::Plan plan = g_plans.get(problem, threads, pool_choice, key);
    ndpad_status status = g_ndpad.execute(plan.get(), x.data_ptr(), out.data_ptr());
    TORCH_CHECK(status == NDPAD_OK, "ndpad: ", g_ndpad.status_string(status), ": ",
                g_ndpad.last_error());
    g_routed++;
}

at::Tensor run_ndpad(const at::Tensor &x, const std::vector<int64_t> &begin,
                     const std::vector<int64_t> &end, ndpad_mode mode, const at::Scalar *value,
                     at::MemoryFormat format)
{
    const int64_t ndim = x.dim();
    std::vector<int64_t> shape(ndim);
    for (int64_t k = 0; k < ndim; k++) shape[k] = x.size(k) + begin[k] + end[k];
    at::Tensor out = at::empty(shape, x.options().memory_format(format));
    run_into(x, begin, end, mode, value, out);
    return out;
}

// ---- constant_pad_nd -----------------------------------------------------------------

at::Tensor constant_pad_nd(const at::Tensor &self, at::IntArrayRef pad, const at::Scalar &value)
{
    const int64_t ndim = self.dim();
    bool routable = g_active.load(std::memory_order_relaxed) && pad.size() % 2 == 0 &&
                    static_cast<int64_t>(pad.size() / 2) <= ndim &&
                    padded_numel(self, pad) >= g_threshold.load() && plain_tensor(self);
    if (routable) {
        bool grows = false;
        for (int64_t p : pad) grows = grows || p > 0;
        routable = grows; // only crops: torch clones a narrowed view
    }
    if (routable) {
        std::vector<int64_t> begin, end, shape(ndim);
        per_dim_pads(pad, ndim, begin, end);
        for (int64_t k = 0; k < ndim && routable; k++) {
            const int64_t d = self.size(k);
            shape[k] = d + begin[k] + end[k];
            routable = shape[k] > 0 && -begin[k] <= d && -end[k] <= d;
        }
        if (routable)
            return run_ndpad(self, begin, end, NDPAD_CONSTANT, &value,
                             self.suggest_memory_format());
    }
    g_kept++;
    return at::native::constant_pad_nd(self, pad, value);
}

// ---- reflection_pad{1,2,3}d, replication_pad{1,2,3}d ---------------------------------

using TorchKernel = at::Tensor (*)(const at::Tensor &, at::IntArrayRef);

// Does torch's kernel take this dtype? Asked once per dtype on a one-element tensor.
bool kernel_takes(TorchKernel kernel, int n, at::ScalarType dtype, std::atomic<int8_t> (&known)[64])
{
    const int index = static_cast<int>(dtype);
    if (index < 0 || index >= 64) return false;
    int8_t state = known[index].load();
    if (state == 0) {
        try {
            std::vector<int64_t> ones(n + 1, 1), zeros(2 * n, 0);
            kernel(at::zeros(ones, at::TensorOptions().dtype(dtype)), zeros);
            state = 1;
        } catch (const c10::Error &) {
            state = -1;
        }
        known[index].store(state);
    }
    return state > 0;
}

// Does torch's kernel keep a channels_last input's layout (torch 2 does, 1.13 did not)?
// Asked once per rank (4 and 5) on a tiny tensor.
bool keeps_format(TorchKernel kernel, int n, int64_t ndim, std::atomic<int8_t> (&known)[2])
{
    if (ndim != 4 && ndim != 5) return false;
    std::atomic<int8_t> &slot = known[ndim - 4];
    int8_t state = slot.load();
    if (state == 0) {
        const at::MemoryFormat format =
            ndim == 4 ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::ChannelsLast3d;
        std::vector<int64_t> shape(ndim, 2), zeros(2 * n, 0);
        at::Tensor y = kernel(at::zeros(shape).contiguous(format), zeros);
        state = y.is_contiguous(format) && !y.is_contiguous() ? 1 : -1;
        slot.store(state);
    }
    return state > 0;
}

// The same, by kind and rank: reflection (reflect) or replication (replicate) pad{n}d on an
// input of `ndim` dimensions (ndpad::pad's output layout asks it).
bool keeps_channels_last(bool reflect, int64_t n, int64_t ndim)
{
    static std::atomic<int8_t> known[2][3][2];
    constexpr TorchKernel kernels[2][3] = {{at::cpu::replication_pad1d, at::cpu::replication_pad2d,
                                            at::cpu::replication_pad3d},
                                           {at::cpu::reflection_pad1d, at::cpu::reflection_pad2d,
                                            at::cpu::reflection_pad3d}};
    if (n < 1 || n > 3 || (ndim != n + 1 && ndim != n + 2)) return false;
    return keeps_format(kernels[reflect][n - 1], static_cast<int>(n), ndim, known[reflect][n - 1]);
}

template <int N, bool Reflect> at::Tensor border_pad(const at::Tensor &x, at::IntArrayRef padding)
{
    static std::atomic<int8_t> takes[64];
    constexpr TorchKernel kernels[2][3] = {{at::cpu::replication_pad1d, at::cpu::replication_pad2d,
                                            at::cpu::replication_pad3d},
                                           {at::cpu::reflection_pad1d, at::cpu::reflection_pad2d,
                                            at::cpu::reflection_pad3d}};
    const TorchKernel torch_kernel = kernels[Reflect][N - 1];
    const int64_t ndim = x.dim();
    if (g_active.load(std::memory_order_relaxed) && padding.size() == 2 * N &&
        (ndim == N + 1 || ndim == N + 2) && padded_numel(x, padding) >= g_threshold.load() &&
        plain_tensor(x) && x.numel() > 0 && kernel_takes(torch_kernel, N, x.scalar_type(), takes)) {
        std::vector<int64_t> begin, end, shape(ndim);
        per_dim_pads(padding, ndim, begin, end);
        const int64_t first = ndim - N; // the padded dimensions
        bool ok = true;
        for (int64_t k = 0; k < ndim && ok; k++) {
            const int64_t d = x.size(k);
            shape[k] = d + begin[k] + end[k];
            if (k >= first) ok = shape[k] >= 1 && (!Reflect || (begin[k] < d && end[k] < d));
        }
        if (ok)
            return run_ndpad(x, begin, end, Reflect ? NDPAD_REFLECT : NDPAD_EDGE, nullptr,
                             keeps_channels_last(Reflect, N, ndim) ? x.suggest_memory_format()
                                                                   : at::MemoryFormat::Contiguous);
    }
    g_kept++;
    return torch_kernel(x, padding);
}

// ---- the transposing circular pad: channels_last in, contiguous out ---------------------
//
// torch lays circular padding out contiguous, so a channels_last input is transposed as it
// is padded. torch's own transpose (x.contiguous()) and libndpad's strided gather both read
// one element per pixel at a stride of C elements: with 64 float channels that is a 256-byte
// stride, 16 L1 sets for every 256-pixel row, and ran at 10-15x the time of a copy. Here the
// interior is transposed in blocks of one cache line of channels x 64 pixels (they stay in
// L1), straight into the output, and the borders are copied from it afterwards (per padded
// dimension, last first, torch's own order), on torch's pool.

// One output row of the interior: pixels [0, w) of the input row at `src` (channels
// innermost, `channels` of them) to `channels` output rows `dst + c * dst_c`.
template <size_t E>
void transpose_row(const char *src, char *dst, int64_t w, int64_t channels, int64_t dst_c)
{
    constexpr int64_t kChannels = E >= 64 ? 1 : 64 / E; // one cache line of a pixel
    constexpr int64_t kPixels = 64;
    for (int64_t c0 = 0; c0 < channels; c0 += kChannels) {
        const int64_t c1 = std::min(c0 + kChannels, channels);
        for (int64_t p0 = 0; p0 < w; p0 += kPixels) {
            const int64_t p1 = std::min(p0 + kPixels, w);
            for (int64_t c = c0; c < c1; c++) {
                char *d = dst + c * dst_c;
                for (int64_t p = p0; p < p1; p++)
                    std::memcpy(d + p * E, src + (p * channels + c) * E, E);
            }
        }
    }
}

using TransposeRow = void (*)(const char *, char *, int64_t, int64_t, int64_t);

TransposeRow transpose_row_for(int64_t elem)
{
    switch (elem) {
    case 1: return transpose_row<1>;
    case 2: return transpose_row<2>;
    case 4: return transpose_row<4>;
    case 8: return transpose_row<8>;
    case 16: return transpose_row<16>;
    default: return nullptr;
    }
}

// Pixels smaller than a cache line (an RGB image: 3 channels): the interior's block
// transpose above would touch a cache line per pixel per channel block for a few bytes.
// Here each output row is made whole: the source row (its index wrapped, so the borders of
// the dimensions before the last are made the same way, not copied afterwards) is
// deinterleaved into the C channel rows of the output, vector registers of pixels at a
// time (C loads, C stores of shuffled registers), and the left and right borders of each
// channel row are copied from that row.
#if defined(__GNUC__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define NDPAD_SHUFFLE 1
#endif
#endif

template <typename T, int C>
void deinterleave_scalar(const T *s, T *d, int64_t p0, int64_t w, int64_t dst_c)
{
    for (int64_t c = 0; c < C; c++) {
        T *dc = d + c * dst_c;
        for (int64_t p = p0; p < w; p++) dc[p] = s[p * C + c];
    }
}

// any channel count: one channel row at a time
template <typename T>
void deinterleave_any(const T *s, T *d, int64_t w, int64_t channels, int64_t dst_c)
{
    for (int64_t c = 0; c < channels; c++) {
        T *dc = d + c * dst_c;
        for (int64_t p = 0; p < w; p++) dc[p] = s[p * channels + c];
    }
}

// C channels of a row: the scalar loop, and specialized below with vector shuffles
template <typename T, int C>
void deinterleave(const T *s, T *d, int64_t w, int64_t dst_c)
{
    deinterleave_scalar<T, C>(s, d, 0, w, dst_c);
}

#ifdef NDPAD_SHUFFLE
// 4-byte elements, 2 to 4 channels: the shuffles of two registers SSE's shufps, unpcklps
// and movlhps make (as float registers: moved only, never computed with, so every bit
// pattern is kept).
typedef float V4f __attribute__((vector_size(16)));

inline V4f load4(const uint32_t *s)
{
    V4f v;
    std::memcpy(&v, s, sizeof v);
    return v;
}

inline void store4(uint32_t *d, V4f v) { std::memcpy(d, &v, sizeof v); }

template <>
void deinterleave<uint32_t, 2>(const uint32_t *s, uint32_t *d, int64_t w, int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 4 <= w; p += 4) {
        const V4f a = load4(s + 2 * p), b = load4(s + 2 * p + 4);
        store4(d + p, __builtin_shufflevector(a, b, 0, 2, 4, 6));
        store4(d + dst_c + p, __builtin_shufflevector(a, b, 1, 3, 5, 7));
    }
    deinterleave_scalar<uint32_t, 2>(s, d, p, w, dst_c);
}

template <>
void deinterleave<uint32_t, 3>(const uint32_t *s, uint32_t *d, int64_t w, int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 4 <= w; p += 4) {
        // a = r0 g0 b0 r1, b = g1 b1 r2 g2, c = b2 r3 g3 b3
        const V4f a = load4(s + 3 * p), b = load4(s + 3 * p + 4), c = load4(s + 3 * p + 8);
        const V4f r0 = __builtin_shufflevector(a, b, 0, 3, 4, 4); // r0 r1 .. ..
        const V4f r1 = __builtin_shufflevector(b, c, 2, 2, 5, 5); // r2 r2 r3 r3
        const V4f g0 = __builtin_shufflevector(a, b, 1, 1, 4, 4); // g0 g0 g1 g1
        const V4f g1 = __builtin_shufflevector(b, c, 3, 3, 6, 6); // g2 g2 g3 g3
        const V4f b0 = __builtin_shufflevector(a, b, 2, 2, 5, 5); // b0 b0 b1 b1
        const V4f b1 = __builtin_shufflevector(c, c, 0, 0, 3, 3); // b2 b2 b3 b3
        store4(d + p, __builtin_shufflevector(r0, r1, 0, 1, 4, 6));
        store4(d + dst_c + p, __builtin_shufflevector(g0, g1, 0, 2, 4, 6));
        store4(d + 2 * dst_c + p, __builtin_shufflevector(b0, b1, 0, 2, 4, 6));
    }
    deinterleave_scalar<uint32_t, 3>(s, d, p, w, dst_c);
}

template <>
void deinterleave<uint32_t, 4>(const uint32_t *s, uint32_t *d, int64_t w, int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 4 <= w; p += 4) { // a 4x4 transpose
        const V4f a = load4(s + 4 * p), b = load4(s + 4 * p + 4), c = load4(s + 4 * p + 8),
                  e = load4(s + 4 * p + 12);
        const V4f t0 = __builtin_shufflevector(a, b, 0, 4, 1, 5), t1 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
        const V4f t2 = __builtin_shufflevector(c, e, 0, 4, 1, 5), t3 = __builtin_shufflevector(c, e, 2, 6, 3, 7);
        store4(d + p, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
        store4(d + dst_c + p, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
        store4(d + 2 * dst_c + p, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
        store4(d + 3 * dst_c + p, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
    }
    deinterleave_scalar<uint32_t, 4>(s, d, p, w, dst_c);
}
// 2-byte elements, 2 to 4 channels: shuffles of 8 lanes; x86 needs SSSE3's pshufb for them
// (deinterleave_row_for checks the CPU has it), other targets have their own.
#if defined(__x86_64__) || defined(__i386__)
#define NDPAD_SHUFFLE16 __attribute__((target("ssse3")))
#else
#define NDPAD_SHUFFLE16
#endif
typedef uint16_t V8h __attribute__((vector_size(16)));

template <>
NDPAD_SHUFFLE16 void deinterleave<uint16_t, 2>(const uint16_t *s, uint16_t *d, int64_t w,
                                               int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 8 <= w; p += 8) {
        V8h a, b;
        std::memcpy(&a, s + 2 * p, 16);
        std::memcpy(&b, s + 2 * p + 8, 16);
        const V8h r = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
        const V8h g = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
        std::memcpy(d + p, &r, 16);
        std::memcpy(d + dst_c + p, &g, 16);
    }
    deinterleave_scalar<uint16_t, 2>(s, d, p, w, dst_c);
}

template <>
NDPAD_SHUFFLE16 void deinterleave<uint16_t, 3>(const uint16_t *s, uint16_t *d, int64_t w,
                                               int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 8 <= w; p += 8) { // element 3 * pixel + channel of a (0-7), b (8-15), c (16-23)
        V8h a, b, c;
        std::memcpy(&a, s + 3 * p, 16);
        std::memcpy(&b, s + 3 * p + 8, 16);
        std::memcpy(&c, s + 3 * p + 16, 16);
        const V8h r0 = __builtin_shufflevector(a, b, 0, 3, 6, 9, 12, 15, 0, 0);
        const V8h g0 = __builtin_shufflevector(a, b, 1, 4, 7, 10, 13, 0, 0, 0);
        const V8h b0 = __builtin_shufflevector(a, b, 2, 5, 8, 11, 14, 0, 0, 0);
        const V8h r = __builtin_shufflevector(r0, c, 0, 1, 2, 3, 4, 5, 10, 13);
        const V8h g = __builtin_shufflevector(g0, c, 0, 1, 2, 3, 4, 8, 11, 14);
        const V8h bl = __builtin_shufflevector(b0, c, 0, 1, 2, 3, 4, 9, 12, 15);
        std::memcpy(d + p, &r, 16);
        std::memcpy(d + dst_c + p, &g, 16);
        std::memcpy(d + 2 * dst_c + p, &bl, 16);
    }
    deinterleave_scalar<uint16_t, 3>(s, d, p, w, dst_c);
}

template <>
NDPAD_SHUFFLE16 void deinterleave<uint16_t, 4>(const uint16_t *s, uint16_t *d, int64_t w,
                                               int64_t dst_c)
{
    int64_t p = 0;
    for (; p + 8 <= w; p += 8) { // 2 pixels a register: channels 0 and 1, 2 and 3 first
        V8h a, b, c, e;
        std::memcpy(&a, s + 4 * p, 16);
        std::memcpy(&b, s + 4 * p + 8, 16);
        std::memcpy(&c, s + 4 * p + 16, 16);
        std::memcpy(&e, s + 4 * p + 24, 16);
        const V8h ab01 = __builtin_shufflevector(a, b, 0, 4, 8, 12, 1, 5, 9, 13);
        const V8h ab23 = __builtin_shufflevector(a, b, 2, 6, 10, 14, 3, 7, 11, 15);
        const V8h ce01 = __builtin_shufflevector(c, e, 0, 4, 8, 12, 1, 5, 9, 13);
        const V8h ce23 = __builtin_shufflevector(c, e, 2, 6, 10, 14, 3, 7, 11, 15);
        const V8h c0 = __builtin_shufflevector(ab01, ce01, 0, 1, 2, 3, 8, 9, 10, 11);
        const V8h c1 = __builtin_shufflevector(ab01, ce01, 4, 5, 6, 7, 12, 13, 14, 15);
        const V8h c2 = __builtin_shufflevector(ab23, ce23, 0, 1, 2, 3, 8, 9, 10, 11);
        const V8h c3 = __builtin_shufflevector(ab23, ce23, 4, 5, 6, 7, 12, 13, 14, 15);
        std::memcpy(d + p, &c0, 16);
        std::memcpy(d + dst_c + p, &c1, 16);
        std::memcpy(d + 2 * dst_c + p, &c2, 16);
        std::memcpy(d + 3 * dst_c + p, &c3, 16);
    }
    deinterleave_scalar<uint16_t, 4>(s, d, p, w, dst_c);
}
#endif

// One source row of w pixels of `channels` elements of E bytes into `channels` output
// rows (dst + c * dst_c elements), at offset 0 of each.
using DeinterleaveRow = void (*)(const void *, void *, int64_t, int64_t, int64_t);

template <typename T, int C>
void deinterleave_row(const void *s, void *d, int64_t w, int64_t, int64_t dst_c)
{
    deinterleave<T, C>(static_cast<const T *>(s), static_cast<T *>(d), w, dst_c);
}

template <typename T>
void deinterleave_row_any(const void *s, void *d, int64_t w, int64_t channels, int64_t dst_c)
{
    deinterleave_any<T>(static_cast<const T *>(s), static_cast<T *>(d), w, channels, dst_c);
}

template <typename T>
DeinterleaveRow deinterleave_for_channels(int64_t channels)
{
#if defined(NDPAD_SHUFFLE) && (defined(__x86_64__) || defined(__i386__))
    if (sizeof(T) == 2 && !__builtin_cpu_supports("ssse3")) return deinterleave_row_any<T>;
#endif
    if (sizeof(T) != 2 && sizeof(T) != 4) return deinterleave_row_any<T>; // not specialized
    switch (channels) {
    case 2: return deinterleave_row<T, 2>;
    case 3: return deinterleave_row<T, 3>;
    case 4: return deinterleave_row<T, 4>;
    default: return deinterleave_row_any<T>;
    }
}

DeinterleaveRow deinterleave_row_for(int64_t elem, int64_t channels)
{
    switch (elem) { // 1-byte elements: torch's transpose is as fast as the scalar loop
    case 2: return deinterleave_for_channels<uint16_t>(channels);
    case 4: return deinterleave_for_channels<uint32_t>(channels);
    case 8: return deinterleave_for_channels<uint64_t>(channels);
    default: return nullptr;
    }
}

// The left and right borders of `channels` output rows (row + c * dst_c elements) of
// left + w + right elements, from the row's w interior elements. A few elements each (a
// call to memcpy would cost more than the copy).
using RowBorders = void (*)(char *, int64_t, int64_t, int64_t, int64_t, int64_t);

template <typename T>
void row_borders(char *row, int64_t channels, int64_t dst_c, int64_t w, int64_t left,
                 int64_t right)
{
    for (int64_t c = 0; c < channels; c++) {
        T *r = reinterpret_cast<T *>(row) + c * dst_c;
        for (int64_t i = 0; i < left; i++) r[i] = r[w + i];
        for (int64_t i = 0; i < right; i++) r[left + w + i] = r[left + i];
    }
}

RowBorders row_borders_for(int64_t elem)
{
    switch (elem) {
    case 1: return row_borders<uint8_t>;
    case 2: return row_borders<uint16_t>;
    case 4: return row_borders<uint32_t>;
    case 8: return row_borders<uint64_t>;
    default: return nullptr;
    }
}

// transposing_wrap's pixels under 64 bytes: every output row made whole, see above.
at::Tensor deinterleaving_wrap(const at::Tensor &x, const std::vector<int64_t> &begin,
                               const std::vector<int64_t> &end)
{
    const int64_t ndim = x.dim(), e = x.element_size(), channels = x.size(1);
    const DeinterleaveRow row = deinterleave_row_for(e, channels);
    const RowBorders borders = row_borders_for(e);
    if (row == nullptr || borders == nullptr) return at::Tensor();
    std::vector<int64_t> shape(ndim);
    for (int64_t k = 0; k < ndim; k++) shape[k] = x.size(k) + begin[k] + end[k];
    at::Tensor out = at::empty(shape, x.options());
    const int64_t n = x.size(0), w = x.size(ndim - 1);
    const int64_t left = begin[ndim - 1], right = end[ndim - 1];
    // output rows: (batch, the output's spatial indices but the last)
    int64_t rows_per_n = 1;
    for (int64_t k = 2; k < ndim - 1; k++) rows_per_n *= shape[k];
    const char *in = static_cast<const char *>(x.data_ptr());
    char *o = static_cast<char *>(out.data_ptr());
    const at::IntArrayRef os = out.strides(), xs = x.strides();
    const int64_t dst_c = os[1];
    auto run_rows = [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; r++) {
            const int64_t b = r / rows_per_n;
            int64_t rest = r % rows_per_n, dst = b * os[0], src = b * xs[0];
            for (int64_t k = ndim - 2; k >= 2; k--) { // output index i, source (i - begin) mod d
                const int64_t i = rest % shape[k], d = x.size(k);
                rest /= shape[k];
                dst += i * os[k];
                src += ((i - begin[k]) % d + d) % d * xs[k];
            }
            char *d0 = o + dst * e;
            row(in + src * e, d0 + left * e, w, channels, dst_c);
            if (left > 0 || right > 0) borders(d0, channels, dst_c, w, left, right);
        }
    };
    // output rows of (w + left + right) * channels elements: 16 KB or more per task
    const int64_t row_bytes = std::max<int64_t>(1, shape[ndim - 1] * channels * e);
    const int64_t grain = std::max<int64_t>(1, 16384 / row_bytes);
    at::parallel_for(0, n * rows_per_n, grain, run_rows);
    g_routed++;
    return out;
}

// The circular pad of a dense channels_last `x` (4-D or 5-D) into a new contiguous tensor,
// pads (begin, end) >= 0 on the spatial dimensions only and at most their size (torch's
// circular; larger ones repeat: libndpad's path). Undefined tensor: not such a pad.
at::Tensor transposing_wrap(const at::Tensor &x, const std::vector<int64_t> &begin,
                            const std::vector<int64_t> &end)
{
    const int64_t ndim = x.dim();
    if ((ndim != 4 && ndim != 5) || x.numel() < 4096 || !plain_tensor(x) || x.is_conj() ||
        x.is_neg())
        return at::Tensor();
    const at::MemoryFormat cl =
        ndim == 4 ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::ChannelsLast3d;
    if (!x.is_contiguous(cl) || x.is_contiguous() || begin[0] || end[0] || begin[1] || end[1])
        return at::Tensor();
    for (int64_t k = 2; k < ndim; k++)
        if (begin[k] < 0 || end[k] < 0 || begin[k] > x.size(k) || end[k] > x.size(k))
            return at::Tensor();
    // pixels under a cache line (3 channels of an RGB image): deinterleaved row by row
    if (x.size(1) * x.element_size() < 64) return deinterleaving_wrap(x, begin, end);
    const TransposeRow row = transpose_row_for(x.element_size());
    if (row == nullptr) return at::Tensor();
    std::vector<int64_t> shape(ndim);
    for (int64_t k = 0; k < ndim; k++) shape[k] = x.size(k) + begin[k] + end[k];
    at::Tensor out = at::empty(shape, x.options());
    const int64_t e = x.element_size(), n = x.size(0), channels = x.size(1);
    const int64_t w = x.size(ndim - 1);
    // rows: (batch, the spatial indices but the last), each w pixels of all channels
    int64_t rows_per_n = 1;
    for (int64_t k = 2; k < ndim - 1; k++) rows_per_n *= x.size(k);
    const char *in = static_cast<const char *>(x.data_ptr());
    char *o = static_cast<char *>(out.data_ptr());
    const at::IntArrayRef os = out.strides();
    auto run_rows = [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; r++) {
            const int64_t b = r / rows_per_n;
            int64_t rest = r % rows_per_n, dst = b * os[0];
            for (int64_t k = ndim - 2; k >= 2; k--) { // the spatial indices but the last
                dst += (rest % x.size(k) + begin[k]) * os[k];
                rest /= x.size(k);
            }
            dst += begin[ndim - 1];
            row(in + r * w * channels * e, o + dst * e, w, channels, os[1] * e);
        }
    };
    // rows of w * channels elements: 16 KB or more of them per task
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, w * channels * e));
    at::parallel_for(0, n * rows_per_n, grain, run_rows);
    // the borders, from the interior, one padded dimension after the other (last first, so
    // each later copy carries the borders of the dimensions after it)
    for (int64_t k = ndim - 1; k >= 2; k--) {
        const int64_t d = x.size(k);
        if (begin[k] > 0) out.narrow(k, 0, begin[k]).copy_(out.narrow(k, d, begin[k]));
        if (end[k] > 0) out.narrow(k, begin[k] + d, end[k]).copy_(out.narrow(k, begin[k], end[k]));
    }
    g_routed++;
    return out;
}

// ---- _pad_circular -------------------------------------------------------------------

// torch crops first and wraps the cropped tensor, on every dimension past batch and channel.
struct CircularPads {
    std::vector<int64_t> lo, kept, before, after; // per dimension
};

bool circular_routable(const at::Tensor &x, at::IntArrayRef pad, CircularPads &c)
{
    const int64_t ndim = x.dim();
    if (!g_active.load(std::memory_order_relaxed) || pad.empty() || pad.size() % 2 != 0 ||
        ndim - static_cast<int64_t>(pad.size() / 2) < 1 ||
        ndim - static_cast<int64_t>(pad.size() / 2) > 2 ||
        padded_numel(x, pad) < g_threshold.load() || !plain_tensor(x))
        return false;
    // channels_last in, contiguous out, with pixels smaller than a cache line (an RGB
    // image): the elements of 2, 4 and 8 bytes of a dense channels_last tensor padded
    // (no crop) are deinterleaved row by row (transposing_wrap); the rest would be a
    // transpose first (circular_forward), which torch's kernel does as fast as ndpad's
    // (1x224x224x3: 0.84-0.98x routed; uint8: 1.0x deinterleaved), so torch keeps it
    if ((ndim == 4 || ndim == 5) && x.size(1) * x.element_size() < 64 && x.numel() >= 4096 &&
        !x.is_contiguous() && x.suggest_memory_format() != at::MemoryFormat::Contiguous) {
        const int64_t e = x.element_size();
        bool deinterleaved = (e == 2 || e == 4 || e == 8) &&
                             x.is_contiguous(ndim == 4 ? at::MemoryFormat::ChannelsLast
                                                       : at::MemoryFormat::ChannelsLast3d);
        for (int64_t p : pad) deinterleaved = deinterleaved && p >= 0;
        if (!deinterleaved) return false;
    }
    // torch 2 pads the last pad.size() / 2 dimensions after a batch and a channel
    // dimension, or after a channel dimension only (unbatched input)
    const int64_t first = ndim - static_cast<int64_t>(pad.size() / 2);
    std::vector<int64_t> begin, end;
    per_dim_pads(pad, ndim, begin, end);
    c.lo.assign(ndim, 0);
    c.kept.assign(ndim, 0);
    c.before.assign(ndim, 0);
    c.after.assign(ndim, 0);
    for (int64_t k = 0; k < ndim; k++) {
        const int64_t d = x.size(k), b = begin[k], e = end[k];
        c.lo[k] = std::max<int64_t>(-b, 0);
        c.kept[k] = d + std::min<int64_t>(b, 0) + std::min<int64_t>(e, 0);
        c.before[k] = std::max<int64_t>(b, 0);
        c.after[k] = std::max<int64_t>(e, 0);
        if (k >= first && (c.kept[k] <= 0 || b > c.kept[k] || e > c.kept[k]))
            return false; // torch's result or torch's error
    }
    return true;
}

at::Tensor circular_forward(const at::Tensor &x, const CircularPads &c)
{
    at::Tensor cropped = x;
    for (int64_t k = 0; k < x.dim(); k++)
        if (c.kept[k] != x.size(k)) cropped = cropped.narrow(k, c.lo[k], c.kept[k]);
    // channels_last in, contiguous out (torch's layout for circular): transposed in blocks
    // as it is padded, or (crops, pads larger than the size) torch's transpose first, then a
    // pad that keeps the layout (libndpad's strided gather is slower than both).
    at::Tensor transposed = transposing_wrap(cropped, c.before, c.after);
    if (transposed.defined()) return transposed;
    if (cropped.suggest_memory_format() != at::MemoryFormat::Contiguous &&
        !cropped.is_contiguous() && cropped.numel() >= 4096)
        cropped = cropped.contiguous();
    return run_ndpad(cropped, c.before, c.after, NDPAD_WRAP, nullptr, at::MemoryFormat::Contiguous);
}

// The gradient of the wrap: per padded dimension, the kept part's gradient plus the
// borders' gradients added where they were copied from, placed into zeros where cropped.
// Built from differentiable operations, so double backward works.
struct CircularPad : public torch::autograd::Function<CircularPad> {
    static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &x,
                              const CircularPads &c)
    {
        ctx->saved_data["shape"] = x.sizes().vec();
        ctx->saved_data["lo"] = c.lo;
        ctx->saved_data["kept"] = c.kept;
        ctx->saved_data["before"] = c.before;
        ctx->saved_data["after"] = c.after;
        return circular_forward(x, c);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grads)
    {
        const std::vector<int64_t> shape = ctx->saved_data["shape"].toIntVector();
        const std::vector<int64_t> lo = ctx->saved_data["lo"].toIntVector();
        const std::vector<int64_t> kept = ctx->saved_data["kept"].toIntVector();
        const std::vector<int64_t> before = ctx->saved_data["before"].toIntVector();
        const std::vector<int64_t> after = ctx->saved_data["after"].toIntVector();
        at::Tensor g = grads[0];
        for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); k++) {
            if (before[k] == 0 && after[k] == 0 && kept[k] == shape[k]) continue;
            at::Tensor part = g.narrow(k, before[k], kept[k]).clone();
            if (before[k] > 0)
                part.narrow(k, kept[k] - before[k], before[k]).add_(g.narrow(k, 0, before[k]));
            if (after[k] > 0)
                part.narrow(k, 0, after[k]).add_(g.narrow(k, before[k] + kept[k], after[k]));
            if (kept[k] != shape[k]) {
                std::vector<int64_t> size = part.sizes().vec();
                size[k] = shape[k];
                at::Tensor whole = at::zeros(size, part.options());
                whole.narrow(k, lo[k], kept[k]).copy_(part);
                part = whole;
            }
            g = part;
        }
        return {g, at::Tensor()};
    }
};

// At CPU: no autograd wanted (below the autograd layer, or inference mode).
at::Tensor pad_circular_cpu(const at::Tensor &x, at::IntArrayRef pad)
{
    CircularPads c;
    if (circular_routable(x, pad, c)) return circular_forward(x, c);
    g_kept++;
    return at::native::_pad_circular_symint(x, c10::fromIntArrayRefSlow(pad));
}

// At AutogradCPU: torch's composite records its own graph; ndpad's forward gets the
// gradient above.
at::Tensor pad_circular_autograd(const at::Tensor &x, at::IntArrayRef pad)
{
    CircularPads c;
    if (circular_routable(x, pad, c)) {
        if (x.requires_grad() && at::GradMode::is_enabled()) return CircularPad::apply(x, c);
        at::AutoDispatchBelowADInplaceOrView guard;
        return circular_forward(x, c);
    }
    g_kept++;
    return at::native::_pad_circular_symint(x, c10::fromIntArrayRefSlow(pad));
}

// ---- install / uninstall -------------------------------------------------------------

std::mutex g_install_mutex;
std::unique_ptr<torch::Library> g_cpu, g_autograd_cpu;

// fork() while another thread holds a mutex (a DataLoader worker forked while the main
// thread pads) would leave it locked forever in the child: both are held across the fork
// and released on both sides. Nothing else is locked under either.
void fork_prepare()
{
    g_install_mutex.lock();
    g_plans.fork_mutex().lock();
}
void fork_release()
{
    g_plans.fork_mutex().unlock();
    g_install_mutex.unlock();
}
[[maybe_unused]] const int g_fork_handlers =
    pthread_atfork(fork_prepare, fork_release, fork_release);

// Drops the dispatcher's "Overriding a previously registered kernel" (that is the point of
// install()); passes every other warning on.
class QuietOverrides : public c10::WarningHandler
{
  public:
    explicit QuietOverrides(c10::WarningHandler *next) : next_(next)
    {
    }
    void process(const c10::Warning &warning) override
    {
        // torch 2.4 prefixes it with "Warning only once for all operators"
        if (warning.msg().find("Overriding a previously registered kernel") == std::string::npos)
            next_->process(warning);
    }

  private:
    c10::WarningHandler *next_;
};

// libndpad's function addresses, once (later calls are ignored: one libndpad per process).
void set_functions_locked(const std::vector<int64_t> &functions)
{
    if (g_ndpad.plan_create == nullptr) set_ndpad(functions);
}

void set_functions(std::vector<int64_t> functions)
{
    std::lock_guard<std::mutex> lock(g_install_mutex);
    set_functions_locked(functions);
}

// The first call registers the kernels with the dispatcher, for the rest of the process;
// every call (re)activates them. torch's dispatcher does not allow kernels to be added or
// removed while other threads dispatch, so they are never removed: uninstall() clears the
// flag and the kernels then call torch's own directly. Only this first registration must
// not race with padding on other threads (ndpad.torch.install() says so).
void install(std::vector<int64_t> functions, int64_t threshold)
{
    std::lock_guard<std::mutex> lock(g_install_mutex);
    set_functions_locked(functions);
    g_threshold.store(threshold);
    if (!g_cpu) {
        QuietOverrides quiet(c10::WarningUtils::get_warning_handler());
        c10::WarningUtils::WarningHandlerGuard guard(&quiet);
        auto cpu = std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                    c10::DispatchKey::CPU, __FILE__, __LINE__);
        cpu->impl("constant_pad_nd", TORCH_FN(constant_pad_nd));
        cpu->impl("reflection_pad1d", TORCH_FN((border_pad<1, true>)));
        cpu->impl("reflection_pad2d", TORCH_FN((border_pad<2, true>)));
        cpu->impl("reflection_pad3d", TORCH_FN((border_pad<3, true>)));
        cpu->impl("replication_pad1d", TORCH_FN((border_pad<1, false>)));
        cpu->impl("replication_pad2d", TORCH_FN((border_pad<2, false>)));
        cpu->impl("replication_pad3d", TORCH_FN((border_pad<3, false>)));
        cpu->impl("_pad_circular", TORCH_FN(pad_circular_cpu));
        auto autograd_cpu =
            std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                             c10::DispatchKey::AutogradCPU, __FILE__, __LINE__);
        autograd_cpu->impl("_pad_circular", TORCH_FN(pad_circular_autograd));
        g_cpu = std::move(cpu);
        g_autograd_cpu = std::move(autograd_cpu);
    }
    g_active.store(true);
}

void uninstall()
{
    g_active.store(false); // the plan cache stays: a later install() reuses it
}

bool installed()
{
    return g_active.load();
}

bool registered()
{
    std::lock_guard<std::mutex> lock(g_install_mutex);
    return g_cpu != nullptr;
}

// ---- ndpad::pad and ndpad::crop_pad at the CPU key -------------------------------------
//
// The operators are declared in Python (_torch_ops.py: schema, fake kernel, autograd, and
// a CompositeExplicitAutograd kernel for every other device, which is also the CPU kernel
// when this library is not loaded). This is their CPU kernel: no Python runs below the
// autograd layer. It follows _torch_ops.compute() step by step (the fake kernel's twin):
// the same checks and messages, the same output layout.

ndpad_mode op_mode(c10::string_view name)
{
    static const std::pair<c10::string_view, ndpad_mode> names[] = {{"constant", NDPAD_CONSTANT},
                                                                    {"reflect", NDPAD_REFLECT},
                                                                    {"replicate", NDPAD_EDGE},
                                                                    {"circular", NDPAD_WRAP},
                                                                    {"symmetric", NDPAD_SYMMETRIC}};
    for (const auto &entry : names)
        if (name == entry.first) return entry.second;
    TORCH_CHECK_NOT_IMPLEMENTED(false, "Unrecognised padding mode ", name);
    return NDPAD_CONSTANT;
}

// _torch_ops.check(): negative sizes, nothing left to wrap, borders of an empty dimension.
void op_check(const at::Tensor &x, const std::vector<int64_t> &begin,
              const std::vector<int64_t> &end, c10::string_view mode_name, ndpad_mode mode,
              bool crop_first)
{
    const int64_t ndim = x.dim();
    TORCH_CHECK(static_cast<int64_t>(begin.size()) == ndim &&
                    static_cast<int64_t>(end.size()) == ndim,
                "ndpad.torch: ", begin.size(), " pads_begin and ", end.size(), " pads_end for ",
                ndim, " dimensions");
    for (int64_t k = 0; k < ndim; k++) {
        const int64_t d = x.size(k), b = begin[k], e = end[k];
        const int64_t kept = d + std::min<int64_t>(b, 0) + std::min<int64_t>(e, 0);
        TORCH_CHECK(d + b + e >= 0 && (!crop_first || kept >= 0), "ndpad.torch.pad: pad (", b, ", ",
                    e, ") on dimension ", k, " of size ", d, " gives a negative size");
        TORCH_CHECK(!crop_first || kept != 0 || d + b + e <= 0, "ndpad.torch.pad: circular pad (",
                    b, ", ", e, ") on dimension ", k, " of size ", d,
                    " crops all of it and has nothing to wrap");
        TORCH_CHECK(d != 0 || mode == NDPAD_CONSTANT || d + b + e <= 0, "ndpad.torch.pad: mode ",
                    mode_name, " on dimension ", k,
                    " of size 0 has nothing to copy its borders from");
    }
}

// _torch_ops.output_format(): constant keeps suggest_memory_format, reflect, replicate
// and symmetric too where torch's reflection/replication_pad{pairs}d does (pairs 0: the
// crop form), the rest is contiguous.
at::MemoryFormat op_format(const at::Tensor &x, ndpad_mode mode, int64_t pairs)
{
    const int64_t ndim = x.dim();
    if (ndim != 4 && ndim != 5) return at::MemoryFormat::Contiguous;
    if (mode == NDPAD_CONSTANT) return x.suggest_memory_format();
    if ((mode == NDPAD_REFLECT || mode == NDPAD_SYMMETRIC || mode == NDPAD_EDGE) && pairs > 0 &&
        keeps_channels_last(mode != NDPAD_EDGE, pairs, ndim))
        return x.suggest_memory_format();
    return at::MemoryFormat::Contiguous;
}

// _torch_grad.source(): the source index of positions k of an axis of extent d, -1 where
// the output takes the pad value.
at::Tensor source_index(ndpad_mode mode, int64_t d, const at::Tensor &k)
{
    switch (mode) {
    case NDPAD_CONSTANT: return k.where(k.ge(0).logical_and(k.lt(d)), k.new_full(k.sizes(), -1));
    case NDPAD_EDGE: return k.clamp(0, d - 1);
    case NDPAD_REFLECT: {
        if (d == 1) return k.new_zeros(k.sizes());
        const int64_t period = 2 * (d - 1);
        const at::Tensor m = k.remainder(period);
        return m.where(m.lt(d), m.neg().add(period));
    }
    case NDPAD_SYMMETRIC: {
        const at::Tensor m = k.remainder(2 * d);
        return m.where(m.lt(d), m.neg().add(2 * d - 1));
    }
    default: return k.remainder(d);
    }
}

// What libndpad cannot read (more than NDPAD_MAX_RANK dimensions, complex32): a gather of
// the index map with torch operations (_torch_ops._gather_kernel's twin).
void gather_into(const at::Tensor &x, const std::vector<int64_t> &begin,
                 const std::vector<int64_t> &end, ndpad_mode mode, double value,
                 const at::Tensor &out)
{
    at::Tensor y = x, mask;
    for (int64_t k = 0; k < x.dim(); k++) {
        const int64_t d = x.size(k), b = begin[k], e = end[k];
        if (b == 0 && e == 0) continue;
        at::Tensor src = source_index(mode, d, at::arange(d + b + e, at::kLong).sub(b));
        if (mode == NDPAD_CONSTANT) {
            std::vector<int64_t> shape(x.dim(), 1);
            shape[k] = -1;
            const at::Tensor valid = src.ge(0).view(shape);
            mask = mask.defined() ? mask.logical_and(valid) : valid;
            src = src.clamp_min(0);
        }
        if (d > 0) {
            y = y.index_select(k, src);
        } else {
            std::vector<int64_t> size = y.sizes().vec();
            size[k] = d + b + e;
            y = y.new_empty(size);
        }
    }
    if (mask.defined()) y = y.where(mask, at::zeros({}, x.options()).fill_(value));
    out.copy_(y);
}

// _torch_ops.compute(): only crops of a constant pad are a clone of the narrowed input;
// circular crops first; the rest is libndpad into a new tensor of `format`.
at::Tensor op_compute(at::Tensor x, std::vector<int64_t> begin, std::vector<int64_t> end,
                      ndpad_mode mode, bool crop_first, double value, int64_t threads,
                      at::MemoryFormat format)
{
    const int64_t ndim = x.dim();
    bool crops_only = mode == NDPAD_CONSTANT;
    for (int64_t k = 0; k < ndim && crops_only; k++) crops_only = begin[k] <= 0 && end[k] <= 0;
    if (crops_only) {
        for (int64_t k = 0; k < ndim; k++)
            if (begin[k] != 0 || end[k] != 0)
                x = x.narrow(k, -begin[k], x.size(k) + begin[k] + end[k]);
        return x.clone();
    }
    if (crop_first) {
        for (int64_t k = 0; k < ndim; k++) {
            if (begin[k] < 0 || end[k] < 0)
                x = x.narrow(k, std::max<int64_t>(-begin[k], 0),
                             x.size(k) + std::min<int64_t>(begin[k], 0) +
                                 std::min<int64_t>(end[k], 0));
            begin[k] = std::max<int64_t>(begin[k], 0);
            end[k] = std::max<int64_t>(end[k], 0);
        }
    }
    if (mode == NDPAD_WRAP && format == at::MemoryFormat::Contiguous && threads < 0) {
        at::Tensor transposed = transposing_wrap(x, begin, end); // on torch's pool
        if (transposed.defined()) return transposed;
    }
    std::vector<int64_t> shape(ndim);
    for (int64_t k = 0; k < ndim; k++) shape[k] = x.size(k) + begin[k] + end[k];
    at::Tensor out = at::empty(shape, x.options().memory_format(format));
    if (out.numel() == 0) return out;
    // A pad that transposes (channels_last in, contiguous out) is a strided gather for
    // libndpad: circular transposes in blocks as it pads (transposing_wrap), the rest runs
    // torch's transpose first, then a pad that keeps the layout.
    if ((ndim == 4 || ndim == 5) && format != x.suggest_memory_format() &&
        !x.is_contiguous(format) && x.numel() >= 4096)
        x = x.contiguous(format);
    if (plain_tensor(x)) {
        const at::Scalar fill(value);
        run_into(x, begin, end, mode, &fill, out, threads);
    } else {
        gather_into(x, begin, end, mode, value, out);
    }
    return out;
}

int64_t op_threads(std::optional<int64_t> threads)
{
    if (!threads.has_value()) return -1; // torch's pool, torch.get_num_threads() threads
    TORCH_CHECK(*threads >= 0 && *threads <= INT32_MAX,
                "threads must be in [0, 2**31 - 1] (0 = all cores), got ", *threads);
    return *threads;
}

// ndpad::pad(Tensor input, SymInt[] pad, str mode="constant", float? value=None,
//            int? threads=None) -> Tensor
at::Tensor pad_op(const at::Tensor &input, at::IntArrayRef pad, c10::string_view mode_name,
                  std::optional<double> value, std::optional<int64_t> threads)
{
    const ndpad_mode mode = op_mode(mode_name);
    const int64_t ndim = input.dim();
    TORCH_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
    TORCH_CHECK(static_cast<int64_t>(pad.size() / 2) <= ndim,
                "Padding length too large: ", pad.size(), " pads for ", ndim, " dimensions");
    std::vector<int64_t> begin, end;
    per_dim_pads(pad, ndim, begin, end);
    const bool crop_first = mode == NDPAD_WRAP; // torch's circular crops first
    op_check(input, begin, end, mode_name, mode, crop_first);
    TORCH_CHECK(mode == NDPAD_CONSTANT || !value.has_value(), "Padding mode \"", mode_name,
                "\" doesn't take in value argument");
    return op_compute(input, begin, end, mode, crop_first, value.value_or(0.0), op_threads(threads),
                      op_format(input, mode, static_cast<int64_t>(pad.size() / 2)));
}

// ndpad::crop_pad(Tensor input, SymInt[] pads_begin, SymInt[] pads_end,
//                 str mode="constant", float value=0., int? threads=None) -> Tensor
at::Tensor crop_pad_op(const at::Tensor &input, at::IntArrayRef pads_begin,
                       at::IntArrayRef pads_end, c10::string_view mode_name, double value,
                       std::optional<int64_t> threads)
{
    const ndpad_mode mode = op_mode(mode_name);
    std::vector<int64_t> begin(pads_begin.begin(), pads_begin.end());
    std::vector<int64_t> end(pads_end.begin(), pads_end.end());
    op_check(input, begin, end, mode_name, mode, false);
    return op_compute(input, begin, end, mode, false, value, op_threads(threads),
                      op_format(input, mode, 0));
}

// ---- autograd of ndpad::pad and ndpad::crop_pad at AutogradCPU -------------------------
//
// _torch_ops.py registers their autograd formula with torch.library (the Autograd alias:
// every device); this is the same formula in C++ at AutogradCPU, so that a CPU pad that
// wants no gradient runs no Python at all. The gradient is the operator ndpad::pad_backward
// (declared in Python, its own gradient the pad again: double backward as before). Sizes
// and pads stay SymInts: AOTAutograd traces this with symbolic shapes.

using PadOpFn = at::Tensor(const at::Tensor &, c10::SymIntArrayRef, c10::string_view,
                           std::optional<double>, std::optional<int64_t>);
using CropPadOpFn = at::Tensor(const at::Tensor &, c10::SymIntArrayRef, c10::SymIntArrayRef,
                               c10::string_view, double, std::optional<int64_t>);
using PadBackwardFn = at::Tensor(const at::Tensor &, c10::SymIntArrayRef, c10::SymIntArrayRef,
                                 c10::SymIntArrayRef, c10::string_view, bool);

template <typename Fn> const c10::TypedOperatorHandle<Fn> &operator_handle(const char *name)
{
    // One per (name, signature): each call site below asks for one operator only.
    static const c10::TypedOperatorHandle<Fn> op =
        c10::Dispatcher::singleton().findSchemaOrThrow(name, "").template typed<Fn>();
    return op;
}

// The gradient of both: saved (input sizes, per-dimension pads, mode, crop first).
torch::autograd::variable_list pad_gradient(torch::autograd::AutogradContext *ctx,
                                            const torch::autograd::variable_list &grads,
                                            size_t inputs)
{
    const std::vector<c10::SymInt> shape = ctx->saved_data["shape"].toSymIntVector();
    const std::vector<c10::SymInt> begin = ctx->saved_data["begin"].toSymIntVector();
    const std::vector<c10::SymInt> end = ctx->saved_data["end"].toSymIntVector();
    const std::string mode = ctx->saved_data["mode"].toStringRef();
    const bool crop_first = ctx->saved_data["crop_first"].toBool();
    torch::autograd::variable_list out(inputs);
    out[0] = operator_handle<PadBackwardFn>("ndpad::pad_backward")
                 .call(grads[0], shape, begin, end, mode, crop_first);
    return out;
}

void save_pads(torch::autograd::AutogradContext *ctx, const at::Tensor &input,
               std::vector<c10::SymInt> begin, std::vector<c10::SymInt> end, c10::string_view mode,
               bool crop_first)
{
    ctx->saved_data["shape"] = input.sym_sizes();
    ctx->saved_data["begin"] = c10::SymIntArrayRef(begin);
    ctx->saved_data["end"] = c10::SymIntArrayRef(end);
    ctx->saved_data["mode"] = std::string(mode);
    ctx->saved_data["crop_first"] = crop_first;
}

struct PadFunction : public torch::autograd::Function<PadFunction> {
    static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &input,
                              c10::SymIntArrayRef pad, c10::string_view mode,
                              std::optional<double> value, std::optional<int64_t> threads,
                              c10::DispatchKeySet below)
    {
        // _torch_ops._setup_pad: F.pad's pairs (last dimension first) per dimension
        const int64_t ndim = input.dim();
        std::vector<c10::SymInt> begin(ndim, c10::SymInt(0)), end(ndim, c10::SymInt(0));
        for (size_t i = 0; i < pad.size() / 2 && static_cast<int64_t>(i) < ndim; i++) {
            begin[ndim - 1 - i] = pad[2 * i];
            end[ndim - 1 - i] = pad[2 * i + 1];
        }
        save_pads(ctx, input, std::move(begin), std::move(end), mode, mode == "circular");
        return operator_handle<PadOpFn>("ndpad::pad")
            .redispatch(below, input, pad, mode, value, threads);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grads)
    {
        return pad_gradient(ctx, grads, 6);
    }
};

struct CropPadFunction : public torch::autograd::Function<CropPadFunction> {
    static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &input,
                              c10::SymIntArrayRef pads_begin, c10::SymIntArrayRef pads_end,
                              c10::string_view mode, double value, std::optional<int64_t> threads,
                              c10::DispatchKeySet below)
    {
        save_pads(ctx, input, pads_begin.vec(), pads_end.vec(), mode, false);
        return operator_handle<CropPadOpFn>("ndpad::crop_pad")
            .redispatch(below, input, pads_begin, pads_end, mode, value, threads);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grads)
    {
        return pad_gradient(ctx, grads, 7);
    }
};

// torch.library's autograd kernel does the same: the graph only when a gradient is wanted.
at::Tensor pad_autograd(c10::DispatchKeySet ks, const at::Tensor &input, c10::SymIntArrayRef pad,
                        c10::string_view mode, std::optional<double> value,
                        std::optional<int64_t> threads)
{
    const c10::DispatchKeySet below = ks & c10::after_autograd_keyset;
    if (at::GradMode::is_enabled() && input.requires_grad())
        return PadFunction::apply(input, pad, mode, value, threads, below);
    return operator_handle<PadOpFn>("ndpad::pad")
        .redispatch(below, input, pad, mode, value, threads);
}

at::Tensor crop_pad_autograd(c10::DispatchKeySet ks, const at::Tensor &input,
                             c10::SymIntArrayRef pads_begin, c10::SymIntArrayRef pads_end,
                             c10::string_view mode, double value, std::optional<int64_t> threads)
{
    const c10::DispatchKeySet below = ks & c10::after_autograd_keyset;
    if (at::GradMode::is_enabled() && input.requires_grad())
        return CropPadFunction::apply(input, pads_begin, pads_end, mode, value, threads, below);
    return operator_handle<CropPadOpFn>("ndpad::crop_pad")
        .redispatch(below, input, pads_begin, pads_end, mode, value, threads);
}

// 0: torch's intra-op pool (default); 1: ndpad's own workers; 2: ndpad's OpenMP team.
void set_pool(int64_t choice)
{
    TORCH_CHECK(choice >= kTorchPool && choice <= kNdpadTeam, "ndpad::set_pool: 0, 1 or 2");
    g_pool.store(choice);
}

std::vector<int64_t> calls()
{
    return {g_routed.load(), g_kept.load()};
}

// Stalls of torch's pool seen so far, each followed by a back-off (benchmarks report it).
int64_t stalls()
{
    return g_stalls.load();
}

// The torch version this file was compiled against: the loader refuses another one.
std::string built_for()
{
    return NDPAD_TORCH_VERSION;
}

} // namespace

TORCH_LIBRARY_FRAGMENT(ndpad, m)
{
    m.def("set_functions(int[] ndpad_functions) -> ()", &set_functions);
    m.def("registered() -> bool", &registered);
    m.def("set_pool(int choice) -> ()", &set_pool);
    m.def("install(int[] ndpad_functions, int threshold) -> ()", &install);
    m.def("built_for() -> str", &built_for);
    m.def("uninstall() -> ()", &uninstall);
    m.def("installed() -> bool", &installed);
    m.def("calls() -> int[]", &calls);
    m.def("stalls() -> int", &stalls);
}

// The CPU kernels of the operators _torch_ops.py declares (registered when this library is
// loaded: before any pad runs, see _torch_native.load()).
TORCH_LIBRARY_IMPL(ndpad, CPU, m)
{
    m.impl("pad", TORCH_FN(pad_op));
    m.impl("crop_pad", TORCH_FN(crop_pad_op));
}

// Their autograd at AutogradCPU (torch.library's Python formula stays for other devices).
TORCH_LIBRARY_IMPL(ndpad, AutogradCPU, m)
{
    m.impl("pad", TORCH_FN(pad_autograd));
    m.impl("crop_pad", TORCH_FN(crop_pad_autograd));
}
