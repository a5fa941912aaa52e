// Tensor-core matmul through WMMA (nvcuda::wmma): fp16 and bf16 inputs as m16n16k16 fragments,
// fp32 data as TF32 m16n16k8 fragments, always with fp32 accumulators. Builds for sm_80 and
// sm_90 alike (HMMA; Hopper's wgmma is out of scope).
//
// Block and warp tiles. A block owns a kBM×kBN tile of C (Config below) and walks K in steps of
// kBK: 32 for 16-bit types, 16 for fp32 (64 bytes of K either way, so one stage has the same
// size for every dtype). Its warps form a kWarpsM×kWarpsN grid; each warp owns a
// (kBM/kWarpsM)×(kBN/kWarpsN) part of the tile as a grid of 16×16 accumulator fragments that
// stay in registers for the whole K loop. Per 16-wide (8 for TF32) slice of K, a warp loads one
// A fragment per fragment row and one B fragment per fragment column and multiplies every pair,
// so each fragment loaded from shared memory feeds several tensor-core MMAs.
//
// Fragment layout. Which thread holds which element of a WMMA fragment is unspecified, so the
// kernel never indexes fragments by position: it loads them from shared memory with
// load_matrix_sync (A row-major with leading dimension kALd, B row-major with kBLd), and in the
// epilogue stores each accumulator fragment to a per-warp 16×16 fp32 scratch in shared memory,
// from where the warp's lanes convert and write C with ordinary, bounds-checked stores. The one
// per-element operation allowed on an opaque fragment, a uniform map, is how TF32 inputs are
// rounded: wmma::__float_to_tf32 on every element after the load.
//
// The pipeline. kStages shared-memory stages form a ring. cp.async copies 16 bytes from global
// to shared memory without passing through registers and without blocking the thread; each
// stage's copies form one commit group. The prologue starts stages 0 .. kStages-2. In step t the
// block waits until at most kStages-2 groups are still in flight (so stage t has landed),
// synchronises (everyone's copies are visible and everyone has finished step t-1), starts the
// copies of step t+kStages-1 into the stage step t-1 used, and computes step t: the copies of
// the next kStages-1 steps overlap the MMAs. Steps past the end commit empty groups so the count
// stays uniform.
//
// Bounds. cp.async's source-size operand is 16 for a chunk inside the matrix and 0 outside it,
// which makes the hardware write 16 zero bytes: partial tiles are zero-filled, so the MMAs need
// no guards. This needs every 16-byte chunk to be wholly inside or outside and 16-byte aligned:
// K and N multiples of 8 (16-bit types) or 4 (fp32). Other shapes run the same kernel with
// kAligned = false, which copies element by element through registers with a guard per element
// (slower, only for odd shapes). Stores of C are guarded in both.
//
// Banks. Each stage row is padded by 16 bytes (kBK + 8 halves = 80 bytes for A, kBN + 8 halves
// for B). The eight 16-byte rows that one phase of a fragment load touches then start in eight
// different 16-byte bank groups, so the loads are conflict-free.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

#include <mma.h>

#include <cstdint>
#include <type_traits>

namespace kbench::matmul {

namespace {

namespace wmma = nvcuda::wmma;

/// What a storage type multiplies as on the tensor cores.
template <typename T>
struct FragmentOf;
template <>
struct FragmentOf<__half> {
  using type = __half;
  static constexpr int kK = 16;
};
template <>
struct FragmentOf<__nv_bfloat16> {
  using type = __nv_bfloat16;
  static constexpr int kK = 16;
};
template <>
struct FragmentOf<float> {  // fp32 storage, TF32 multiplication
  using type = wmma::precision::tf32;
  static constexpr int kK = 8;
};

template <typename T, int BM, int BN, int WarpsM, int WarpsN, int Stages>
struct Config {
  static constexpr int kBM = BM, kBN = BN, kWarpsN = WarpsN, kStages = Stages;
  static constexpr int kThreads = 32 * WarpsM * WarpsN;
  static constexpr int kChunk = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte copy
  static constexpr int kBK = 64 / static_cast<int>(sizeof(T));     // K per step
  static constexpr int kFragK = FragmentOf<T>::kK;
  static constexpr int kALd = kBK + kChunk;  // A stage row, elements (16 bytes of padding)
  static constexpr int kBLd = kBN + kChunk;  // B stage row
  static constexpr int kAStage = kBM * kALd;  // elements
  static constexpr int kBStage = kBK * kBLd;
  static constexpr int kWarpRows = kBM / WarpsM;
  static constexpr int kWarpCols = kBN / WarpsN;
  static constexpr int kFragsM = kWarpRows / 16;
  static constexpr int kFragsN = kWarpCols / 16;
  static constexpr int kAChunksPerRow = kBK / kChunk;
  static constexpr int kBChunksPerRow = kBN / kChunk;
  static constexpr int kALoads = kBM * kAChunksPerRow / kThreads;  // 16-byte chunks per thread and step
  static constexpr int kBLoads = kBK * kBChunksPerRow / kThreads;
  static constexpr std::size_t kPipelineBytes = static_cast<std::size_t>(kStages) * (kAStage + kBStage) * sizeof(T);
  static constexpr std::size_t kEpilogueBytes = static_cast<std::size_t>(WarpsM * WarpsN) * 16 * 16 * sizeof(float);
  static constexpr std::size_t kSmemBytes = kPipelineBytes > kEpilogueBytes ? kPipelineBytes : kEpilogueBytes;

