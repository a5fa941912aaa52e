// The example plugin's entry points: what it adds to kbench.
#include "variants.hpp"

#include <kbench/plugin.hpp>

KBENCH_PLUGIN(registrar) {
  registrar.add_variant<kbench::SoftmaxArgs>("softmax", example::warp_softmax());
  registrar.add_op(example::rmsnorm_definition());
}
