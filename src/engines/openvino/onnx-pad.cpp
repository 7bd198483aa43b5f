// ONNX Pad (opsets 1 to 25, as OpenVINO's ONNX frontend reads them) onto ndpad's operator:
// the inputs OpenVINO's own translation gives its Pad-12 (pads split into begin and end,
// axes scattered into zeros), and the mode wrap that OpenVINO's Pad lacks.
#include "onnx-pad.hpp"

#include <openvino/frontend/exception.hpp>
#include <openvino/op/broadcast.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/convert.hpp>
#include <openvino/op/reshape.hpp>
#include <openvino/op/scatter_elements_update.hpp>
#include <openvino/op/shape_of.hpp>
#include <openvino/op/split.hpp>

#include "pad-op.hpp"

namespace ndpad_openvino
{

namespace
{

// An optional input the model leaves out (an empty name) reaches a converter as the ONNX
// frontend's NullNode.
bool has_input(const ov::frontend::NodeContext &context, size_t index)
{
    return context.get_input_size() > index &&
           std::string(context.get_input(static_cast<int>(index)).get_node()->get_type_name()) !=
               "NullNode";
}

ov::Output<ov::Node> i64_constant(const std::vector<int64_t> &values)
{
    return ov::op::v0::Constant::create(ov::element::i64, ov::Shape{values.size()}, values);
}

ov::Output<ov::Node> as_i64(const ov::Output<ov::Node> &value)
{
    if (value.get_element_type() == ov::element::i64) {
        return value;
    }
    return std::make_shared<ov::op::v0::Convert>(value, ov::element::i64);
}

} // namespace

ov::OutputVector convert_onnx_pad(const ov::frontend::NodeContext &context)
{
    const ov::Output<ov::Node> data = context.get_input(0);
    const std::string mode = context.get_attribute<std::string>("mode", "constant");
    FRONT_END_OP_CONVERSION_CHECK(mode == "constant" || mode == "edge" || mode == "reflect" ||
                                      mode == "wrap",
                                  "ONNX Pad: mode '", mode,
                                  "' is not constant, edge, reflect or wrap");
    ov::Output<ov::Node> begin, end, value;
    bool has_value = false;
    if (!has_input(context, 1)) {
        // Pad-1 (paddings) and Pad-2 (pads): the pads and the value are attributes.
        const char *name = context.has_attribute("pads") ? "pads" : "paddings";
        const auto pads = context.get_attribute<std::vector<int64_t>>(name);
        FRONT_END_OP_CONVERSION_CHECK(pads.size() % 2 == 0, "ONNX Pad: ", name,
                                      " has an odd length ", pads.size());
        const size_t half = pads.size() / 2;
        begin = i64_constant(std::vector<int64_t>(pads.begin(), pads.begin() + half));
        end = i64_constant(std::vector<int64_t>(pads.begin() + half, pads.end()));
        value = ov::op::v0::Constant::create(data.get_element_type(), ov::Shape{},
                                             {context.get_attribute<float>("value", 0.0f)});
        has_value = true;
    } else {
        // Pad-11 on: pads (and constant_value, axes) are inputs, constants or computed.
        const ov::Output<ov::Node> pads = as_i64(context.get_input(1));
        const auto halves =
            std::make_shared<ov::op::v1::Split>(pads,
                                                ov::op::v0::Constant::create(ov::element::i64,
                                                                             ov::Shape{}, {0}),
                                                2);
        begin = halves->output(0);
        end = halves->output(1);
        if (has_input(context, 3)) {
            // Pad-18's axes: the pads of the listed axes, zero elsewhere.
            const ov::Output<ov::Node> axes = as_i64(context.get_input(3));
            const auto rank = std::make_shared<
                ov::op::v3::ShapeOf>(std::make_shared<ov::op::v3::ShapeOf>(data, ov::element::i64),
                                     ov::element::i64);
            const auto zeros = std::make_shared<
                ov::op::v3::Broadcast>(ov::op::v0::Constant::create(ov::element::i64, ov::Shape{},
                                                                    {0}),
                                       rank);
            const auto axis0 = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{}, {0});
            begin = std::make_shared<ov::op::v12::ScatterElementsUpdate>(zeros, axes, begin, axis0);
            end = std::make_shared<ov::op::v12::ScatterElementsUpdate>(zeros, axes, end, axis0);
        }
        if (has_input(context, 2)) {
            value = context.get_input(2);
            if (value.get_partial_shape().rank().is_dynamic() ||
                value.get_partial_shape().rank().get_length() != 0) {
                value = std::make_shared<ov::op::v1::Reshape>(value, i64_constant({}), false);
            }
            has_value = true;
        }
    }
    // The value goes to every mode (read in constant mode only), as to OpenVINO's Pad: a
    // model input that gives it stays an input of the model.
    ov::OutputVector args = {data, begin, end};
    if (has_value) {
        args.push_back(value);
    }
    return {std::make_shared<Pad>(args, mode)->output(0)};
}

} // namespace ndpad_openvino