  static_assert(kWarpRows % 16 == 0 && kWarpCols % 16 == 0, "warp tiles are whole fragments");
  static_assert(kALoads * kThreads == kBM * kAChunksPerRow && kBLoads * kThreads == kBK * kBChunksPerRow,
                "every thread copies the same number of chunks");
  static_assert(kThreads % kAChunksPerRow == 0 && kThreads % kBChunksPerRow == 0,
                "a thread copies the same chunk column in every row it copies");
  static_assert((kAStage * sizeof(T)) % 128 == 0 && (kBStage * sizeof(T)) % 128 == 0,
                "stage bases stay 128-byte aligned (WMMA needs 32)");
  static_assert(kBK % kFragK == 0, "a step is whole fragments deep");
};

/// The configuration shipped: 128×128 tiles, 8 warps as 2×4 with 64×32 each (4×2 fragments),
/// 3 stages (about 56 KB of shared memory, two blocks per SM on A100 and H100).
template <typename T>
using Shipped = Config<T, 128, 128, 2, 4, 3>;

// --- cp.async (sm_80+) -------------------------------------------------------------------------

/// Copies 16 bytes global -> shared, or writes 16 zero bytes when `inside` is false (source
/// size 0: nothing is read from `src`, which must still be a valid address).
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, bool inside) {
  const unsigned dst_shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int src_bytes = inside ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_shared), "l"(src), "r"(src_bytes)
               : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most `Pending` of this thread's commit groups are still in flight.
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

/// The bits of one element, widened to 32 bits (packing helpers below build 16-byte vectors in
/// registers: a local array reinterpreted as uint4 would go to the stack).
__device__ __forceinline__ unsigned bits_of(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned bits_of(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

/// Packs the 16 bytes of `Chunk` consecutive elements, `value(e)` giving element e.
template <typename T, int Chunk, typename Value>
__device__ __forceinline__ uint4 pack_chunk(Value&& value) {
  unsigned word[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    if constexpr (Chunk == 4) {
      word[w] = bits_of(value(w));
    } else {
      word[w] = bits_of(value(2 * w)) | (bits_of(value(2 * w + 1)) << 16);
    }
  }
  return make_uint4(word[0], word[1], word[2], word[3]);
}

/// Two floats rounded to a 16-bit type and packed in one word (one paired conversion instruction).
template <typename T>
__device__ __forceinline__ unsigned pack_pair(float lo, float hi) {
  if constexpr (std::is_same_v<T, __half>) {
    const __half2 pair = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const unsigned*>(&pair);
  } else {
    const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const unsigned*>(&pair);
  }
}

/// The unaligned path's copy of one chunk: element by element, zeros outside [0, limit).
template <typename T, int Chunk>
__device__ __forceinline__ void copy_chunk_guarded(T* dst, const T* src_row, bool row_inside, int first, int limit) {
  *reinterpret_cast<uint4*>(dst) = pack_chunk<T, Chunk>([&](int e) {
    return (row_inside && first + e < limit) ? src_row[first + e] : from_float<T>(0.0f);
  });
}

/// Starts the copies of the step whose K range begins at `k0` into one stage. Thread t copies
/// chunk column t % ChunksPerRow of rows t / ChunksPerRow + l * (kThreads / ChunksPerRow).
template <typename T, typename Cfg, bool kAligned>
__device__ __forceinline__ void load_stage(T* a_stage, T* b_stage, const T* __restrict__ a, const T* __restrict__ b,
                                           int m, int n, int k, int block_row, int block_col, int k0) {
  constexpr int kARowStep = Cfg::kThreads / Cfg::kAChunksPerRow;
  constexpr int kBRowStep = Cfg::kThreads / Cfg::kBChunksPerRow;
  const int tid = static_cast<int>(threadIdx.x);
  const int a_col = (tid % Cfg::kAChunksPerRow) * Cfg::kChunk;  // within the step
  const int b_col = (tid % Cfg::kBChunksPerRow) * Cfg::kChunk;  // within the block tile
#pragma unroll
  for (int l = 0; l < Cfg::kALoads; ++l) {
    const int r = tid / Cfg::kAChunksPerRow + l * kARowStep;
    const int row = block_row + r;
    T* dst = a_stage + r * Cfg::kALd + a_col;
    if constexpr (kAligned) {
      const bool inside = row < m && k0 + a_col < k;
      cp_async_16(dst, inside ? a + row * k + k0 + a_col : a, inside);
    } else {
      copy_chunk_guarded<T, Cfg::kChunk>(dst, row < m ? a + row * k : a, row < m, k0 + a_col, k);
    }
  }
#pragma unroll
  for (int l = 0; l < Cfg::kBLoads; ++l) {
    const int r = tid / Cfg::kBChunksPerRow + l * kBRowStep;
    const int row = k0 + r;
    T* dst = b_stage + r * Cfg::kBLd + b_col;
    if constexpr (kAligned) {
      const bool inside = row < k && block_col + b_col < n;
      cp_async_16(dst, inside ? b + row * n + block_col + b_col : b, inside);
    } else {
      copy_chunk_guarded<T, Cfg::kChunk>(dst, row < k ? b + row * n : b, row < k, block_col + b_col, n);
    }
  }
}

/// Rounds every element of a TF32 fragment loaded from fp32 data; nothing for 16-bit types.
template <typename T, typename Fragment>
__device__ __forceinline__ void to_tensor_precision(Fragment& fragment) {
  if constexpr (std::is_same_v<T, float>) {
#pragma unroll
    for (int e = 0; e < fragment.num_elements; ++e) fragment.x[e] = wmma::__float_to_tf32(fragment.x[e]);
  }
}

// Aligned shapes: two blocks per SM (128 registers a thread, which the aligned kernels fit without
// spilling). The element-wise fallback needs more registers for its addressing, so it gets one.
template <typename T, typename Cfg, bool kAligned>
__global__ void __launch_bounds__(Cfg::kThreads, kAligned ? 2 : 1)
    matmul_tensor_core_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int m, int n,
                              int k) {
  using FragType = typename FragmentOf<T>::type;
  using FragA = wmma::fragment<wmma::matrix_a, 16, 16, Cfg::kFragK, FragType, wmma::row_major>;
  using FragB = wmma::fragment<wmma::matrix_b, 16, 16, Cfg::kFragK, FragType, wmma::row_major>;
  using FragC = wmma::fragment<wmma::accumulator, 16, 16, Cfg::kFragK, float>;

  extern __shared__ __align__(128) unsigned char smem[];
  T* const stages = reinterpret_cast<T*>(smem);
  auto a_stage = [&](int s) { return stages + s * (Cfg::kAStage + Cfg::kBStage); };
  auto b_stage = [&](int s) { return stages + s * (Cfg::kAStage + Cfg::kBStage) + Cfg::kAStage; };

  const TileCoord tile =
      grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, Cfg::kBM), ceil_div(n, Cfg::kBN), 8);
  const int block_row = tile.row * Cfg::kBM;
  const int block_col = tile.col * Cfg::kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int warp_row = (warp / Cfg::kWarpsN) * Cfg::kWarpRows;  // within the block tile
  const int warp_col = (warp % Cfg::kWarpsN) * Cfg::kWarpCols;

