#pragma once
/// Launchers for C = A·B (row-major; A is M×K, B is K×N, C is M×N). Each enqueues one kernel on
/// `stream` and checks the launch. The dims must have passed reject_matmul_shape; pointers come
/// from cudaMalloc (256-byte aligned) unless a launcher says otherwise. Every kernel accumulates
/// in fp32 and writes C in the input's type.

#include "kernels/matmul/matmul_padded_layout.hpp"
#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/matmul_stream_k.hpp"
#include "kernels/matmul/matmul_tile_schedule.hpp"

#include <cuda.h>  // CUtensorMap (a type; kbench does not link the driver library)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

/// One thread per element of C, a K-long dot product straight from global memory.
/// T = float, __half, __nv_bfloat16 (matmul_naive.cu).
template <typename T>
void launch_naive(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream);

/// 32×32 tiles of A and B staged in shared memory, one element of C per thread
/// (matmul_tiled.cu).
template <typename T>
void launch_tiled(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream);

/// fp32 SIMT kernel: 128×128 tile of C per 256-thread block, 8×8 per thread held in registers,
/// double-buffered shared memory; 16-byte global loads when K and N are multiples of 4
/// (matmul_register_blocked.cu).
/// Shapes with fewer 128×128 tiles than SMs and K, N multiples of 4 run launch_small_simt.
void launch_register_blocked(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream);

/// How the 256 threads of a 128×128 SIMT block form warps: 2 (ty) × 16 (tx) threads, as
/// register_blocked, or 4 × 8 (a warp's fragment loads one shared wavefront each).
enum class SimtWarps { rows2_cols16, rows4_cols8 };

/// register_blocked's 128×128 tile and 8×8 outputs per thread with A's and B's panels copied by
/// cp.async into a 3-stage shared-memory ring (no panel values held in registers), warps shaped by
/// `warps`; any shape (16-byte copies of B where N % 4 == 0 and B, C are 16-byte aligned), the
/// small-problem rule of launch_register_blocked (matmul_register_blocked_async.cu).
void launch_register_blocked_async(const float* a, const float* b, float* c, Dims dims, SimtWarps warps,
                                   cudaStream_t stream);

/// register_blocked's small-problem kernel: a `rows`×32 tile of C per 256-thread block, each of its 8
/// warps owning every 8th chunk of 16 k (no block barrier in the main loop) with rows/4 × 4 outputs
/// per thread, partial tiles added in shared memory. Any shape: 16-byte copies where K % 4 == 0,
/// N % 4 == 0 and the pointers are 16-byte aligned, 4-byte copies otherwise (of B alone where A's
/// pitch allows 16-byte ones: SimtOperands) (matmul_small_simt.cu).
void launch_small_simt(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream,
                       SimtSmallRows rows = SimtSmallRows::r16);
/// The small-tile kernel's operands with A's row pitch: K, or a padded copy's (launch_pad_rows_fp32,
/// simt_a_pitch), whose columns from K on must hold zeros. A pitch that is a multiple of 4 (with A
/// 16-byte aligned) takes A's 16-byte copies whatever K is; B takes them where N is a multiple of 4
/// and B and C are 16-byte aligned, and only where A does. `c`: C, or the split kernel's slices.
struct SimtOperands {
  const float* a = nullptr;
  int a_pitch = 0;
  const float* b = nullptr;
  float* c = nullptr;
};
void launch_small_simt(const SimtOperands& operands, Dims dims, cudaStream_t stream, SimtSmallRows rows);

