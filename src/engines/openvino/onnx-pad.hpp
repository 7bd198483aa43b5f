// ONNX Pad through OpenVINO's ONNX frontend onto ndpad's operator (onnx-pad.cpp).
#pragma once

#include <openvino/frontend/node_context.hpp>

namespace ndpad_openvino
{

ov::OutputVector convert_onnx_pad(const ov::frontend::NodeContext &context);

} // namespace ndpad_openvino
