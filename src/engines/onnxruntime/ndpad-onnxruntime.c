/* ONNX Runtime custom-op library: ONNX Pad run by ndpad inside an InferenceSession.
 *
 * Registered with SessionOptions.register_custom_ops_library(path) (Python) or
 * RegisterCustomOpsLibrary_V2 (C): ONNX Runtime calls RegisterCustomOps() below, which adds
 * the domain "ndpad" with one operator, Pad, to the session options. Its inputs and its
 * attribute are ONNX Pad's (opset 18 on): data, pads (int64), optional constant_value (data's
 * type), optional axes (int32 or int64); mode "constant", "reflect", "edge" or "wrap". A model
 * runs it once its Pad nodes are moved into the domain (ndpad.onnxruntime.use_ndpad() does
 * that in Python). Every element type ndpad's typed ONNX entry points take is accepted
 * (ndpad_onnx_pad_typed() at opset 0: Pad-25's types), string is refused.
 *
 * ONNX Runtime's own Pad refuses some problems ndpad would pad: reflect pads larger than the
 * cropped extent minus one, and edge, reflect or wrap padding of an empty axis. The kernel
 * refuses them too, so a model gives the same result or an error with and without it.
 *
 * Threads: each execution runs ndpad's tiles on the session's intra-op threads, through
 * KernelContext_ParallelFor as ndpad's host thread pool (ndpad.h, HOST THREAD POOLS); ndpad
 * starts no thread of its own. The pool's thread count, which ndpad cuts tiles for, is the
 * number of CPUs the process may run on (ONNX Runtime does not tell a kernel its pool's
 * size): with fewer intra-op threads the tasks simply run on fewer threads.
 *
 * Built against ONNX Runtime's C API header (onnxruntime_c_api.h, MIT), which PyPI's
 * onnxruntime wheel does not ship; CMake builds this library when it finds the header
 * (NDPAD_ORT_INCLUDE_DIR; ci/onnxruntime-header.sh fetches it from Debian's
 * libonnxruntime-dev). The header's ORT_API_VERSION is the oldest ONNX Runtime that can load
 * the library: any newer one serves that API version too. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxruntime_c_api.h>

#include "ndpad.h"

#define NDPAD_ORT_EXPORT __attribute__((visibility("default")))

/* KernelContext_ParallelFor arrived with API version 17 (ONNX Runtime 1.17). */
#if ORT_API_VERSION < 17
#error "onnxruntime_c_api.h of ONNX Runtime 1.17 or newer is needed (KernelContext_ParallelFor)"
#endif

enum { INPUT_DATA, INPUT_PADS, INPUT_VALUE, INPUT_AXES, INPUT_COUNT };
enum { MAX_AXES = 2 * NDPAD_MAX_RANK };

static const OrtApi *ort;

/* One kernel (one node): its mode. */
typedef struct pad_kernel {
    char mode[16];
    int32_t threads; /* the pool's threads ndpad cuts tiles for */
    /* static_pads and static_axes, when the node has them (see pad_infer) */
    int has_static_pads, has_static_axes;
    size_t static_pads_count, static_axes_count;
    int64_t static_pads[MAX_AXES], static_axes[MAX_AXES];
} pad_kernel;

__attribute__((format(printf, 2, 3))) static OrtStatus *error(OrtErrorCode code, const char *fmt,
                                                              ...)
{
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    return ort->CreateStatus(code, text);
}

/* ---- the host pool: ONNX Runtime's intra-op threads ------------------------------------ */

/* The execution in progress on this thread. ndpad calls the pool's parallel_for from the
 * executing thread, so the kernel context is found here; the pool's own description stays
 * the same for every call, which lets ndpad's one-shot plan cache reuse its plans. */
static _Thread_local OrtKernelContext *current_context;

typedef struct pool_call {
    ndpad_task_fn task;
    void *task_context;
} pool_call;

static void run_task(void *user, size_t index)
{
    const pool_call *call = user;
    call->task(call->task_context, index);
}