/// The outer-product SIMT kernel's operands: `at` = Aᵀ written by launch_transpose_a_for_outer
/// (outer_at_rows(K) × outer_at_pitch(M), zeros outside A, 16-byte aligned); `c`: C, or the split
/// kernel's slices.
struct OuterOperands {
  const float* at = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
};
/// fp32 for few-row GEMMs: 64×32 or 32×64 tiles of C per 256-thread block, 8×8 outputs per lane
/// (two float4 of Aᵀ and two of B per k), each warp owning every 8th chunk of 16 k, partial tiles
/// added in shared memory. Any M, N, K: B in 16-byte copies where N % 4 == 0 and B, C are 16-byte
/// aligned, 4-byte copies otherwise (matmul_outer_simt.cu). Throws std::invalid_argument where the
/// padded Aᵀ reaches 2^31 elements.
void launch_outer_simt(const OuterOperands& operands, Dims dims, OuterSimtTile tile, cudaStream_t stream);
/// The same with K split `splits` ways into fp32 M×N slices, for launch_split_k_reduce.
void launch_outer_simt_partials(const OuterOperands& operands, Dims dims, int splits, OuterSimtTile tile,
                                cudaStream_t stream);
/// Writes Aᵀ for launch_outer_simt into `at` (outer_at_bytes(dims) bytes): A is M×K, rows a_pitch apart.
void launch_transpose_a_for_outer(const float* a, int a_pitch, Dims dims, float* at, cudaStream_t stream);

/// Copies the rows×cols fp32 matrix `src` (pitch cols) to `dst` with rows `pitch` floats apart
/// (pitch >= cols), zeros in columns cols .. pitch - 1 (matmul_pad_rows.cu): `auto`'s copy of A
/// for the small-tile kernel where K is not a multiple of 4 (or a pointer is misaligned).
void launch_pad_rows_fp32(const float* src, int rows, int cols, float* dst, int pitch, cudaStream_t stream);

/// Tensor cores through warp-level mma.sync: fp16 or bf16 inputs (m16n8k16), fp32 accumulators,
/// output in the input's type; ldmatrix fragment loads, a cp.async multi-stage pipeline, 64×64
/// per warp; 32×32 one-warp blocks when the big tiles would not cover half the SMs
/// (matmul_tensor_core.cu).
void launch_tensor_core(const __half* a, const __half* b, __half* c, Dims dims, cudaStream_t stream);
void launch_tensor_core(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims,
                        cudaStream_t stream);
/// The same kernel for fp32 data multiplied as TF32 (m16n8k8): each input rounded to TF32
/// (cvt.rna), products accumulated in fp32, C written in fp32.
void launch_tensor_core_tf32(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream);

/// Tensor cores through Hopper's warpgroup MMA: fp16 or bf16 inputs, 128×256 block tiles of two
/// warpgroups issuing m64n256k16 wgmmas on 128-byte-swizzled shared memory filled by cp.async
/// (matmul_wgmma.cu). Runs on compute capability 9.0 only: check wgmma_unavailable first.
void launch_wgmma(const __half* a, const __half* b, __half* c, Dims dims, cudaStream_t stream);
void launch_wgmma(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, cudaStream_t stream);
/// Empty when a device of this compute capability runs launch_wgmma's kernel, else why not.
std::string wgmma_unavailable(int cc_major, int cc_minor);

/// The TMA tensor maps through which launch_wgmma_tma reads A and B (T = __half, __nv_bfloat16).
/// Built on the host by make_wgmma_tma_operands, once per problem (outside any timed window).
template <typename T>
struct WgmmaTmaOperands {
  CUtensorMap a;  ///< A (M×K): boxes of 128 rows × 64 K, 128-byte swizzle
  CUtensorMap b;  ///< B (K×N): boxes of 64 K-rows × 64 N, 128-byte swizzle
};

/// Empty when launch_wgmma_tma can run C = A·B of `dims` on these pointers, else why not: TMA needs
/// 16-byte aligned A and B and row strides that are multiples of 16 bytes (K and N multiples of 8
/// for 16-bit elements); C takes 4-byte stores. Host-only (matmul_wgmma_tma_operands.cpp).
std::string wgmma_tma_unsupported(Dims dims, const void* a, const void* b, const void* c);

