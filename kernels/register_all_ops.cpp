// The one place that lists every op family kbench ships (explicit registration).
#include "harness/ops/registry.hpp"
#include "kernels/add/add_op.hpp"
#include "kernels/gelu/gelu_op.hpp"
#include "kernels/matmul/matmul_op.hpp"
#include "kernels/softmax/softmax_op.hpp"
#include "kernels/sum/sum_ops.hpp"

namespace kbench {

void register_all_ops(Registry& registry) {
  register_add(registry);
  register_sum(registry);
  register_matmul(registry);
  register_softmax(registry);
  register_gelu(registry);
}

}  // namespace kbench