static void ort_parallel_for(void *pool_context, ndpad_task_fn task, void *task_context, size_t n)
{
    (void)pool_context;
    pool_call call = {task, task_context};
    OrtStatus *status = NULL;
    if (current_context != NULL)
        status = ort->KernelContext_ParallelFor(current_context, run_task, n, 0, &call);
    if (current_context == NULL || status != NULL) {
        /* ONNX Runtime refused before running a task: run them here, each once. */
        if (status != NULL) ort->ReleaseStatus(status);
        for (size_t i = 0; i < n; i++) task(task_context, i);
    }
}

static int32_t process_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}

/* ---- the operator ----------------------------------------------------------------------- */

static OrtStatus *tensor_info(const OrtValue *value, int32_t *type, size_t *rank, int64_t *dims,
                              size_t max_rank, const char *name)
{
    OrtTensorTypeAndShapeInfo *info = NULL;
    OrtStatus *status = ort->GetTensorTypeAndShape(value, &info);
    if (status != NULL) return status;
    ONNXTensorElementDataType element = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    status = ort->GetTensorElementType(info, &element);
    if (status == NULL) status = ort->GetDimensionsCount(info, rank);
    if (status == NULL && *rank > max_rank)
        status = error(ORT_INVALID_ARGUMENT, "ndpad Pad: input '%s' has rank %lld, too many", name,
                       (long long)*rank);
    if (status == NULL) status = ort->GetDimensions(info, dims, *rank);
    ort->ReleaseTensorTypeAndShapeInfo(info);
    *type = (int32_t)element;
    return status;
}

static int64_t element_count(const int64_t *dims, size_t rank)
{
    int64_t count = 1;
    for (size_t k = 0; k < rank; k++) count *= dims[k];
    return count;
}

/* pads (int64) and axes (int32 or int64) as int64 lists of at most MAX_AXES entries. */
static OrtStatus *read_list(const OrtValue *value, const char *name, int64_t *list, int64_t *count)
{
    int32_t type;
    size_t rank;
    int64_t dims[2];
    OrtStatus *status = tensor_info(value, &type, &rank, dims, 2, name);
    if (status != NULL) return status;
    int64_t n = element_count(dims, rank);
    if (rank > 1 && dims[0] != 1)
        return error(ORT_INVALID_ARGUMENT,
                     "ndpad Pad: input '%s' must be a 1-D tensor (or [1, n]); its first extent "
                     "is %lld",
                     name, (long long)dims[0]);
    if (n > MAX_AXES)
        return error(ORT_INVALID_ARGUMENT, "ndpad Pad: input '%s' has %lld entries, too many", name,
                     (long long)n);
    void *data = NULL;
    status = ort->GetTensorMutableData((OrtValue *)value, &data);
    if (status != NULL) return status;
    if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64) {
        memcpy(list, data, (size_t)n * sizeof(int64_t));
    } else if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 && strcmp(name, "axes") == 0) {
        for (int64_t i = 0; i < n; i++) list[i] = ((const int32_t *)data)[i];
    } else {
        return error(ORT_INVALID_ARGUMENT,
                     "ndpad Pad: input '%s' has element type %lld; it must be int64 (axes: "
                     "int32 or int64)",
                     name, (long long)type);
    }
    *count = n;
    return NULL;
}

/* ONNX Runtime's own Pad refuses these; ndpad would pad them (reflect repeats the pattern
 * as numpy does; a crop past an axis is an empty axis). Pads per axis after `axes`; bad
 * axes and pad counts are left to ndpad. */
