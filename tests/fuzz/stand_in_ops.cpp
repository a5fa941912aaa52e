#include "fuzz/stand_in_ops.hpp"

#include "kernels/matmul/matmul_problem.hpp"

#include <functional>
#include <memory>

namespace kbench::fuzz {

namespace {

using ShapeRule = std::function<std::string(const Shape&)>;

class StandInOp final : public Op {
 public:
  StandInOp(std::string name, std::string family, std::vector<DType> dtypes, std::vector<VariantInfo> variants,
            ShapeRule rule)
      : name_(std::move(name)), family_(std::move(family)), dtypes_(std::move(dtypes)), variants_(std::move(variants)),
        rule_(std::move(rule)) {}
  std::string name() const override { return name_; }
  std::string family() const override { return family_; }
  std::string summary() const override { return "stand-in for fuzzing"; }
  std::vector<VariantInfo> variants() const override { return variants_; }
  std::vector<DType> dtypes() const override { return dtypes_; }
  std::string reject_shape(const Shape& shape) const override { return rule_(shape); }
  Traffic traffic(const Problem&) const override { return {}; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override { return nullptr; }

 private:
  std::string name_, family_;
  std::vector<DType> dtypes_;
  std::vector<VariantInfo> variants_;
  ShapeRule rule_;
};

/// Own variants named `own` and one baseline, every dtype of the op.
std::vector<VariantInfo> variants(const std::vector<std::string>& own, const std::string& baseline) {
  std::vector<VariantInfo> list;
  for (const std::string& name : own) list.push_back({name, VariantRole::own, "", 1, {}});
  list.push_back({baseline, VariantRole::baseline, "", 1, {}});
  return list;
}

std::string any_rank(const Shape& shape) { return shape.empty() ? "shape is empty" : ""; }

std::string sum_outer_shape(const Shape& shape) {
  if (shape.size() < 2) return "sum_outer reduces every axis but the last: give 2 or more axes";
  const std::int64_t rows = element_count(shape) / shape.back();
  if (rows > 0x7FFFFFFF || shape.back() > 0x7FFFFFFF) return "the cuBLAS baseline takes int extents";
  return "";
}

}  // namespace

void register_stand_in_ops(Registry& registry) {
  const std::vector<DType> storage = all_dtypes();
  const auto add = [&](std::string name, std::string family, std::vector<DType> dtypes, std::vector<VariantInfo> list,
                       ShapeRule rule) {
    registry.add(std::make_unique<StandInOp>(std::move(name), std::move(family), std::move(dtypes), std::move(list),
                                             std::move(rule)));
  };
  add("add", "add", storage, variants({"naive", "vectorized", "blocked", "auto"}, "cub_transform"), any_rank);
  add("sum_full", "sum", storage, variants({"naive_atomic", "two_stage", "one_pass", "auto"}, "cub_reduce"), any_rank);
  add("sum_inner", "sum", storage,
      variants({"naive", "row_parallel", "packed_rows", "flat_rows", "span_rows", "vector_rows", "ring_rows", "split_row", "auto"}, "cub_segmented"), any_rank);
  add("sum_outer", "sum", storage,
      variants({"naive", "two_stage", "one_pass", "narrow_columns", "column_walk", "column_tiles", "flat_columns", "auto"}, "cublas_gemv"),
      sum_outer_shape);
  add("max_inner", "sum", storage,
      variants({"naive", "row_parallel", "packed_rows", "flat_rows", "span_rows", "vector_rows", "ring_rows", "split_row", "auto"}, "cub_segmented"), any_rank);
  std::vector<VariantInfo> matmul =
      variants({"naive", "tiled", "register_blocked", "register_blocked_async", "tensor_core", "wgmma", "wgmma_tma", "wgmma_tma_staged", "wgmma_tma_staged_n192", "wgmma_tma_staged_n128", "wgmma_tma_stream_k", "wgmma_tma_tail_split", "wgmma_tma_tail_split_n192", "wgmma_tma_tail_split_n128",
                "wgmma_tma_padded",
                "wgmma_tma_padded_n128", "wgmma_tf32", "auto", "gemv"},
               "cublas");
  for (std::size_t simt = 2; simt <= 3; ++simt) matmul[simt].only_dtypes = {DType::f32};
  matmul[4].only_dtypes = {DType::f16, DType::bf16, DType::tf32};
  for (std::size_t wgmma = 5; wgmma <= 15; ++wgmma) matmul[wgmma].only_dtypes = {DType::f16, DType::bf16};
  matmul[16].only_dtypes = {DType::tf32};
  add("matmul", "matmul", {DType::f32, DType::f16, DType::bf16, DType::tf32}, matmul, matmul::reject_matmul_shape);
  add("softmax", "softmax", storage,
      variants({"manual", "fused", "online", "register_row", "packed_rows", "short_rows", "warp_rows", "grain_rows",
                "vector_rows", "body_rows", "ring_rows", "thread_rows", "cluster_row", "grid_row", "split_row", "auto"},
               "cudnn"),
      any_rank);
  add("gelu_tanh", "gelu", storage, variants({"manual", "fused", "vectorized", "blocked", "auto"}, "cub_transform"), any_rank);
  add("gelu_erf", "gelu", storage, variants({"manual", "fused", "vectorized", "blocked", "auto"}, "cub_transform"), any_rank);
}

}  // namespace kbench::fuzz
