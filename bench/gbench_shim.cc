// gbench_shim.cc — the C API of gbench_shim.h over Google Benchmark. The only C++ in ndpad:
// the opaque C handles are the Google Benchmark objects themselves, cast.
#include "gbench_shim.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

namespace
{

benchmark::State &st(gbench_state *s)
{
    return *reinterpret_cast<benchmark::State *>(s);
}
const benchmark::State &st(const gbench_state *s)
{
    return *reinterpret_cast<const benchmark::State *>(s);
}
benchmark::internal::Benchmark *bm(gbench_benchmark *b)
{
    return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

// "--benchmark_min_time=0.05" -> "--benchmark_min_time"
std::string flag_name(const char *arg)
{
    const char *eq = std::strchr(arg, '=');
    return eq != nullptr ? std::string(arg, static_cast<size_t>(eq - arg)) : std::string(arg);
}

} // namespace

extern "C" {

gbench_benchmark *gbench_register(const char *name, gbench_fn fn, void *arg)
{
    benchmark::internal::Benchmark *b =
        benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &state) {
            fn(reinterpret_cast<gbench_state *>(&state), arg);
        });
    return reinterpret_cast<gbench_benchmark *>(b);
}

void gbench_add_args(gbench_benchmark *b, const int64_t *args, int count)
{
    bm(b)->Args(std::vector<int64_t>(args, args + count));
}

void gbench_set_arg_names(gbench_benchmark *b, const char *const *names, int count)
{
    bm(b)->ArgNames(std::vector<std::string>(names, names + count));
}

void gbench_use_real_time(gbench_benchmark *b)
{
    bm(b)->UseRealTime();
}
void gbench_use_manual_time(gbench_benchmark *b)
{
    bm(b)->UseManualTime();
}
void gbench_set_min_time(gbench_benchmark *b, double seconds)
{
    bm(b)->MinTime(seconds);
}

int gbench_keep_running(gbench_state *state)
{
    return st(state).KeepRunning() ? 1 : 0;
}
int gbench_keep_running_batch(gbench_state *state, int64_t n)
{
    return st(state).KeepRunningBatch(static_cast<benchmark::IterationCount>(n)) ? 1 : 0;
}
int64_t gbench_iterations(const gbench_state *state)
{
    return static_cast<int64_t>(st(state).iterations());
}
int64_t gbench_range(const gbench_state *state, int index)
{
    return st(state).range(static_cast<size_t>(index));
}
void gbench_set_bytes_processed(gbench_state *state, int64_t bytes)
{
    st(state).SetBytesProcessed(bytes);
}
void gbench_set_items_processed(gbench_state *state, int64_t items)
{
    st(state).SetItemsProcessed(items);
}
void gbench_set_counter(gbench_state *state, const char *name, double value, unsigned flags)
{
    st(state).counters[name] =
        benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(flags));
}
void gbench_set_iteration_time(gbench_state *state, double seconds)
{
    st(state).SetIterationTime(seconds);
}
void gbench_set_label(gbench_state *state, const char *label)
{
    st(state).SetLabel(label);
}
void gbench_skip_with_error(gbench_state *state, const char *message)
{
    st(state).SkipWithError(message);
}

int gbench_run(int argc, char **argv, const char *const *default_flags)
{
    // argv[0], then each default the user did not set, then the user's arguments.
    std::vector<std::string> storage;
    storage.emplace_back(argc > 0 ? argv[0] : "gbench");
    for (const char *const *d = default_flags; d != nullptr && *d != nullptr; d++) {
        const std::string name = flag_name(*d);
        bool given = false;
        for (int i = 1; i < argc && !given; i++) given = flag_name(argv[i]) == name;
        if (!given) storage.emplace_back(*d);
    }
    for (int i = 1; i < argc; i++) storage.emplace_back(argv[i]);
    std::vector<char *> args;
    for (std::string &s : storage) args.push_back(&s[0]);
    args.push_back(nullptr);
    int count = static_cast<int>(storage.size());

    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // extern "C"