static OrtStatus *check_as_onnxruntime(const char *mode, size_t rank, const int64_t *dims,
                                       const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                       int64_t axes_count, int has_axes)
{
    if (rank == 0) return error(ORT_FAIL, "ndpad Pad: data is a scalar (no axis to pad)");
    int64_t n_axes = has_axes ? axes_count : (int64_t)rank;
    if (pads_count != 2 * n_axes) return NULL;
    for (int64_t i = 0; i < n_axes; i++) {
        int64_t axis = has_axes ? axes[i] : i;
        if (axis < 0) axis += (int64_t)rank;
        if (axis < 0 || axis >= (int64_t)rank) return NULL;
        int64_t begin = pads[i], end = pads[i + n_axes];
        int64_t extent = dims[axis] + (begin < 0 ? begin : 0) + (end < 0 ? end : 0);
        if (extent < 0)
            return error(ORT_FAIL,
                         "ndpad Pad: pads %lld and %lld crop more than the %lld elements of "
                         "axis %lld",
                         (long long)begin, (long long)end, (long long)dims[axis], (long long)axis);
        if (strcmp(mode, "constant") == 0 || (begin <= 0 && end <= 0)) continue;
        if (extent <= 0)
            return error(ORT_FAIL,
                         "ndpad Pad: cannot use '%s' mode to pad axis %lld, which is empty "
                         "(after negative pads)",
                         mode, (long long)axis);
        if (strcmp(mode, "reflect") == 0 && (begin > extent - 1 || end > extent - 1))
            return error(ORT_INVALID_ARGUMENT,
                         "ndpad Pad: %s pads of axis %lld exceed its extent minus one (as "
                         "ONNX Runtime's Pad)",
                         mode, (long long)axis);
    }
    return NULL;
}

static int same_ints(const int64_t *a, size_t a_count, const int64_t *b, int64_t b_count)
{
    return (int64_t)a_count == b_count && memcmp(a, b, a_count * sizeof(int64_t)) == 0;
}

