// The launch shape of softmax's body_rows (kernels/softmax/NOTES.md "body_rows"): every element
// of every row (16-bit 16-2048 columns, fp32 8-1024) is read by exactly one lane slot whatever the row's phase against 16-byte
// boundaries, within the lanes and edge slots the shape gives. No GPU needed.
#include "kernels/softmax/softmax_auto.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace kbench;

TEST_CASE("body_rows: the aligned body and the head and tail cover each row once, for every width, dtype and phase",
          "[softmax][body_rows]") {
  for (const std::size_t size : {std::size_t{2}, std::size_t{4}}) {
    const int vec = static_cast<int>(16 / size);
    for (int bytes : {32, 64}) {
      for (std::int64_t cols = softmax::body_rows_min_cols(size); cols <= softmax::body_rows_max_cols(size); ++cols) {
        const softmax::BodyRowsShape s = softmax::body_rows_shape(cols, size, bytes);
        INFO("cols " << cols << ", " << size << "-byte elements, " << bytes << " bytes in flight");
        // One vector a lane: `bytes` of vectors; more: twice that, at least one row.
        CHECK(s.rows == (s.vectors == 1 ? bytes / 16 : std::max(1, 2 * bytes / (16 * s.vectors))));
        CHECK((s.lanes == 4 || s.lanes == 8 || s.lanes == 16 || s.lanes == 32));
        CHECK((s.vectors == 1 || s.vectors == 2 || s.vectors == 4 || s.vectors == 8));
        CHECK((s.vectors == 1 || s.lanes == 32));
        CHECK(s.edges <= 4);
        CHECK(softmax::body_rows_reachable(size, s.lanes, s.vectors, s.edges, s.rows, bytes));
        // Rows r = 0..vec-1 start at every phase the tensor has (r x cols elements from an aligned base).
        for (std::int64_t r = 0; r < vec; ++r) {
          const int phase = static_cast<int>(r * cols % vec);
          const int head = (vec - phase) % vec;  // the kernel's cut_row
          const int vectors = static_cast<int>((cols - head) / vec);
          const int edges = static_cast<int>(cols) - vec * vectors;
          CHECK(edges == softmax::body_rows_edge_elements(cols, r * cols, size));
          CHECK(vectors <= s.lanes * s.vectors);  // every body vector has a slot
          CHECK(edges <= s.lanes * s.edges);      // every head and tail element has a slot
          CHECK((phase + head) % vec == 0);       // the body starts on a 16-byte boundary
          std::vector<int> seen(static_cast<std::size_t>(cols), 0);
          for (int lane = 0; lane < s.lanes; ++lane) {
            for (int k = 0; k < s.vectors; ++k) {
              const int vector = lane + k * s.lanes;
              if (vector >= vectors) continue;
              for (int j = 0; j < vec; ++j) ++seen.at(static_cast<std::size_t>(head + vec * vector + j));
            }
            for (int e = 0; e < s.edges; ++e) {
              const int slot = lane + e * s.lanes;
              if (slot < edges) ++seen.at(static_cast<std::size_t>(slot < head ? slot : slot + vec * vectors));
            }
          }
          for (std::int64_t c = 0; c < cols; ++c) CHECK(seen[static_cast<std::size_t>(c)] == 1);
        }
      }
    }
  }
}

TEST_CASE("body_rows: odd widths read their aligned body by 16-byte vectors", "[softmax][body_rows]") {
  CHECK(softmax::body_rows_shape(61, 2, 32).lanes == 8);    // up to 7 vectors
  CHECK(softmax::body_rows_shape(61, 2, 32).edges == 2);    // up to 13 head and tail elements
  CHECK(softmax::body_rows_shape(100, 2, 32).lanes == 16);  // 12 vectors, 4 edge elements
  CHECK(softmax::body_rows_shape(100, 2, 32).edges == 1);
  CHECK(softmax::body_rows_shape(33, 2, 64).lanes == 4);
  CHECK(softmax::body_rows_shape(33, 2, 64).edges == 3);    // 9 edge elements where the head is 2-7
  CHECK(softmax::body_rows_shape(255, 2, 64).lanes == 32);
  CHECK(softmax::body_rows_shape(256, 2, 32).edges == 0);   // whole vectors: no head, no tail
  CHECK(softmax::body_rows_shape(263, 2, 32).vectors == 1);  // at most 32 body vectors: one a lane, two rows
  CHECK(softmax::body_rows_shape(263, 2, 32).rows == 2);
  CHECK(softmax::body_rows_shape(999, 2, 32).vectors == 4);  // 124 body vectors over 32 lanes
  CHECK(softmax::body_rows_shape(999, 2, 32).rows == 1);
  CHECK(softmax::body_rows_shape(999, 2, 32).edges == 1);    // up to 14 head and tail elements
  CHECK(softmax::body_rows_shape(513, 2, 32).vectors == 2);
  CHECK(softmax::body_rows_shape(513, 2, 32).rows == 2);     // 64 bytes a lane, as 4 vectors in one row
  CHECK(softmax::body_rows_shape(300, 2, 32).rows == 2);
  CHECK(softmax::body_rows_shape(1023, 2, 32).vectors == 4);
  CHECK(softmax::body_rows_edge_elements(100, 100, 2) == 4);  // head 4, 12 vectors, no tail
  CHECK(softmax::kBodyRowsMinCols == softmax::body_rows_min_cols(2));
  CHECK(softmax::kBodyRowsMaxCols == softmax::body_rows_max_cols(2));
  CHECK(softmax::body_rows_max_cols(4) == 1024);
  CHECK(softmax::body_rows_shape(1031, 2, 32).vectors == 4);  // at most 128 body vectors: 4 slots a lane
  CHECK(softmax::body_rows_shape(1033, 2, 32).vectors == 8);  // 129: 8 slots
  CHECK(softmax::body_rows_shape(1033, 2, 32).rows == 1);
  CHECK(softmax::body_rows_shape(2047, 2, 32).vectors == 8);
  CHECK(softmax::body_rows_shape(1023, 4, 32).vectors == 8);  // fp32: 255 body vectors
  CHECK(softmax::body_rows_shape(257, 4, 32).vectors == 2);  // fp32: 64 body vectors, 2 rows of 2 a lane
  CHECK(softmax::body_rows_shape(257, 4, 32).rows == 2);
  CHECK(softmax::body_rows_shape(257, 4, 32).edges == 1);    // up to 5 head and tail elements
  CHECK(softmax::body_rows_shape(511, 4, 32).vectors == 4);
  CHECK(softmax::body_rows_shape(9, 4, 32).lanes == 4);      // 2 vectors, up to 5 edge elements
  CHECK(softmax::body_rows_shape(9, 4, 32).edges == 2);
  CHECK(softmax::body_rows_edge_elements(257, 257, 4) == 5);  // head 3, 63 vectors, tail 2
}
