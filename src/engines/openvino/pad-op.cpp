// ndpad's Pad operator for OpenVINO (pad-op.hpp): shape inference by OpenVINO's own Pad-12,
// execution by libndpad on the CPU plugin's TBB threads.
#include "pad-op.hpp"

#include <algorithm>
#include <type_traits>

#include <openvino/core/parallel.hpp>
#include <openvino/op/pad.hpp>
#include <tbb/task_arena.h>

#include "ndpad.h"

namespace ndpad_openvino
{

namespace
{

struct ModeName {
    const char *name;
    ndpad_mode mode;
    ov::op::PadMode ov_mode; // the mode of OpenVINO's Pad that infers the shape
};
// wrap has no OpenVINO mode; its output shape is that of any other mode.
const ModeName modes[] = {{"constant", NDPAD_CONSTANT, ov::op::PadMode::CONSTANT},
                          {"edge", NDPAD_EDGE, ov::op::PadMode::EDGE},
                          {"reflect", NDPAD_REFLECT, ov::op::PadMode::REFLECT},
                          {"symmetric", NDPAD_SYMMETRIC, ov::op::PadMode::SYMMETRIC},
                          {"wrap", NDPAD_WRAP, ov::op::PadMode::CONSTANT}};

const ModeName *find_mode(const std::string &name)
{
    for (const ModeName &m : modes) {
        if (name == m.name) {
            return &m;
        }
    }
    return nullptr;
}

template <typename T> std::vector<int64_t> ints_as(const ov::Tensor &t)
{
    const T *p = t.data<const T>();
    std::vector<int64_t> v(t.get_size());
    for (size_t i = 0; i < v.size(); i++) {
        OPENVINO_ASSERT(static_cast<uint64_t>(p[i]) <= static_cast<uint64_t>(INT64_MAX) ||
                            std::is_signed<T>::value,
                        "NdpadPad: pad ", i, " does not fit int64");
        v[i] = static_cast<int64_t>(p[i]);
    }
    return v;
}

std::vector<int64_t> read_pads(const ov::Tensor &t, const char *name)
{
    switch (t.get_element_type()) {
    case ov::element::i8: return ints_as<int8_t>(t);
    case ov::element::i16: return ints_as<int16_t>(t);
    case ov::element::i32: return ints_as<int32_t>(t);
    case ov::element::i64: return ints_as<int64_t>(t);
    case ov::element::u8: return ints_as<uint8_t>(t);
    case ov::element::u16: return ints_as<uint16_t>(t);
    case ov::element::u32: return ints_as<uint32_t>(t);
    case ov::element::u64: return ints_as<uint64_t>(t);
    default:
        OPENVINO_THROW("NdpadPad: ", name, " has element type ", t.get_element_type(),
                       ", not an integer type");
    }
}

// ndpad's host pool over OpenVINO's threads: ov::parallel_for runs the tasks in the
// calling thread's TBB arena (the CPU plugin's stream, INFERENCE_NUM_THREADS wide).
void tbb_parallel_for(void *, ndpad_task_fn task, void *task_context, size_t n)
{
    ov::parallel_for(n, [&](size_t i) { task(task_context, i); });
}

// Element sizes of the packed types ndpad runs: OpenVINO packs the first element of
// u4/i4/nf4/f4e2m1 in the low bits of a byte, as ndpad's sub-byte problems do. u1, u2 (not
// packed so), u3 and u6 (split over planes) are left to OpenVINO's own Pad.
int32_t sub_byte_bits(const ov::element::Type &et)
{
    switch (et) {
    case ov::element::u4:
    case ov::element::i4:
    case ov::element::nf4:
    case ov::element::f4e2m1: return 4;
    default: return 0;
    }
}

bool supported(const ov::element::Type &et)
{
    return et != ov::element::string && (et.bitwidth() % 8 == 0 || sub_byte_bits(et) != 0);
}

} // namespace

struct Pad::CachedPlan {
    std::vector<int64_t> key;
    ndpad_plan *plan = nullptr;
    ndpad_bits_plan *bits_plan = nullptr;
    ~CachedPlan()
    {
        ndpad_plan_destroy(plan);
        ndpad_bits_plan_destroy(bits_plan);
    }
};

Pad::Pad(const ov::OutputVector &args, std::string mode) : Op(args), m_mode(std::move(mode))
{
    constructor_validate_and_infer_types();
}

void Pad::validate_and_infer_types()
{
    const ModeName *mode = find_mode(m_mode);
    NODE_VALIDATION_CHECK(this, mode != nullptr, "mode '", m_mode,
                          "' is not constant, edge, reflect, symmetric or wrap");
    NODE_VALIDATION_CHECK(this, get_input_size() == 3 || get_input_size() == 4,
                          "takes 3 or 4 inputs (data, pads_begin, pads_end[, pad_value]), not ",
                          get_input_size());
    const ov::element::Type et = get_input_element_type(0);
    NODE_VALIDATION_CHECK(this, et.is_dynamic() || supported(et), "element type ", et,
                          " is not supported");
    // OpenVINO's own Pad-12 on the same inputs: the same output shape (static, bounded or
    // dynamic) and the same errors for pads it rejects. The temporary node is detached
    // from the inputs when it goes.
    ov::OutputVector args;
    for (size_t i = 0; i < get_input_size(); i++) {
        args.push_back(input_value(i));
    }
    std::shared_ptr<ov::op::v12::Pad> reference;
    if (args.size() == 4) {
        reference =
            std::make_shared<ov::op::v12::Pad>(args[0], args[1], args[2], args[3], mode->ov_mode);
    } else {
        reference = std::make_shared<ov::op::v12::Pad>(args[0], args[1], args[2], mode->ov_mode);
    }
    set_output_type(0, et, reference->get_output_partial_shape(0));
}

bool Pad::visit_attributes(ov::AttributeVisitor &visitor)
{
    visitor.on_attribute("mode", m_mode);
    return true;
}

std::shared_ptr<ov::Node> Pad::clone_with_new_inputs(const ov::OutputVector &args) const
{
    check_new_args_count(this, args);
    return std::make_shared<Pad>(args, m_mode);
}

bool Pad::has_evaluate() const
{
    const ov::element::Type et = get_input_element_type(0);
    return supported(et);
}

std::shared_ptr<const Pad::CachedPlan> Pad::plan_for(const std::vector<int64_t> &key,
                                                     int32_t threads, const void *pad_value) const
{
    {
        std::lock_guard<std::mutex> hold(m_lock);
        for (const auto &cached : m_cached) {
            if (cached->key == key) {
                return cached;
            }
        }
    }
    // key: elem_size (negative: -bits), mode, rank, shape, begin, end, threads, value bytes
    const int32_t rank = static_cast<int32_t>(key[2]);
    ndpad_problem problem = {};
    problem.rank = rank;
    problem.mode = static_cast<int32_t>(key[1]);
    problem.elem_size = key[0] > 0 ? static_cast<size_t>(key[0]) : 1;
    problem.shape = key.data() + 3;
    problem.pads_begin = key.data() + 3 + rank;
    problem.pads_end = key.data() + 3 + 2 * rank;
    problem.pad_value = pad_value;
    ndpad_thread_pool pool = {tbb_parallel_for, nullptr, threads};
    ndpad_options options;
    ndpad_options_init(&options);
    options.thread_pool = &pool;
    auto made = std::make_shared<CachedPlan>();
    made->key = key;
    ndpad_status status;
    if (key[0] > 0) {
        status = ndpad_plan_create(&problem, &options, &made->plan);
    } else {
        ndpad_bits_problem bits = {};
        bits.problem = problem;
        bits.elem_bits = static_cast<int32_t>(-key[0]);
        status = ndpad_bits_plan_create(&bits, &options, &made->bits_plan);
    }
    if (status != NDPAD_OK) {
        OPENVINO_THROW("NdpadPad '", get_friendly_name(), "': ", ndpad_last_error());
    }
    std::lock_guard<std::mutex> hold(m_lock);
    if (m_cached.size() == cached_plans) {
        m_cached.pop_back(); // the oldest; a request still executing it keeps it alive
    }
    m_cached.insert(m_cached.begin(), made);
    return made;
}

bool Pad::evaluate(ov::TensorVector &outputs, const ov::TensorVector &inputs) const
{
    const ModeName *mode = find_mode(m_mode);
    OPENVINO_ASSERT(mode != nullptr && inputs.size() >= 3 && outputs.size() == 1,
                    "NdpadPad: bad call");
    const ov::Tensor &data = inputs[0];
    const ov::element::Type et = data.get_element_type();
    const ov::Shape &shape = data.get_shape();
    const size_t rank = shape.size();
    const std::vector<int64_t> begin = read_pads(inputs[1], "pads_begin");
    const std::vector<int64_t> end = read_pads(inputs[2], "pads_end");
    OPENVINO_ASSERT(begin.size() == rank && end.size() == rank, "NdpadPad '", get_friendly_name(),
                    "': pads_begin and pads_end have ", begin.size(), " and ", end.size(),
                    " entries, data has rank ", rank);
    const int32_t bits = sub_byte_bits(et);
    OPENVINO_ASSERT(supported(et), "NdpadPad: element type ", et, " is not supported");
    const void *pad_value = nullptr;
    if (mode->mode == NDPAD_CONSTANT && inputs.size() == 4) {
        const ov::Tensor &value = inputs[3];
        OPENVINO_ASSERT(value.get_element_type() == et && value.get_size() == 1, "NdpadPad '",
                        get_friendly_name(), "': pad_value must be one element of type ", et);
        pad_value = value.data();
    }
    const int32_t threads = std::max(1, tbb::this_task_arena::max_concurrency());
    std::vector<int64_t> key = {bits != 0 ? -bits : static_cast<int64_t>(et.size()), mode->mode,
                                static_cast<int64_t>(rank)};
    ov::Shape out_shape(rank);
    for (size_t k = 0; k < rank; k++) {
        key.push_back(static_cast<int64_t>(shape[k]));
    }
    key.insert(key.end(), begin.begin(), begin.end());
    key.insert(key.end(), end.begin(), end.end());
    for (size_t k = 0; k < rank; k++) {
        int64_t extent = 0;
        const bool overflow =
            __builtin_add_overflow(static_cast<int64_t>(shape[k]), begin[k], &extent) ||
            __builtin_add_overflow(extent, end[k], &extent);
        OPENVINO_ASSERT(!overflow && extent >= 0, "NdpadPad '", get_friendly_name(), "': axis ", k,
                        " of extent ", shape[k], " padded by ", begin[k], " and ", end[k],
                        overflow ? " overflows int64" : " is negative");
        out_shape[k] = static_cast<size_t>(extent);
    }
    key.push_back(threads);
    if (pad_value != nullptr) {
        const size_t value_bytes = bits != 0 ? 1 : et.size();
        for (size_t i = 0; i < value_bytes; i++) {
            key.push_back(static_cast<const unsigned char *>(pad_value)[i]);
        }
    }
    std::shared_ptr<const CachedPlan> plan = plan_for(key, threads, pad_value);
    if (!outputs[0]) {
        outputs[0] = ov::Tensor(et, out_shape);
    } else {
        outputs[0].set_shape(out_shape);
    }
    if (bits != 0 && outputs[0].get_byte_size() > 0 &&
        (ov::shape_size(out_shape) * bits) % 8 != 0) {
        // The last byte's bits past the last element: zero, as OpenVINO's own Pad leaves
        // them (ndpad never writes bits that are not elements).
        static_cast<unsigned char *>(outputs[0].data())[outputs[0].get_byte_size() - 1] = 0;
    }
    const ndpad_status status =
        plan->plan != nullptr ? ndpad_execute(plan->plan, data.data(), outputs[0].data())
                              : ndpad_bits_execute(plan->bits_plan, data.data(), outputs[0].data());
    if (status != NDPAD_OK) {
        OPENVINO_THROW("NdpadPad '", get_friendly_name(), "': ", ndpad_last_error());
    }
    count_execution(threads);
    return true;
}

} // namespace ndpad_openvino
