// ndpad's Pad operator for OpenVINO: OpenVINO Pad-12's semantics (negative pads crop, the
// borders take their values from the whole input) in the modes constant, edge, reflect,
// symmetric and wrap, executed by libndpad on the CPU plugin's own TBB threads.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <openvino/op/op.hpp>

struct ndpad_plan;

namespace ndpad_openvino
{

// inputs: data, pads_begin, pads_end (1-d, one entry per axis of data, any integer type),
// pad_value (optional scalar of data's type; read in "constant" mode only, zero without it).
class Pad : public ov::op::Op
{
  public:
    OPENVINO_OP("NdpadPad", "ndpad");

    Pad() = default;
    Pad(const ov::OutputVector &args, std::string mode);

    void validate_and_infer_types() override;
    bool visit_attributes(ov::AttributeVisitor &visitor) override;
    std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector &args) const override;
    bool evaluate(ov::TensorVector &outputs, const ov::TensorVector &inputs) const override;
    bool has_evaluate() const override;

    const std::string &mode() const
    {
        return m_mode;
    }

  private:
    // The last plans this node made (up to cached_plans), kept for the next inferences of
    // the same problems (a plan is immutable: other threads may still execute one dropped).
    struct CachedPlan;
    std::shared_ptr<const CachedPlan> plan_for(const std::vector<int64_t> &key, int32_t threads,
                                               const void *pad_value) const;

    std::string m_mode = "constant";
    mutable std::mutex m_lock;
    mutable std::vector<std::shared_ptr<const CachedPlan>> m_cached; // newest first
    static constexpr size_t cached_plans = 4; // shapes of dynamic models, streams' threads
};

// Counters the tests read through ndpad_openvino_stats() (extension.cpp).
void count_execution(int32_t threads);

} // namespace ndpad_openvino