static OrtStatus *ORT_API_CALL pad_compute(void *op_kernel, OrtKernelContext *context)
{
    const pad_kernel *kernel = op_kernel;
    const OrtValue *inputs[INPUT_COUNT] = {NULL, NULL, NULL, NULL};
    size_t input_count = 0;
    OrtStatus *status = ort->KernelContext_GetInputCount(context, &input_count);
    for (size_t i = 0; status == NULL && i < input_count && i < INPUT_COUNT; i++)
        status = ort->KernelContext_GetInput(context, i, &inputs[i]);
    if (status != NULL) return status;
    if (inputs[INPUT_DATA] == NULL || inputs[INPUT_PADS] == NULL)
        return error(ORT_INVALID_ARGUMENT, "ndpad Pad: inputs 'data' and 'pads' are required");

    int32_t type;
    size_t rank;
    int64_t dims[NDPAD_MAX_RANK];
    status = tensor_info(inputs[INPUT_DATA], &type, &rank, dims, NDPAD_MAX_RANK, "data");
    if (status != NULL) return status;

    int64_t pads[MAX_AXES], axes[MAX_AXES], pads_count = 0, axes_count = 0;
    status = read_list(inputs[INPUT_PADS], "pads", pads, &pads_count);
    if (status == NULL && inputs[INPUT_AXES] != NULL)
        status = read_list(inputs[INPUT_AXES], "axes", axes, &axes_count);
    if (status != NULL) return status;

    const void *value = NULL;
    if (inputs[INPUT_VALUE] != NULL) {
        int32_t value_type;
        size_t value_rank;
        int64_t value_dims[NDPAD_MAX_RANK];
        status = tensor_info(inputs[INPUT_VALUE], &value_type, &value_rank, value_dims,
                             NDPAD_MAX_RANK, "constant_value");
        if (status != NULL) return status;
        if (value_type != type)
            return error(ORT_INVALID_ARGUMENT,
                         "ndpad Pad: constant_value has element type %d, data %d", (int)value_type,
                         (int)type);
        int64_t n = element_count(value_dims, value_rank);
        if (n != 1 && n != 0)
            return error(ORT_INVALID_ARGUMENT,
                         "ndpad Pad: constant_value must hold one element; it holds %lld",
                         (long long)n);
        void *data = NULL;
        status = ort->GetTensorMutableData((OrtValue *)inputs[INPUT_VALUE], &data);
        if (status != NULL) return status;
        if (n == 1) value = data;
    }

    int has_axes = inputs[INPUT_AXES] != NULL;
    if (kernel->has_static_pads &&
        !same_ints(kernel->static_pads, kernel->static_pads_count, pads, pads_count))
        return error(ORT_INVALID_ARGUMENT,
                     "ndpad Pad: pads differ from the node's static_pads attribute (the pads "
                     "its output shape was declared with)");
    if (kernel->has_static_pads &&
        (kernel->has_static_axes != has_axes ||
         (has_axes &&
          !same_ints(kernel->static_axes, kernel->static_axes_count, axes, axes_count))))
        return error(ORT_INVALID_ARGUMENT,
                     "ndpad Pad: axes differ from the node's static_axes attribute (the axes "
                     "its output shape was declared with)");
    status = check_as_onnxruntime(kernel->mode, rank, dims, pads, pads_count, axes, axes_count,
                                  has_axes);
    if (status != NULL) return status;

    /* Validate and find the output shape before asking ONNX Runtime for the output. */
    ndpad_onnx_typed_problem typed;
    ndpad_status st =
        ndpad_onnx_problem_init_typed(&typed, 0, (int32_t)rank, dims, type, pads, pads_count,
                                      has_axes ? axes : NULL, axes_count, kernel->mode, value);
    int64_t out_dims[NDPAD_MAX_RANK];
    if (st == NDPAD_OK)
        st = typed.elem_bits >= 8 ? ndpad_output_shape(&typed.onnx.problem, out_dims)
                                  : ndpad_bits_output_shape(&typed.bits, out_dims);
    if (st != NDPAD_OK) return error(ORT_INVALID_ARGUMENT, "ndpad Pad: %s", ndpad_last_error());

    OrtValue *output = NULL;
    status = ort->KernelContext_GetOutput(context, 0, out_dims, rank, &output);
    if (status != NULL) return status;
    if (element_count(out_dims, rank) == 0) return NULL;
    void *in = NULL, *out = NULL;
    status = ort->GetTensorMutableData((OrtValue *)inputs[INPUT_DATA], &in);
    if (status == NULL) status = ort->GetTensorMutableData(output, &out);
    if (status != NULL) return status;

    const ndpad_thread_pool pool = {ort_parallel_for, NULL, kernel->threads};
    ndpad_set_thread_pool(&pool);
    current_context = context;
    if (typed.elem_bits >= 8) /* the problem made above (one-shot plan cache) */
        st = ndpad_pad(&typed.onnx.problem, (const char *)in + typed.onnx.in_offset, out);
    else /* sub-byte: ONNX's packing of the output's last byte too */
        st = ndpad_onnx_pad_typed(0, (int32_t)rank, dims, type, pads, pads_count,
                                  has_axes ? axes : NULL, axes_count, kernel->mode, value, in, out);
    current_context = NULL;
    ndpad_set_thread_pool(NULL);
    if (st != NDPAD_OK) return error(ORT_RUNTIME_EXCEPTION, "ndpad Pad: %s", ndpad_last_error());
    return NULL;
}

/* An ints attribute of the node being inferred; 0 when it has none. */
static int infer_ints(OrtShapeInferContext *context, const char *name, int64_t *values,
                      size_t *count)
{
    const OrtOpAttr *attr = NULL;
    size_t bytes = 0;
    OrtStatus *status = ort->ShapeInferContext_GetAttribute(context, name, &attr);
    if (status == NULL && attr != NULL)
        status =
            ort->ReadOpAttr(attr, ORT_OP_ATTR_INTS, values, MAX_AXES * sizeof(int64_t), &bytes);
    if (status != NULL) ort->ReleaseStatus(status);
    if (status != NULL || attr == NULL) return 0;
    *count = bytes / sizeof(int64_t);
    return 1;
}

/* Pads per axis from static_pads and static_axes; 0 when the node has none, or they do not
 * fit the rank (the run then says why). */