/// A's and B's tensor maps, encoded by the driver's cuTensorMapEncodeTiled (found at run time
/// through cudaGetDriverEntryPointByVersion). Throws std::invalid_argument where
/// wgmma_tma_unsupported is not empty, CudaError where the driver refuses.
WgmmaTmaOperands<__half> make_wgmma_tma_operands(const __half* a, const __half* b, Dims dims);
WgmmaTmaOperands<__nv_bfloat16> make_wgmma_tma_operands(const __nv_bfloat16* a, const __nv_bfloat16* b, Dims dims);

/// The wgmma kernel's tile fed by TMA: a persistent grid of min(tiles, SMs) blocks of three
/// warpgroups (one issuing TMA loads into a 4-stage ring guarded by mbarriers, two issuing
/// m64n256k16 wgmmas on 128×256 tiles), tiles walked in grouped order (matmul_wgmma_tma.cu).
/// `operands` must come from make_wgmma_tma_operands for these dims. Compute capability 9.0 only,
/// as launch_wgmma.
template <typename T>
void launch_wgmma_tma(const WgmmaTmaOperands<T>& operands, T* c, Dims dims, cudaStream_t stream);

/// The TMA kernel with C staged through shared memory and written by TMA stores (the consumers
/// go on to their next tile's MMAs while the stores drain), on 128×256, 128×192 or 128×128 block
/// tiles (matmul_wgmma_tma.cu).
enum class TmaTile { n256, n192, n128 };

/// A's, B's and C's tensor maps for launch_wgmma_tma_staged.
template <typename T>
struct WgmmaTmaStagedOperands {
  WgmmaTmaOperands<T> loads;  ///< A and B, as for launch_wgmma_tma
  CUtensorMap c;              ///< C (M×N): boxes of 64 rows × 64 N, 128-byte swizzle, written by TMA stores
  /// The order a whole-K launch on each tile walks (plan_tile_schedule on the current device, made
  /// with the maps so that no launch replays it), indexed by tma_tile_index.
  TileOrder orders[3] = {};
};

/// A TmaTile's index in WgmmaTmaStagedOperands::orders.
constexpr int tma_tile_index(TmaTile tile) { return tile == TmaTile::n256 ? 0 : tile == TmaTile::n192 ? 1 : 2; }

/// Empty when launch_wgmma_tma_staged can run C = A·B of `dims` on these pointers, else why not:
/// what wgmma_tma_unsupported asks, and C 16-byte aligned (TMA stores it too).
std::string wgmma_tma_staged_unsupported(Dims dims, const void* a, const void* b, const void* c);

/// The three tensor maps; throws as make_wgmma_tma_operands does (std::invalid_argument where
/// wgmma_tma_staged_unsupported is not empty).
WgmmaTmaStagedOperands<__half> make_wgmma_tma_staged_operands(const __half* a, const __half* b, __half* c,
                                                              Dims dims);
WgmmaTmaStagedOperands<__nv_bfloat16> make_wgmma_tma_staged_operands(const __nv_bfloat16* a,
                                                                     const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                     Dims dims);

/// launch_wgmma_tma's persistent, warp-specialised kernel on `tile`, its epilogue through shared
/// memory and TMA stores. 128×192 tiles run a 4-stage ring of 40 KB (m64n192k16 wgmmas), 128×128
/// tiles a 6-stage ring of 32 KB (m64n128k16).
/// `operands` must come from make_wgmma_tma_staged_operands for these dims. Compute capability
/// 9.0 only.
template <typename T>
void launch_wgmma_tma_staged(const WgmmaTmaStagedOperands<T>& operands, Dims dims, TmaTile tile,
                             cudaStream_t stream);

/// Copies of 16-bit matrices (fp16, bf16: copied as bits) between the caller's layout and padded,
/// 16-byte aligned scratch (matmul_repitch.cu); the copies around the staged kernel in
/// launch_wgmma_tma_padded. One copy-in: rows × cols contiguous elements at `src` (any 2-byte
/// aligned address) to `dst` (16-byte aligned) with rows `pitch` elements apart (a multiple of 8, at
/// least cols), the padding zeroed; rows == 0 copies nothing.
struct PadJob {
  const void* src = nullptr;
  long long rows = 0, cols = 0;
  void* dst = nullptr;
  long long pitch = 0;
};

