#pragma once
// Transitional: the old Workload shape (poison, launch, check) for ops not yet declared as an
// OpDefinition. Delete once every op is.
#include "harness/ops/op.hpp"

namespace kbench {

class LegacyWorkload : public Workload {
 public:
  virtual void poison_outputs(cudaStream_t stream) = 0;
  virtual Verification check_outputs(cudaStream_t stream) = 0;
  Verification verify(std::size_t variant, cudaStream_t stream) override {
    poison_outputs(stream);
    launch(variant, stream);
    return check_outputs(stream);
  }
};

}  // namespace kbench