static int static_pads_per_axis(OrtShapeInferContext *context, size_t rank, int64_t *begin,
                                int64_t *end)
{
    int64_t pads[MAX_AXES], axes[MAX_AXES];
    size_t pads_count = 0, axes_count = 0;
    if (!infer_ints(context, "static_pads", pads, &pads_count)) return 0;
    int has_axes = infer_ints(context, "static_axes", axes, &axes_count);
    size_t n = has_axes ? axes_count : rank;
    if (pads_count != 2 * n) return 0;
    for (size_t k = 0; k < rank; k++) begin[k] = end[k] = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t axis = has_axes ? axes[i] : (int64_t)i;
        if (axis < 0) axis += (int64_t)rank;
        if (axis < 0 || axis >= (int64_t)rank) return 0;
        begin[axis] = pads[i];
        end[axis] = pads[i + n];
    }
    return 1;
}

/* The output's type is data's, its rank data's. Its extents depend on the values of pads and
 * axes, which shape inference does not see, unless the node carries them as the attributes
 * static_pads and static_axes (ndpad.onnxruntime.use_ndpad() copies them there from
 * initializers; the kernel checks at run time that the inputs hold the same): then each
 * extent is data's plus its pads, and an unpadded axis keeps data's symbol: the graph keeps
 * the static shapes it has with ONNX Runtime's own Pad. An unknown extent is a symbol of its
 * own. */
static OrtStatus *ORT_API_CALL pad_infer(const OrtCustomOp *op, OrtShapeInferContext *context)
{
    (void)op;
    OrtTensorTypeAndShapeInfo *data = NULL; /* the context's own: not released here */
    OrtStatus *status = ort->ShapeInferContext_GetInputTypeShape(context, INPUT_DATA, &data);
    if (status != NULL) return status;
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    size_t rank = 0;
    status = ort->GetTensorElementType(data, &type);
    if (status == NULL) status = ort->GetDimensionsCount(data, &rank);
    if (status == NULL && rank > NDPAD_MAX_RANK)
        status = error(ORT_INVALID_ARGUMENT, "ndpad Pad: data has rank %zu, more than %d", rank,
                       NDPAD_MAX_RANK);
    if (status != NULL) return status;
    /* An input of unknown rank reaches here as a scalar: declaring the output one would
     * break the shape inference of the nodes after it. Nothing is declared then (a scalar
     * input is refused at run time, as by ONNX Runtime's Pad). */
    if (rank == 0) return NULL;
    int64_t in_dims[NDPAD_MAX_RANK], dims[NDPAD_MAX_RANK], begin[NDPAD_MAX_RANK],
        end[NDPAD_MAX_RANK];
    const char *in_symbols[NDPAD_MAX_RANK], *symbols[NDPAD_MAX_RANK];
    status = ort->GetDimensions(data, in_dims, rank);
    if (status == NULL) status = ort->GetSymbolicDimensions(data, in_symbols, rank);
    if (status != NULL) return status;
    int known = static_pads_per_axis(context, rank, begin, end);

    static _Atomic unsigned long inferred;
    unsigned long node = inferred++;
    char names[NDPAD_MAX_RANK][40];
    for (size_t k = 0; k < rank; k++) {
        int64_t extent = known && in_dims[k] >= 0 ? in_dims[k] + begin[k] + end[k] : -1;
        dims[k] = extent >= 0 ? extent : -1;
        if (dims[k] >= 0) {
            symbols[k] = "";
        } else if (known && begin[k] == 0 && end[k] == 0 && in_symbols[k] != NULL &&
                   in_symbols[k][0] != '\0') {
            symbols[k] = in_symbols[k];
        } else { /* a plain -1 would be taken for the extent -1 */
            snprintf(names[k], sizeof names[k], "ndpad_pad_%lu_%zu", node, k);
            symbols[k] = names[k];
        }
    }
    OrtTensorTypeAndShapeInfo *info = NULL;
    status = ort->CreateTensorTypeAndShapeInfo(&info);
    if (status != NULL) return status;
    status = ort->SetTensorElementType(info, type);
    if (status == NULL) status = ort->SetDimensions(info, dims, rank);
    if (status == NULL) status = ort->SetSymbolicDimensions(info, symbols, rank);
    if (status == NULL) status = ort->ShapeInferContext_SetOutputTypeShape(context, 0, info);
    ort->ReleaseTensorTypeAndShapeInfo(info);
    return status;
}

