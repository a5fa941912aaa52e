// The launch shapes of softmax's body_rows and staged_rows (kernels/softmax/NOTES.md "body_rows",
// "staged_rows"): every element of every row is read by exactly one lane slot whatever the row's
// phase against 16-byte boundaries, within the lanes and edge slots the shape gives. No GPU needed.
#include "kernels/softmax/softmax_auto.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <vector>

using namespace kbench;

TEST_CASE("body_rows: the aligned body and the head and tail cover each 16-bit row once, for every width and phase",
          "[softmax][body_rows]") {
  for (int bytes : {32, 64}) {
    for (std::int64_t cols = softmax::kBodyRowsMinCols; cols <= softmax::kGrainRowsMaxCols; ++cols) {
      const softmax::BodyRowsShape s = softmax::body_rows_shape(cols, bytes);
      INFO("cols " << cols << ", " << bytes << " bytes in flight");
      CHECK(s.rows == bytes / 16);
      CHECK((s.lanes == 4 || s.lanes == 8 || s.lanes == 16 || s.lanes == 32));
      CHECK(s.edges <= 4);
      CHECK(softmax::body_rows_reachable(s.lanes, s.edges, s.rows, bytes));
      // Rows r = 0..7 start at every phase the tensor has (r x cols elements from an aligned base).
      for (std::int64_t r = 0; r < 8; ++r) {
        const int phase = static_cast<int>(r * cols % 8);
        const int head = (8 - phase) & 7;                     // the kernel's cut_row
        const int vectors = static_cast<int>((cols - head) >> 3);
        const int edges = static_cast<int>(cols) - 8 * vectors;
        CHECK(edges == softmax::body_rows_edge_elements(cols, r * cols));
        CHECK(vectors <= s.lanes);                            // one body vector per lane
        CHECK(edges <= s.lanes * s.edges);                    // every head and tail element has a slot
        CHECK((phase + head) % 8 == 0);                       // the body starts on a 16-byte boundary
        std::vector<int> seen(static_cast<std::size_t>(cols), 0);
        for (int lane = 0; lane < s.lanes; ++lane) {
          if (lane < vectors) {
            for (int j = 0; j < 8; ++j) ++seen.at(static_cast<std::size_t>(head + 8 * lane + j));
          }
          for (int e = 0; e < s.edges; ++e) {
            const int slot = lane + e * s.lanes;
            if (slot < edges) ++seen.at(static_cast<std::size_t>(slot < head ? slot : slot + 8 * vectors));
          }
        }
        for (std::int64_t c = 0; c < cols; ++c) CHECK(seen[static_cast<std::size_t>(c)] == 1);
      }
    }
  }
}

TEST_CASE("body_rows: odd widths read their aligned body by 16-byte vectors", "[softmax][body_rows]") {
  CHECK(softmax::body_rows_shape(61, 32).lanes == 8);    // up to 7 vectors
  CHECK(softmax::body_rows_shape(61, 32).edges == 2);    // up to 13 head and tail elements
  CHECK(softmax::body_rows_shape(100, 32).lanes == 16);  // 12 vectors, 4 edge elements
  CHECK(softmax::body_rows_shape(100, 32).edges == 1);
  CHECK(softmax::body_rows_shape(33, 64).lanes == 4);
  CHECK(softmax::body_rows_shape(33, 64).edges == 3);    // 9 edge elements where the head is 2-7
  CHECK(softmax::body_rows_shape(255, 64).lanes == 32);
  CHECK(softmax::body_rows_shape(256, 32).edges == 0);   // whole vectors: no head, no tail
  CHECK(softmax::body_rows_edge_elements(100, 100) == 4);  // head 4, 12 vectors, no tail
}