/// Both copy-ins in one launch (16-byte stores into dst). Throws std::invalid_argument where a job
/// breaks the contract above.
void launch_pad_rows(const PadJob& first, const PadJob& second, cudaStream_t stream);

/// The copy-out: `dst` (rows × cols contiguous, any 2-byte aligned address) = the first cols of each
/// row of `src` (16-byte aligned, rows `pitch` elements apart: a multiple of 8, at least cols);
/// 16-byte stores except at dst's ends and across its row ends.
void launch_unpad_rows(const void* src, long long pitch, long long rows, long long cols, void* dst,
                       cudaStream_t stream);

/// make_wgmma_tma_staged_operands for operands whose rows are `*_pitch` elements apart (multiples of
/// 8) rather than K (A) and N (B, C) apart, all 16-byte aligned: the maps keep the logical extents,
/// so TMA zero-fills what lies past them and clips stores there.
WgmmaTmaStagedOperands<__half> make_wgmma_tma_staged_operands(const __half* a, long long a_pitch, const __half* b,
                                                              long long b_pitch, __half* c, long long c_pitch,
                                                              Dims dims);
WgmmaTmaStagedOperands<__nv_bfloat16> make_wgmma_tma_staged_operands(const __nv_bfloat16* a, long long a_pitch,
                                                                     const __nv_bfloat16* b, long long b_pitch,
                                                                     __nv_bfloat16* c, long long c_pitch, Dims dims);

/// `wgmma_tma_padded`'s operands (matmul_padded_layout.hpp, matmul_wgmma_tma_padded.cpp): the
/// staged kernel's maps over padded scratch copies where an operand needs one (else over the
/// caller's operand), and what the copies need.
template <typename T>
struct WgmmaTmaPaddedOperands {
  WgmmaTmaStagedOperands<T> maps;
  PaddedLayout layout;
  const T* a = nullptr;  ///< the caller's A, B and C
  const T* b = nullptr;
  T* c = nullptr;
  unsigned char* scratch = nullptr;  ///< layout.bytes of device memory (the caller's), 256-byte aligned
};

/// The padded layout of C = A·B of `dims` on these pointers (scratch bytes to allocate).
PaddedLayout padded_layout_for(Dims dims, const void* a, const void* b, const void* c,
                               ShortRows short_rows = ShortRows::copied);

/// The maps and copies for these operands, with `scratch` holding padded_layout_for(...).bytes
/// (may be null when that is 0). Throws std::invalid_argument where scratch is missing or not
/// 256-byte aligned, CudaError where the driver refuses a map.
WgmmaTmaPaddedOperands<__half> make_wgmma_tma_padded_operands(const __half* a, const __half* b, __half* c, Dims dims,
                                                              void* scratch, ShortRows short_rows = ShortRows::copied);
WgmmaTmaPaddedOperands<__nv_bfloat16> make_wgmma_tma_padded_operands(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                                                     __nv_bfloat16* c, Dims dims, void* scratch,
                                                                     ShortRows short_rows = ShortRows::copied);

/// Copies A and B into their padded scratch (one launch, where either needs it), runs
/// launch_wgmma_tma_staged on `tile`, and copies C out of its scratch (where it went through one):
/// 1 to 3 kernels. Compute capability 9.0 only, as launch_wgmma_tma_staged.
template <typename T>
void launch_wgmma_tma_padded(const WgmmaTmaPaddedOperands<T>& operands, Dims dims, TmaTile tile,
                             cudaStream_t stream);

