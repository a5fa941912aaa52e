// A plugin whose variant name holds an escape sequence and a comma: kbench must refuse it with
// one line naming the op and the escaped name, before anything lists or runs it.
#include "kbench/ops/add.hpp"
#include "kbench/plugin.hpp"

KBENCH_PLUGIN(registrar) {
  kbench::Variant<kbench::AddArgs> variant;
  variant.name = "fast\x1b[2J,add";
  variant.launch = [](const kbench::AddArgs&, cudaStream_t) {};
  registrar.add_variant("add", std::move(variant));
}
