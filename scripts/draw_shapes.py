"""A seeded draw of the shape zoo's classes (issue 22), as a kbench config to run with --variant auto.

Run from the repository root:
  python3 scripts/draw_shapes.py --draw 3   configs/shapes_draw3.json (session 15, seed 20261124)
  python3 scripts/draw_shapes.py --draw 4   configs/shapes_draw4.json (session 16, seed 20261125),
                                            which adds fp32 and TF32 GEMMs of large K and small M
  python3 scripts/draw_shapes.py --draw 5   configs/shapes_draw5.json (session 20, seed 20261128),
                                            draw 4's classes plus GEMMs of 1-64 rows with odd N and K (two of 1-8 rows)
  python3 scripts/draw_shapes.py --draw 6   configs/shapes_draw6.json (session 27, seed 20261129),
                                            draw 5's classes plus the edges: one row, rows of 1-8 elements,
                                            one column, 3-D max and softmax, and 100M-256M-element tensors
  python3 scripts/draw_shapes.py --draw 7   configs/shapes_draw7.json (session 30, seed 20261130),
                                            draw 6's classes, drawn again after sessions 28-30 tuned against it
It rewrites the config and prints its cases. A draw's cases depend only on its seed: the classes
are drawn in a fixed order, and draw 4's additions come after draw 3's sequence.
"""
import argparse, json, random
DRAWS = {3: 20261124, 4: 20261125, 5: 20261128, 6: 20261129, 7: 20261130}
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--draw", type=int, choices=sorted(DRAWS), required=True, help="which draw to write")
args = parser.parse_args()
rng = random.Random(DRAWS[args.draw])
def odd(lo, hi):
    while True:
        v = rng.randint(lo, hi)
        if v % 2 == 1 and v % 3 != 0: return v
