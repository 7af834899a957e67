#include "providers/common/math/matmul_shape.h"

namespace ort {

Result<MatMulPlan> PlanMatMul(const TensorShape& a, const TensorShape& b) {
  if (a.rank() == 0 || b.rank() == 0) {
    return ORT_ERROR(kInvalidArgument, "matmul operands must have rank >= 1, got {} and {}",
                     a.ToString(), b.ToString());
  }
  // Promote 1-D operands: A [k] -> [1, k], B [k] -> [k, 1].
  std::vector<int64_t> a_dims = a.dims();
  std::vector<int64_t> b_dims = b.dims();
  if (a.rank() == 1) a_dims.insert(a_dims.begin(), 1);
  if (b.rank() == 1) b_dims.push_back(1);
  MatMulPlan plan;
  plan.m = a_dims[a_dims.size() - 2];
  plan.k = a_dims.back();
  plan.n = b_dims.back();
  if (b_dims[b_dims.size() - 2] != plan.k) {
    return ORT_ERROR(kInvalidArgument,
                     "matmul inner dimensions differ: A {} has {} columns, B {} has {} rows",
                     a.ToString(), plan.k, b.ToString(), b_dims[b_dims.size() - 2]);
  }
  const TensorShape a_batch(std::vector<int64_t>(a_dims.begin(), a_dims.end() - 2));
  const TensorShape b_batch(std::vector<int64_t>(b_dims.begin(), b_dims.end() - 2));
  auto batch = BroadcastShapes(a_batch, b_batch);
  if (!batch.ok()) {
    return ORT_ERROR(kInvalidArgument, "matmul batch dimensions of {} and {} do not broadcast",
                     a.ToString(), b.ToString());
  }
  std::vector<int64_t> output = batch->dims();
  if (a.rank() > 1) output.push_back(plan.m);
  if (b.rank() > 1) output.push_back(plan.n);
  plan.output_shape = TensorShape(output);

  // Per-batch matrix strides, 0 along broadcast dimensions, aligned to the output batch rank.
  const size_t rank = batch->rank();
  auto batch_strides = [rank](const TensorShape& shape, int64_t matrix_size) {
    std::vector<int64_t> strides(rank, 0);
    int64_t stride = matrix_size;
    for (size_t i = 0; i < shape.rank(); ++i) {
      const size_t axis = rank - 1 - i;
      const int64_t dim = shape[shape.rank() - 1 - i];
      strides[axis] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
    return strides;
  };
  const std::vector<int64_t> a_strides = batch_strides(a_batch, plan.m * plan.k);
  const std::vector<int64_t> b_strides = batch_strides(b_batch, plan.k * plan.n);
  const int64_t count = batch->NumElements();
  plan.a_offsets.resize(static_cast<size_t>(count));
  plan.b_offsets.resize(static_cast<size_t>(count));
  std::vector<int64_t> index(rank, 0);
  int64_t a_offset = 0;
  int64_t b_offset = 0;
  bool single = true;
  for (int64_t i = 0; i < count; ++i) {
    plan.a_offsets[i] = a_offset;
    plan.b_offsets[i] = b_offset;
    single = single && a_offset == i * plan.m * plan.k && b_offset == 0;
    for (size_t d = rank; d-- > 0;) {
      a_offset += a_strides[d];
      b_offset += b_strides[d];
      if (++index[d] < (*batch)[d]) break;
      a_offset -= index[d] * a_strides[d];
      b_offset -= index[d] * b_strides[d];
      index[d] = 0;
    }
  }
  plan.single_gemm = single;
  return plan;
}

MatMulOperandLayout LayoutMatMulOperand(const TensorShape& shape, bool trans, bool trans_batch,
                                        bool right) {
  MatMulOperandLayout layout;
  const std::vector<int64_t>& dims = shape.dims();
  const size_t rank = dims.size();
  if (rank == 1) {  // numpy transposes of a vector are the vector itself
    layout.logical = dims;
    layout.ld = right ? 1 : dims[0];
    return layout;
  }
  int64_t rows = dims[rank - 2];
  const int64_t cols = dims[rank - 1];
  std::vector<int64_t> batch(dims.begin(), dims.end() - 2);
  if (trans_batch && rank >= 3) {
    // Stored [rows, batch..., cols]: logical batch dims are dims[1..rank-2].
    rows = dims[0];
    batch.assign(dims.begin() + 1, dims.end() - 1);
    int64_t batch_size = 1;
    for (int64_t d : batch) batch_size *= d;
    layout.ld = batch_size * cols;
    layout.batch_stride = cols;
  } else {
    layout.ld = cols;
    layout.batch_stride = rows * cols;
  }
  layout.transpose = trans;
  layout.logical = batch;
  layout.logical.push_back(trans ? cols : rows);
  layout.logical.push_back(trans ? rows : cols);
  return layout;
}

}  // namespace ort
