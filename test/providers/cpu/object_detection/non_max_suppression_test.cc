// Hand-derived cases: boxes are unit squares on a line, so IoUs are simple fractions.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Four boxes as [y1, x1, y2, x2]: A = [0,0,1,1], B = [0,0.1,1,1.1] (IoU with A 0.9/1.1 = 0.818),
// C = [0,0.5,1,1.5] (IoU with A 1/3), D = [0,3,1,4] (disjoint), the last two given with flipped
// corners.
const std::vector<float> kBoxes = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 1, 1.5f, 0, 0.5f, 1, 4, 0, 3};

}  // namespace

TEST_CASE("NonMaxSuppression keeps high scores and drops overlaps",
          "[object_detection][NonMaxSuppression]") {
  // Scores: A 0.9, B 0.95, C 0.8, D 0.1. With IoU threshold 0.5: B kept, A suppressed (0.818),
  // C kept (IoU with B = 0.6/1.4 = 0.43), D dropped by the score threshold 0.2.
  OpTester("NonMaxSuppression", 11)
      .Input<float>("boxes", {1, 4, 4}, kBoxes)
      .Input<float>("scores", {1, 1, 4}, {0.9f, 0.95f, 0.8f, 0.1f})
      .Input<int64_t>("max_output_boxes_per_class", {}, {10})
      .Input<float>("iou_threshold", {}, {0.5f})
      .Input<float>("score_threshold", {}, {0.2f})
      .Output<int64_t>("selected_indices", {2, 3}, {0, 0, 1, 0, 0, 2})
      .Run();
}

TEST_CASE("NonMaxSuppression limits boxes per class over batches and classes",
          "[object_detection][NonMaxSuppression]") {
  std::vector<float> boxes = kBoxes;
  boxes.insert(boxes.end(), kBoxes.begin(), kBoxes.end());
  // Without a score threshold every box competes; IoU threshold 0.3 also suppresses C.
  OpTester("NonMaxSuppression", 10)
      .Input<float>("boxes", {2, 4, 4}, boxes)
      .Input<float>("scores", {2, 2, 4},
                    {0.9f, 0.95f, 0.8f, 0.1f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.5f, 0.5f, 0.5f, 0.0f,
                     0.0f, 0.0f, 0.7f})
      .Input<int64_t>("max_output_boxes_per_class", {}, {2})
      .Input<float>("iou_threshold", {}, {0.3f})
      .Output<int64_t>("selected_indices", {8, 3},
                       {0, 0, 1, 0, 0, 3, 0, 1, 3, 0, 1, 2,
                        // Equal scores: the lower index wins, A suppresses B and C.
                        1, 0, 0, 1, 0, 3, 1, 1, 3, 1, 1, 0})
      .Run();
}

TEST_CASE("NonMaxSuppression compares a candidate with every kept box, past the first 16",
          "[object_detection][NonMaxSuppression]") {
  // Boxes 0-39: unit squares at x = 2i, disjoint, scores falling with i, so all are kept. Box 40
  // repeats box 35 (IoU 1) and box 41 is box 37 moved by 0.5 (IoU 1/3), both scoring lowest: the
  // kept box they overlap is the 36th or 38th, in the third block of 16. IoU threshold 0.4 drops
  // box 40 only; 0.3 drops both.
  const int64_t count = 42;
  std::vector<float> boxes, scores;
  for (int64_t i = 0; i < 40; ++i) {
    boxes.insert(boxes.end(), {0.0f, 2.0f * i, 1.0f, 2.0f * i + 1});
    scores.push_back(1.0f - 0.01f * i);
  }
  boxes.insert(boxes.end(), {0.0f, 70.0f, 1.0f, 71.0f, 0.0f, 74.5f, 1.0f, 75.5f});
  scores.insert(scores.end(), {0.5f, 0.4f});
  for (const float threshold : {0.4f, 0.3f}) {
    std::vector<int64_t> selected;
    for (int64_t i = 0; i < 40; ++i) selected.insert(selected.end(), {0, 0, i});
    if (threshold > 0.35f) selected.insert(selected.end(), {0, 0, 41});
    OpTester("NonMaxSuppression", 11)
        .Input<float>("boxes", {1, count, 4}, boxes)
        .Input<float>("scores", {1, 1, count}, scores)
        .Input<int64_t>("max_output_boxes_per_class", {}, {100})
        .Input<float>("iou_threshold", {}, {threshold})
        .Output<int64_t>("selected_indices", {static_cast<int64_t>(selected.size() / 3), 3},
                         selected)
        .Run();
  }
}

TEST_CASE("NonMaxSuppression reads center-point boxes", "[object_detection][NonMaxSuppression]") {
  // [x_center, y_center, width, height]: the same A, B, D as above.
  OpTester("NonMaxSuppression", 11)
      .AttrInt("center_point_box", 1)
      .Input<float>("boxes", {1, 3, 4}, {0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1, 3.5f, 0.5f, 1, 1})
      .Input<float>("scores", {1, 1, 3}, {0.9f, 0.8f, 0.7f})
      .Input<int64_t>("max_output_boxes_per_class", {}, {3})
      .Input<float>("iou_threshold", {}, {0.5f})
      .Output<int64_t>("selected_indices", {2, 3}, {0, 0, 0, 0, 0, 2})
      .Run();
}

TEST_CASE("NonMaxSuppression selects nothing without max_output_boxes_per_class",
          "[object_detection][NonMaxSuppression]") {
  OpTester("NonMaxSuppression", 11)
      .Input<float>("boxes", {1, 4, 4}, kBoxes)
      .Input<float>("scores", {1, 1, 4}, {0.9f, 0.95f, 0.8f, 0.1f})
      .Output<int64_t>("selected_indices", {0, 3}, {})
      .Run();
  OpTester("NonMaxSuppression", 11)
      .Input<float>("boxes", {1, 0, 4}, {})
      .Input<float>("scores", {1, 3, 0}, {})
      .Input<int64_t>("max_output_boxes_per_class", {}, {5})
      .Output<int64_t>("selected_indices", {0, 3}, {})
      .Run();
}

TEST_CASE("NonMaxSuppression rejects bad shapes and thresholds",
          "[object_detection][NonMaxSuppression]") {
  OpTester("NonMaxSuppression", 11)
      .Input<float>("boxes", {1, 4, 4}, kBoxes)
      .Input<float>("scores", {1, 1, 3}, {0.9f, 0.95f, 0.8f})
      .Output<int64_t>("selected_indices", {0, 3}, {})
      .RunExpectingError("scores must be");
  OpTester("NonMaxSuppression", 11)
      .Input<float>("boxes", {1, 4, 4}, kBoxes)
      .Input<float>("scores", {1, 1, 4}, {0.9f, 0.95f, 0.8f, 0.1f})
      .Input<int64_t>("max_output_boxes_per_class", {}, {1})
      .Input<float>("iou_threshold", {}, {1.5f})
      .Output<int64_t>("selected_indices", {0, 3}, {})
      .RunExpectingError("iou_threshold");
}

}  // namespace ort::test