def pick(*xs): return rng.choice(xs)
def rows_for(cols, lo=6_000_000, hi=40_000_000):
    return max(1, rng.randint(lo, hi) // cols)
sw = []
def add(op, cls, shape, dtypes): sw.append({"op": op, "size_class": cls, "shape": shape, "dtypes": dtypes})
dt = ["fp32", "fp16", "bf16"]
# elementwise
add("add", "odd_1d", [odd(5_000_000, 30_000_000)], [pick(*dt)])
add("add", "odd_3d", [odd(3, 9), odd(1000, 4000), odd(1000, 4000)], [pick(*dt)])
add("gelu_tanh", "odd_1d", [odd(5_000_000, 30_000_000)], [pick(*dt)])
add("gelu_erf", "odd_3d", [odd(3, 9), odd(1000, 4000), odd(1000, 4000)], [pick(*dt)])
# full sums
add("sum_full", "odd_1d", [odd(5_000_000, 60_000_000)], [pick(*dt)])
add("sum_full", "odd_3d", [odd(3, 9), odd(1000, 4000), odd(1000, 4000)], [pick(*dt)])
# row reductions
for op in ("sum_inner", "max_inner"):
    c = odd(300_000, 4_000_000); add(op, "few_long_rows", [rng.randint(2, 64), c], [pick(*dt)])
    c = odd(3, 60); add(op, "many_short_rows", [rows_for(c), c], [pick(*dt)])
    c = odd(61, 2000); add(op, "mid_rows", [rows_for(c), c], [pick(*dt)])
add("sum_inner", "odd_3d", [odd(5, 40), odd(500, 3000), odd(20, 300)], [pick(*dt)])
# column reductions
c = rng.randint(2, 64); add("sum_outer", "few_columns", [rows_for(c), c], [pick(*dt)])
c = odd(65, 1024); add("sum_outer", "mid_columns", [rows_for(c), c], [pick(*dt)])
c = odd(1025, 16384); add("sum_outer", "wide_odd_columns", [rows_for(c), c], [pick(*dt)])
c = odd(1025, 16384); add("sum_outer", "wide_odd_columns", [rows_for(c), c], [pick(*dt)])
add("sum_outer", "few_long_rows", [rng.randint(8, 64), odd(200_000, 1_000_000)], [pick(*dt)])
add("sum_outer", "odd_3d", [odd(3, 40), odd(500, 5000), odd(65, 3000)], [pick(*dt)])
# softmax
add("softmax", "long_rows", [rng.randint(2, 48), odd(100_000, 2_000_000)], [pick(*dt)])
add("softmax", "long_rows", [rng.randint(2, 48), odd(100_000, 2_000_000)], [pick(*dt)])
add("softmax", "vocab_rows", [rng.randint(512, 4096), rng.randint(30000, 160000)], [pick(*dt)])
for _ in range(2):
    c = odd(3, 64); add("softmax", "many_short_rows", [rows_for(c), c], [pick(*dt)])
for _ in range(4):
    c = rng.randint(65, 2048); add("softmax", "mid_rows", [rows_for(c), c], [pick(*dt)])
for _ in range(2):
    c = odd(2049, 16384); add("softmax", "wide_rows", [rows_for(c), c], [pick(*dt)])
add("softmax", "odd_3d", [odd(3, 40), odd(100, 3000), odd(65, 3000)], [pick(*dt)])
# GEMMs
mm = ["fp16", "bf16"]
add("matmul", "gemm_small_m", [rng.randint(1, 96), pick(4096, 5120, 8192, 11008, 14336), pick(4096, 5120, 8192)], [pick(*mm)])
add("matmul", "gemm_small_m", [rng.randint(1, 96), pick(4096, 6144, 8192), pick(2048, 4096, 8192)], ["fp32"])
add("matmul", "gemm_large_k", [pick(128, 192, 256, 384, 512), pick(128, 256, 384, 512), pick(32768, 65536, 131072)], [pick(*mm)])
add("matmul", "gemm_non_square", [odd(500, 8000), odd(500, 8000), odd(500, 4000)], [pick(*mm)])
add("matmul", "gemm_non_square", [odd(500, 4000), odd(500, 4000), odd(500, 2000)], ["fp32"])
add("matmul", "gemm_square", [pick(2560, 3584, 5120), 0, 0], [pick(*mm)])
sw[-1]["shape"][1] = sw[-1]["shape"][2] = sw[-1]["shape"][0]
if args.draw == 3:
    description = ("a third draw of the shape zoo's classes (issue 22), drawn by a seeded generator in session 15 "
                   "(seed 20261124) after the second draw had been tuned against: odd extents of every class, plus rows "
                   "and columns of mid widths (65-2048) and wide odd column and softmax rows; run it with --variant auto")
else:
    for dtype in ("fp32", "tf32"):
        add("matmul", "gemm_large_k", [pick(128, 256, 384, 512, 640, 768), pick(128, 256, 384, 512, 640, 768),
                                        pick(16384, 32768, 65536)], [dtype])
        add("matmul", "gemm_small_m", [rng.randint(1, 128), pick(2048, 4096, 8192), pick(2048, 4096, 8192)], [dtype])
    add("matmul", "gemm_non_square", [odd(1000, 6000), odd(500, 3000), odd(1000, 4000)], ["fp32"])
    description = ("a fourth draw of the shape zoo's classes (issue 22), drawn by the same seeded generator in session "
                   "16 (seed 20261125) after the third had been tuned against, with fp32 and TF32 GEMMs of large K, small "
                   "M and odd extents added; run it with --variant auto")
    if args.draw >= 5:
        for _ in range(3):
            add("matmul", "gemm_small_m", [rng.randint(1, 64), odd(2000, 16000), odd(1000, 8000)], [pick(*mm, "fp32")])
        for _ in range(2):
            add("matmul", "gemm_small_m", [rng.randint(1, 8), odd(2000, 16000), odd(1000, 8000)], [pick(*mm, "fp32")])
        description = ("a fifth draw of the shape zoo's classes (issue 22), drawn by the same generator in session 20 "
                       "(seed 20261128) after the GEMV route of session 19: draw 4's classes plus GEMMs of 1-64 rows with "
                       "odd N and K (two of them of 1-8 rows); run it with --variant auto")
    if args.draw >= 6:
        add("softmax", "one_row", [1, odd(1_000_000, 16_000_000)], [pick(*dt)])
        add("max_inner", "one_row", [1, odd(1_000_000, 64_000_000)], [pick(*dt)])
        for op in ("softmax", "sum_inner", "max_inner"):
            c = rng.randint(1, 8); add(op, "tiny_rows", [rows_for(c), c], [pick(*dt)])
        add("sum_outer", "one_column", [odd(4_000_000, 40_000_000), 1], [pick(*dt)])
        add("max_inner", "odd_3d", [odd(3, 40), odd(500, 5000), odd(3, 300)], [pick(*dt)])
        add("softmax", "odd_3d", [odd(3, 40), odd(500, 5000), odd(3, 64)], [pick(*dt)])
        for op in ("add", "gelu_erf", "sum_full"):
            add(op, "huge_1d", [odd(100_000_000, 256_000_000)], [pick(*dt)])
        add("sum_inner", "huge_rows", [rng.randint(2, 64), odd(2_000_000, 4_000_000)], [pick(*dt)])
        add("softmax", "huge_rows", [rng.randint(16, 64), odd(1_500_000, 4_000_000)], [pick(*dt)])
        description = ("a sixth draw of the shape zoo's classes (issue 22), drawn by the same generator in session 27 "
                       "(seed 20261129) after sessions 21-26 had tuned against the fifth: draw 5's classes plus the "
                       "edges (one row, rows of 1-8 elements, one column, 3-D max and softmax with short last axes, "
                       "and tensors of 100M-256M elements); run it with --variant auto")
    if args.draw == 7:
        description = ("a seventh draw of the shape zoo's classes (issue 22), drawn by the same generator in session 30 "
                       "(seed 20261130) after sessions 28-30 had tuned against the sixth: draw 6's classes; run it with "
                       "--variant auto")
cfg = {"description": description, "dtypes": ["fp32", "fp16", "bf16"], "settings": {"modes": "cold"}, "sweeps": sw}
json.dump(cfg, open(f"configs/shapes_draw{args.draw}.json", "w"), indent=2)
print(len(sw))
for s in sw: print(s["op"], s["size_class"], s["shape"], s["dtypes"])