  FragC acc[Cfg::kFragsM][Cfg::kFragsN];
#pragma unroll
  for (int i = 0; i < Cfg::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < Cfg::kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const int steps = ceil_div(k, Cfg::kBK);
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (s < steps) load_stage<T, Cfg, kAligned>(a_stage(s), b_stage(s), a, b, m, n, k, block_row, block_col, s * Cfg::kBK);
    cp_async_commit();
  }

  for (int step = 0; step < steps; ++step) {
    cp_async_wait<Cfg::kStages - 2>();  // this thread's copies of `step` have landed
    __syncthreads();                    // everyone's have, and everyone is done with step - 1
    const int ahead = step + Cfg::kStages - 1;
    if (ahead < steps) {
      const int s = ahead % Cfg::kStages;  // the stage step - 1 used
      load_stage<T, Cfg, kAligned>(a_stage(s), b_stage(s), a, b, m, n, k, block_row, block_col, ahead * Cfg::kBK);
    }
    cp_async_commit();

    const T* a_tile = a_stage(step % Cfg::kStages) + warp_row * Cfg::kALd;
    const T* b_tile = b_stage(step % Cfg::kStages) + warp_col;
    // Not unrolled: unrolling lets the compiler hoist the next slice's fragment loads, which
    // pushes the 16-bit kernels past 128 registers and into spills.
#pragma unroll 1
    for (int kk = 0; kk < Cfg::kBK; kk += Cfg::kFragK) {
      FragB b_frag[Cfg::kFragsN];
#pragma unroll
      for (int j = 0; j < Cfg::kFragsN; ++j) {
        wmma::load_matrix_sync(b_frag[j], b_tile + kk * Cfg::kBLd + j * 16, Cfg::kBLd);
        to_tensor_precision<T>(b_frag[j]);
      }
#pragma unroll
      for (int i = 0; i < Cfg::kFragsM; ++i) {
        FragA a_frag;
        wmma::load_matrix_sync(a_frag, a_tile + i * 16 * Cfg::kALd + kk, Cfg::kALd);
        to_tensor_precision<T>(a_frag);
#pragma unroll
        for (int j = 0; j < Cfg::kFragsN; ++j) wmma::mma_sync(acc[i][j], a_frag, b_frag[j], acc[i][j]);
      }
    }
  }