/// launch_wgmma_tma_staged's 128×256 kernel under stream-K (matmul_stream_k.hpp), on `schedule`
/// (stream_k_schedule(dims, kWgmmaTileN, grid), made once per problem): its grid of 1 to the
/// device's SMs (the blocks wait on each other, so all must run at once), the last tiles' steps
/// spread evenly over them. `workspace`: stream_k_workspace_bytes(grid, kWgmmaTileN), 16-byte
/// aligned, zeroed before the first launch (each launch leaves it so). Throws
/// std::invalid_argument on a grid out of that range, a schedule made for other extents, or a null
/// or misaligned workspace (its size and zeros are the caller's).
template <typename T>
void launch_wgmma_tma_stream_k(const WgmmaTmaStagedOperands<T>& operands, Dims dims, const StreamKSchedule& schedule,
                               void* workspace, cudaStream_t stream);

/// The block tile of launch_wgmma_tma_staged along N.
constexpr int tma_tile_n(TmaTile tile) { return tile == TmaTile::n256 ? 256 : tile == TmaTile::n192 ? 192 : 128; }
/// The tile `tile_n` wide (256, 192 or 128; std::logic_error for any other width).
constexpr TmaTile tma_tile_of_width(int tile_n) {
  if (tile_n != 256 && tile_n != 192 && tile_n != 128) throw std::logic_error("tma_tile_of_width: no such TMA tile");
  return tile_n == 192 ? TmaTile::n192 : tile_n == 128 ? TmaTile::n128 : TmaTile::n256;
}

/// The most K splits a split-K launcher takes.
constexpr int kMaxSplitK = 64;

/// Split K on launch_wgmma_tma's persistent TMA kernel, 128×`tile` tiles: units of a tile and a
/// split of ceil(steps / splits) 64-deep K steps, split-major over min(units, SMs) blocks, each
/// writing its unrounded fp32 sums to slice s of `partials` (`splits` fp32 M×N slices, row-major,
/// one after another, 8-byte aligned; a split past K writes zeros). The caller then adds the
/// slices with launch_split_k_reduce. `operands` as for launch_wgmma_tma (K and N multiples of 8).
/// Throws std::invalid_argument for splits outside 1 .. kMaxSplitK, extents that are not positive,
/// or a null or misaligned `partials`. Compute capability 9.0 only.
template <typename T>
void launch_wgmma_tma_partials(const WgmmaTmaOperands<T>& operands, float* partials, Dims dims, TmaTile tile,
                               int splits, cudaStream_t stream);

/// launch_wgmma_tma_staged with the last partial round of tiles split (matmul_tile_schedule.hpp,
/// TailSplit; made by plan_tail_split for these dims, this tile and the device's SMs): one block
/// per SM runs plan.whole_tiles tiles whole through the staged epilogue, then one unit each of the
/// tail's tiles split plan.splits ways, storing its fp32 part to `parts`
/// (tail_split_parts_bytes, 8-byte aligned); launch_tile_parts_reduce then writes the tail's tiles
/// of C. `operands` from make_wgmma_tma_staged_operands for `c`. Throws std::invalid_argument for a
/// plan that does not fit the extents and the SMs, or a null or misaligned `parts`. Compute
/// capability 9.0 only.
template <typename T>
void launch_wgmma_tma_tail_split(const WgmmaTmaStagedOperands<T>& operands, T* c, float* parts, Dims dims,
                                 TmaTile tile, const TailSplit& plan, cudaStream_t stream);

/// The tail split's second kernel: adds each tail tile's plan.splits fp32 parts (laid out [split]
/// [tail tile][128 × tile_n], rows tile_n apart) in split order and writes the sums, rounded, to
/// the tile's place in C (ordered_tile of plan.whole_tiles + t under plan.order), inside M × N.
/// N must be even (C is written in pairs).
void launch_tile_parts_reduce(const float* parts, __half* c, Dims dims, int tile_n, const TailSplit& plan,
                              cudaStream_t stream);
void launch_tile_parts_reduce(const float* parts, __nv_bfloat16* c, Dims dims, int tile_n, const TailSplit& plan,
                              cudaStream_t stream);

