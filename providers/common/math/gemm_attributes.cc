#include "providers/common/math/gemm_attributes.h"

namespace ort {

Status GemmAttributes::Parse(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const int64_t transposed_a, info.GetAttributeOr<int64_t>("transA", 0));
  ORT_ASSIGN_OR_RETURN(const int64_t transposed_b, info.GetAttributeOr<int64_t>("transB", 0));
  ORT_ASSIGN_OR_RETURN(alpha, info.GetAttributeOr<float>("alpha", 1.0f));
  ORT_ASSIGN_OR_RETURN(beta, info.GetAttributeOr<float>("beta", 1.0f));
  trans_a = transposed_a != 0;
  trans_b = transposed_b != 0;
  return Status::OK();
}

}  // namespace ort
