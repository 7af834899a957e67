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