/// Split K, first kernel: the wgmma kernel on a tiles × `splits` grid, split s computing the
/// products over its ceil(steps / splits) steps of kWgmmaStepK and writing them, unrounded, to
/// slice s of `partials`: `splits` fp32 M×N slices, row-major, one after another (cudaMalloc'd).
/// 1 <= splits <= kMaxSplitK. Compute capability 9.0 only, as launch_wgmma.
void launch_wgmma_partials(const __half* a, const __half* b, float* partials, Dims dims, int splits,
                           cudaStream_t stream);
void launch_wgmma_partials(const __nv_bfloat16* a, const __nv_bfloat16* b, float* partials, Dims dims, int splits,
                           cudaStream_t stream);

/// Split K for fp32 and TF32 (the same contract as launch_wgmma_partials: split s takes
/// ceil(steps / splits) of the kernel's K steps, whole rounds of them for the small-tile kernel,
/// and writes its unrounded fp32 sums to slice s of `partials`; an empty split writes zeros;
/// 1 <= splits <= kMaxSplitK, else std::invalid_argument). Any shape; then launch_split_k_reduce.
///
/// register_blocked's 128×128 kernel, K steps of 8 (matmul_register_blocked.cu).
void launch_register_blocked_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                      cudaStream_t stream);
/// register_blocked_async's 128×128 kernel (cp.async panels, 4 × 8 warps), K steps of 8
/// (matmul_register_blocked_async.cu): what `auto` splits.
void launch_register_blocked_async_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                            cudaStream_t stream);
/// The small-tile kernel of launch_small_simt, `rows`×32 tiles, rounds of 8 chunks of 16 k
/// (matmul_small_simt.cu). Any shape.
void launch_small_simt_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                cudaStream_t stream, SimtSmallRows rows = SimtSmallRows::r16);
void launch_small_simt_partials(const SimtOperands& operands, Dims dims, int splits, cudaStream_t stream,
                                SimtSmallRows rows);

/// register_blocked's tiles: 128×128 (the big kernel), rows (simt_small_rows) × 32 (the small-tile kernel).
constexpr int kSimtBigTile = 128, kSimtSmallTileN = 32;

/// The TF32 tiles of tensor_core: 32×32 blocks of four warps splitting each step, or 128×128
/// (16-byte copies when tf32_aligned, 4-byte ones otherwise).
enum class Tf32Tile { small, big };
constexpr int kTf32SmallTile = 32, kTf32BigTile = 128;

/// Whether tensor_core's TF32 kernels copy 16-byte chunks for these extents and pointers.
inline bool tf32_aligned(Dims dims, const void* a, const void* b, const void* c) {
  auto aligned = [](const void* p) { return reinterpret_cast<unsigned long long>(p) % 16 == 0; };
  return dims.k % 4 == 0 && dims.n % 4 == 0 && aligned(a) && aligned(b) && aligned(c);
}

/// tensor_core's TF32 kernel on `tile` with K split.
void launch_tensor_core_tf32_partials(const float* a, const float* b, float* partials, Dims dims, Tf32Tile tile,
                                      int splits, cudaStream_t stream);

/// Split K, second kernel: C = the sum of the `splits` slices of `partials`, added in slice order
/// in fp32 and rounded once to C's type (matmul_split_k_reduce.cu).
void launch_split_k_reduce(const float* partials, int splits, float* c, Dims dims, cudaStream_t stream);
void launch_split_k_reduce(const float* partials, int splits, __half* c, Dims dims, cudaStream_t stream);
void launch_split_k_reduce(const float* partials, int splits, __nv_bfloat16* c, Dims dims, cudaStream_t stream);