TEST_CASE("staged_rows: a warp's tile fits its slice at every start phase, and the lane pairs cover each row once",
          "[softmax][staged_rows]") {
  const int slice_vectors = 32 * softmax::kStagedRowsLaneVectors;
  for (std::size_t size : {std::size_t{2}, std::size_t{4}}) {
    const int per_vector = 16 / static_cast<int>(size);
    for (std::int64_t cols = 1; cols <= 300; ++cols) {
      const std::int64_t row_bytes = cols * static_cast<std::int64_t>(size);
      const softmax::StagedRowsShape s = softmax::staged_rows_shape(cols, size);
      INFO(size << "-byte elements, cols " << cols);
      const bool in_class = row_bytes >= 32 && row_bytes <= 128;
      CHECK(softmax::staged_rows_fits(cols, size) == in_class);
      if (!in_class) {
        CHECK(s.per_lane == 0);
        continue;
      }
      CHECK(softmax::staged_rows_reachable(size, s.per_lane));
      CHECK(s.per_lane % softmax::kStagedRowsPerLaneStep == 0);
      CHECK(softmax::kStagedRowsLanes * s.per_lane >= cols);                                      // every element a slot
      CHECK(softmax::kStagedRowsLanes * (s.per_lane - softmax::kStagedRowsPerLaneStep) < cols);  // no empty step
      CHECK(s.tile_rows % (32 / softmax::kStagedRowsLanes) == 0);
      const std::int64_t tile_bytes = s.tile_rows * row_bytes;
      CHECK(2 * tile_bytes >= slice_vectors * 16);  // at least half the slice in flight
      // Tiles start at w x tile_rows rows from an aligned base: every start phase the tensor has.
      for (std::int64_t w = 0; w < per_vector; ++w) {
        const std::int64_t first = w * s.tile_rows * cols;
        const std::int64_t end = first + s.tile_rows * cols;
        const std::int64_t vectors = (end + per_vector - 1) / per_vector - first / per_vector;
        CHECK(vectors <= slice_vectors);
      }
      // Lane h of a pair holds elements h, h + 2, ...: each element of the row exactly once.
      std::vector<int> seen(static_cast<std::size_t>(cols), 0);
      for (int h = 0; h < softmax::kStagedRowsLanes; ++h) {
        for (int k = 0; k < s.per_lane; ++k) {
          const std::int64_t j = softmax::kStagedRowsLanes * k + h;
          if (j < cols) ++seen[static_cast<std::size_t>(j)];
        }
      }
      for (std::int64_t c = 0; c < cols; ++c) CHECK(seen[static_cast<std::size_t>(c)] == 1);
    }
  }
}

TEST_CASE("staged_rows: the shapes of the issue-22 widths", "[softmax][staged_rows]") {
  CHECK(softmax::staged_rows_shape(61, 2).per_lane == 32);
  CHECK(softmax::staged_rows_shape(61, 2).tile_rows == 32);   // 3904 bytes of a 4608-byte slice
  CHECK(softmax::staged_rows_shape(33, 2).per_lane == 20);  // 17 slots of 20 hold elements
  CHECK(softmax::staged_rows_shape(33, 2).tile_rows == 64);   // 4224 bytes
  CHECK(softmax::staged_rows_shape(17, 2).per_lane == 12);
  CHECK(softmax::staged_rows_shape(17, 2).tile_rows == 128);  // 4352 bytes
  CHECK(softmax::staged_rows_shape(64, 2).tile_rows == 32);   // 4096 bytes
  CHECK(softmax::staged_rows_shape(15, 2).per_lane == 0);     // 30 bytes: vector_rows' class
  CHECK(softmax::staged_rows_shape(65, 2).per_lane == 0);     // 130 bytes: past the class
  CHECK(softmax::staged_rows_shape(13, 4).per_lane == 8);
  CHECK(softmax::staged_rows_shape(32, 4).per_lane == 16);
  CHECK(softmax::staged_rows_shape(7, 4).per_lane == 0);
  CHECK_FALSE(softmax::staged_rows_reachable(4, 24));          // fp32 rows stop at 16 slots a lane
}