  // Epilogue: the pipeline's shared memory becomes one 16×16 fp32 scratch per warp.
  cp_async_wait<0>();
  __syncthreads();
  float* scratch = reinterpret_cast<float*>(smem) + warp * 16 * 16;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int r = lane / 2;        // each lane writes 8 consecutive elements of one fragment row
  const int c0 = (lane % 2) * 8;
#pragma unroll
  for (int i = 0; i < Cfg::kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < Cfg::kFragsN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      const int row = block_row + warp_row + i * 16 + r;
      const int col = block_col + warp_col + j * 16 + c0;
      const float* v = scratch + r * 16 + c0;
      if (row < m) {
        if (kAligned && col + 8 <= n) {
          // N is a multiple of the 16-byte chunk and col of 8: the 8 elements are in bounds and aligned.
          const float4 lo = *reinterpret_cast<const float4*>(v);
          const float4 hi = *reinterpret_cast<const float4*>(v + 4);
          auto* out = reinterpret_cast<uint4*>(c + row * n + col);
          if constexpr (std::is_same_v<T, float>) {
            out[0] = make_uint4(__float_as_uint(lo.x), __float_as_uint(lo.y), __float_as_uint(lo.z), __float_as_uint(lo.w));
            out[1] = make_uint4(__float_as_uint(hi.x), __float_as_uint(hi.y), __float_as_uint(hi.z), __float_as_uint(hi.w));
          } else {
            out[0] = make_uint4(pack_pair<T>(lo.x, lo.y), pack_pair<T>(lo.z, lo.w), pack_pair<T>(hi.x, hi.y),
                                pack_pair<T>(hi.z, hi.w));
          }
        } else {
#pragma unroll
          for (int e = 0; e < 8; ++e)
            if (col + e < n) c[row * n + col + e] = from_float<T>(v[e]);
        }
      }
      __syncwarp();  // the scratch is rewritten by the next fragment
    }
  }
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <typename T, typename Cfg, bool kAligned>
void launch_config(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream) {
  auto* kernel = matmul_tensor_core_kernel<T, Cfg, kAligned>;
  // Over 48 KB of dynamic shared memory needs an opt-in, once per kernel (kbench uses one device
  // per process). The first call is the verification run, outside any graph capture.
  static const bool opted_in = [kernel] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(Cfg::kSmemBytes)));
    return true;
  }();
  (void)opted_in;
  const long long blocks = static_cast<long long>(ceil_div(dims.m, Cfg::kBM)) * ceil_div(dims.n, Cfg::kBN);
  kernel<<<static_cast<unsigned>(blocks), Cfg::kThreads, Cfg::kSmemBytes, stream>>>(a, b, c, dims.m, dims.n, dims.k);
  KBENCH_CHECK_LAUNCH();
}

template <typename T, typename Cfg>
void launch(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream) {
  const bool aligned = dims.k % Cfg::kChunk == 0 && dims.n % Cfg::kChunk == 0 && aligned16(a) && aligned16(b) &&
                       aligned16(c);
  if (aligned) {
    launch_config<T, Cfg, true>(a, b, c, dims, stream);
  } else {
    launch_config<T, Cfg, false>(a, b, c, dims, stream);
  }
}

}  // namespace

void launch_tensor_core(const __half* a, const __half* b, __half* c, Dims dims, cudaStream_t stream) {
  launch<__half, Shipped<__half>>(a, b, c, dims, stream);
}

void launch_tensor_core(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims,
                        cudaStream_t stream) {
  launch<__nv_bfloat16, Shipped<__nv_bfloat16>>(a, b, c, dims, stream);
}

void launch_tensor_core_tf32(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  launch<float, Shipped<float>>(a, b, c, dims, stream);
}

}  // namespace kbench::matmul