/// TF32 on Hopper's warpgroup MMA (matmul_wgmma_tf32.cu): 128×256 tiles of two consumer
/// warpgroups issuing m64n256k8 TF32 wgmmas, a TMA producer warpgroup, a 4-stage ring of 32-deep
/// steps, a persistent grid. TF32 wgmma reads both operands K-major, so it reads Bᵀ (N×K,
/// row-major), which launch_transpose writes to a workspace first; the tensor core truncates each
/// fp32 input to TF32. Compute capability 9.0 only: check wgmma_unavailable first.
constexpr int kWgmmaTf32TileM = 128, kWgmmaTf32TileN = 256, kWgmmaTf32StepK = 32;

/// The tensor maps through which launch_wgmma_tf32 reads A (boxes of 128 rows × 32 K) and Bᵀ
/// (256 rows × 32 K), both with the 128-byte swizzle; built once per problem on the host.
struct WgmmaTf32Operands {
  CUtensorMap a;
  CUtensorMap bt;
};

/// The extents `auto`'s wgmma_tf32 plans run the kernel on: K rounded up to 4 (TMA's 16-byte rows;
/// the padded copies of A and Bᵀ hold zeros past K).
constexpr Dims wgmma_tf32_dims(Dims dims) { return {dims.m, dims.n, round_up4(dims.k)}; }

/// Bytes of the workspace that holds Bᵀ (N rows of K rounded up to 4 floats: TMA's 16-byte rows),
/// rounded up to 256 so that what follows it stays aligned.
inline std::size_t wgmma_tf32_transposed_b_bytes(Dims dims) {
  const std::size_t bytes =
      static_cast<std::size_t>(dims.n) * static_cast<std::size_t>(round_up4(dims.k)) * sizeof(float);
  return (bytes + 255) / 256 * 256;
}
/// Bytes of A copied into rows of K rounded up to 4 floats (`auto`'s wgmma_tf32 plans where K is
/// not a multiple of 4), rounded up to 256.
inline std::size_t wgmma_tf32_padded_a_bytes(Dims dims) {
  const std::size_t bytes =
      static_cast<std::size_t>(dims.m) * static_cast<std::size_t>(round_up4(dims.k)) * sizeof(float);
  return (bytes + 255) / 256 * 256;
}

/// Empty when launch_wgmma_tf32 can run C = A·B of `dims` with these A and C, else why not: TMA
/// needs K a multiple of 4 (16-byte rows) and A 16-byte aligned; the stores need C 8-byte aligned.
/// N and B are free (the transpose reads any). Host-only (matmul_wgmma_tf32_operands.cpp).
std::string wgmma_tf32_unsupported(Dims dims, const void* a, const void* c);

/// The tensor maps of A and of `bt` (a 16-byte aligned N×K buffer that launch_transpose or
/// launch_transpose_padded fills with Bᵀ; `auto` passes K rounded up to 4 with padded copies). Throws std::invalid_argument where the operands are unsupported, CudaError where the
/// driver refuses.
WgmmaTf32Operands make_wgmma_tf32_operands(const float* a, const float* bt, Dims dims);

/// dst (cols × rows, row-major) = the transpose of src (rows × cols, row-major) (matmul_transpose.cu).
void launch_transpose(const float* src, float* dst, int rows, int cols, cudaStream_t stream);
/// dst (dst_rows × dst_cols, row-major, dst_rows >= cols, dst_cols >= rows) = the transpose of src
/// (rows × cols, rows src_pitch floats apart), zeros outside it.
void launch_transpose_padded(const float* src, int rows, int cols, int src_pitch, float* dst, int dst_rows,
                             int dst_cols, cudaStream_t stream);

/// The TF32 wgmma kernel on the maps of make_wgmma_tf32_operands (whose Bᵀ must already be written,
/// earlier on `stream`). With splits == 1 `out` is C; otherwise `splits` fp32 M×N slices, split s
/// summing ceil(steps / splits) of the 32-deep steps (an empty split writes zeros), for
/// launch_split_k_reduce. 1 <= splits <= kMaxSplitK, else std::invalid_argument.
void launch_wgmma_tf32(const WgmmaTf32Operands& operands, float* out, Dims dims, int splits, cudaStream_t stream);

}  // namespace kbench::matmul