/* An ints attribute of the node a kernel is made for; 0 when it has none. */
static int kernel_ints(const OrtKernelInfo *info, const char *name, int64_t *values, size_t *count)
{
    size_t size = MAX_AXES;
    OrtStatus *status = ort->KernelInfoGetAttributeArray_int64(info, name, values, &size);
    if (status != NULL) {
        ort->ReleaseStatus(status);
        return 0;
    }
    *count = size;
    return 1;
}

static OrtStatus *ORT_API_CALL pad_create(const OrtCustomOp *op, const OrtApi *api,
                                          const OrtKernelInfo *info, void **out)
{
    (void)op;
    (void)api;
    char mode[16] = "constant";
    size_t size = sizeof mode;
    OrtStatus *status = ort->KernelInfoGetAttribute_string(info, "mode", mode, &size);
    if (status != NULL) {
        /* absent: ONNX's default; longer than any mode: no mode */
        ort->ReleaseStatus(status);
        if (size > sizeof mode)
            return error(ORT_INVALID_ARGUMENT, "ndpad Pad: invalid 'mode' attribute value");
        strcpy(mode, "constant");
    }
    if (strcmp(mode, "constant") != 0 && strcmp(mode, "reflect") != 0 &&
        strcmp(mode, "edge") != 0 && strcmp(mode, "wrap") != 0)
        return error(ORT_INVALID_ARGUMENT,
                     "ndpad Pad: invalid 'mode' attribute value '%s' (constant, reflect, edge "
                     "or wrap)",
                     mode);
    pad_kernel *kernel = calloc(1, sizeof *kernel);
    if (kernel == NULL) return error(ORT_FAIL, "ndpad Pad: out of memory");
    memcpy(kernel->mode, mode, sizeof mode);
    kernel->threads = process_cpus();
    kernel->has_static_pads =
        kernel_ints(info, "static_pads", kernel->static_pads, &kernel->static_pads_count);
    kernel->has_static_axes =
        kernel_ints(info, "static_axes", kernel->static_axes, &kernel->static_axes_count);
    *out = kernel;
    return NULL;
}

static void ORT_API_CALL pad_destroy(void *op_kernel)
{
    free(op_kernel);
}

static const char *ORT_API_CALL pad_name(const OrtCustomOp *op)
{
    (void)op;
    return "Pad";
}

static const char *ORT_API_CALL pad_provider(const OrtCustomOp *op)
{
    (void)op;
    return "CPUExecutionProvider";
}

/* data, constant_value, axes and the output: any type (checked at run time); pads: int64 */
static ONNXTensorElementDataType ORT_API_CALL pad_input_type(const OrtCustomOp *op, size_t index)
{
    (void)op;
    return index == INPUT_PADS ? ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64
                               : ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
}

static size_t ORT_API_CALL pad_input_count(const OrtCustomOp *op)
{
    (void)op;
    return INPUT_COUNT;
}

static ONNXTensorElementDataType ORT_API_CALL pad_output_type(const OrtCustomOp *op, size_t index)
{
    (void)op;
    (void)index;
    return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
}

static size_t ORT_API_CALL pad_output_count(const OrtCustomOp *op)
{
    (void)op;
    return 1;
}

static OrtCustomOpInputOutputCharacteristic ORT_API_CALL pad_input_kind(const OrtCustomOp *op,
                                                                        size_t index)
{
    (void)op;
    return index >= INPUT_VALUE ? INPUT_OUTPUT_OPTIONAL : INPUT_OUTPUT_REQUIRED;
}

