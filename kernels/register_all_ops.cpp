// The one place that lists every op family kbench ships (explicit registration).
#include "harness/registry.hpp"
#include "kernels/add/add_op.hpp"

namespace kbench {

void register_all_ops(Registry& registry) {
  register_add(registry);
}

}  // namespace kbench
