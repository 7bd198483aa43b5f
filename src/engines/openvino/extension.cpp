// The OpenVINO extension library: ndpad's operator (NdpadPad, opset "ndpad") for models and
// IR files, and the ONNX frontend's Pad converted to it. Load it with
// core.add_extension(path) (Python: ndpad.openvino.extension_path()).
#include <atomic>

#include <openvino/core/extension.hpp>
#include <openvino/core/op_extension.hpp>
#include <openvino/frontend/extension/conversion.hpp>

#include "onnx-pad.hpp"
#include "pad-op.hpp"

namespace ndpad_openvino
{

namespace
{
std::atomic<int64_t> executions{0};
std::atomic<int32_t> last_threads{0};
} // namespace

void count_execution(int32_t threads)
{
    executions.fetch_add(1, std::memory_order_relaxed);
    last_threads.store(threads, std::memory_order_relaxed);
}

} // namespace ndpad_openvino

// How often NdpadPad ran in this process, and the thread budget (the TBB arena's
// concurrency) of its last execution: for tests and benchmarks (ctypes on the same path).
extern "C" __attribute__((visibility("default"))) void ndpad_openvino_stats(int64_t *executions,
                                                                            int32_t *last_threads)
{
    *executions = ndpad_openvino::executions.load(std::memory_order_relaxed);
    *last_threads = ndpad_openvino::last_threads.load(std::memory_order_relaxed);
}

OPENVINO_CREATE_EXTENSIONS(std::vector<ov::Extension::Ptr>(
    {std::make_shared<ov::OpExtension<ndpad_openvino::Pad>>(),
     std::make_shared<ov::frontend::ConversionExtension>("Pad",
                                                         ndpad_openvino::convert_onnx_pad)}));