static OrtCustomOpInputOutputCharacteristic ORT_API_CALL pad_output_kind(const OrtCustomOp *op,
                                                                         size_t index)
{
    (void)op;
    (void)index;
    return INPUT_OUTPUT_REQUIRED;
}

static OrtMemType ORT_API_CALL pad_input_memory(const OrtCustomOp *op, size_t index)
{
    (void)op;
    (void)index;
    return OrtMemTypeDefault;
}

static int ORT_API_CALL pad_arity(const OrtCustomOp *op)
{
    (void)op;
    return 1;
}

static int ORT_API_CALL pad_start_version(const OrtCustomOp *op)
{
    (void)op;
    return 1;
}

static int ORT_API_CALL pad_end_version(const OrtCustomOp *op)
{
    (void)op;
    return 2147483647;
}

static size_t ORT_API_CALL no_pairs(int **input_index, int **output_index)
{
    *input_index = NULL;
    *output_index = NULL;
    return 0;
}

static void ORT_API_CALL release_pairs(int *input_index, int *output_index)
{
    (void)input_index;
    (void)output_index;
}

static OrtCustomOp pad_op;

static void fill_pad_op(void)
{
    OrtCustomOp op = {0};
    op.version = ORT_API_VERSION;
    op.GetName = pad_name;
    op.GetExecutionProviderType = pad_provider;
    op.GetInputType = pad_input_type;
    op.GetInputTypeCount = pad_input_count;
    op.GetOutputType = pad_output_type;
    op.GetOutputTypeCount = pad_output_count;
    op.KernelDestroy = pad_destroy;
    op.GetInputCharacteristic = pad_input_kind;
    op.GetOutputCharacteristic = pad_output_kind;
    op.GetInputMemoryType = pad_input_memory;
    op.GetVariadicInputMinArity = pad_arity;
    op.GetVariadicInputHomogeneity = pad_arity;
    op.GetVariadicOutputMinArity = pad_arity;
    op.GetVariadicOutputHomogeneity = pad_arity;
    op.CreateKernelV2 = pad_create;
    op.KernelComputeV2 = pad_compute;
    op.InferOutputShapeFn = pad_infer;
    op.GetStartVersion = pad_start_version;
    op.GetEndVersion = pad_end_version;
    op.GetMayInplace = no_pairs;
    op.ReleaseMayInplace = release_pairs;
    op.GetAliasMap = no_pairs;
    op.ReleaseAliasMap = release_pairs;
    pad_op = op;
}

/* ---- registration ----------------------------------------------------------------------- */

/* Called by ONNX Runtime when a session's options register this library. The domain must
 * outlive every session made with those options: it is never released (one small object per
 * registration). */
NDPAD_ORT_EXPORT OrtStatus *ORT_API_CALL RegisterCustomOps(OrtSessionOptions *options,
                                                           const OrtApiBase *api_base);

NDPAD_ORT_EXPORT OrtStatus *ORT_API_CALL RegisterCustomOps(OrtSessionOptions *options,
                                                           const OrtApiBase *api_base)
{
    const OrtApi *api = api_base->GetApi(ORT_API_VERSION);
    if (api == NULL) {
        /* an ONNX Runtime older than the header: say so through its oldest API */
        const OrtApi *oldest = api_base->GetApi(1);
        char text[160];
        snprintf(text, sizeof text,
                 "ndpad-onnxruntime needs ONNX Runtime's C API version %d; this ONNX Runtime "
                 "(%s) does not serve it",
                 ORT_API_VERSION, api_base->GetVersionString());
        return oldest != NULL ? oldest->CreateStatus(ORT_FAIL, text) : NULL;
    }
    ort = api;
    if (pad_op.version == 0) fill_pad_op();
    OrtCustomOpDomain *domain = NULL;
    OrtStatus *status = ort->CreateCustomOpDomain("ndpad", &domain);
    if (status == NULL) status = ort->CustomOpDomain_Add(domain, &pad_op);
    if (status == NULL) status = ort->AddCustomOpDomain(options, domain);
    return status;
}
