// Expected values come from an independent numpy implementation of the ONNX LSTM/GRU/RNN
// equations (with sequence_lens, directions, layouts, clip and activations), pasted as literals.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

std::vector<Float16> H(std::vector<float> values) {
  std::vector<Float16> result;
  for (float v : values) result.push_back(Float16(v));
  return result;
}

}  // namespace

TEST_CASE("LSTM bidirectional with sequence_lens, initial states and peepholes", "[rnn][LSTM]") {
  OpTester("LSTM", 14)
      .AttrString("direction", "bidirectional")
      .AttrInt("hidden_size", 2)
      .Input<float>("X", {3, 2, 2},
                    {0.25, 0.79, 0.55, -0.55, -0.4, 0.75, -0.99, 0.64, 0.59, -0.06, -0.39, -0.44})
      .ConstantInput<float>("W", {2, 8, 2}, {-0.25, -0.05, 0,    0.05,  0.5,   0.29,  0.12,  0.49,
                                             -0.28, -0.34, 0.11, -0.46, -0.46, 0.01,  -0.03, 0.42,
                                             0.13,  0.01,  -0,   -0.25, -0.49, -0.31, 0.19,  -0.3,
                                             -0.13, -0.5,  0.33, -0.35, -0.23, 0.38,  0.01,  0.35})
      .ConstantInput<float>(
          "R", {2, 8, 2}, {0.14,  0.24, -0.41, 0.04,  0.01, 0.37, -0.14, 0.1,  -0.44, -0.11, -0.18,
                           -0.35, 0.32, -0.12, 0.48,  0.09, 0.11, 0.14,  0.18, -0.35, -0.06, -0.26,
                           -0.1,  -0.4, 0.47,  -0.28, 0.17, -0.2, 0.37,  0.16, -0.37, 0.35})
      .Input<float>("B", {2, 16},
                    {0.18,  0.16,  0.03, -0.14, -0.12, 0.17,  0.02, -0.13, 0.15, 0.06,  0.03,
                     -0.05, -0.04, -0.1, -0.18, 0.15,  -0.01, 0.02, -0.07, 0.1,  -0.19, -0.05,
                     -0.19, -0.15, 0.19, 0.06,  -0.03, 0.01,  0.15, -0.06, 0.04, 0.07})
      .Input<int32_t>("sequence_lens", {2}, {3, 1})
      .Input<float>("initial_h", {2, 2, 2}, {-0.14, 0.02, 0.27, 0.41, -0.35, 0.43, -0.49, 0.25})
      .Input<float>("initial_c", {2, 2, 2}, {0.31, -0.36, -0.08, 0.32, -0.49, 0.13, 0.29, 0.01})
      .Input<float>("P", {2, 6},
                    {0.23, -0.27, -0.3, -0.14, -0.32, -0.15, 0.45, 0.07, -0.16, -0.23, 0.45, -0.06})
      .Output<float>("Y", {3, 2, 2, 2},
                     {-0.036070949,
                      0.00063248591,
                      -0.1452193,
                      0.055802212,
                      0.015877722,
                      0.081151385,
                      -0.081035552,
                      0.0036279462,
                      -0.0072710385,
                      0.094477715,
                      0,
                      0,
                      -0.015596093,
                      0.074158089,
                      0,
                      0,
                      -0.14132508,
                      0.039464971,
                      0,
                      0,
                      -0.13684745,
                      0.076929649,
                      0,
                      0})
      .Output<float>("Y_h", {2, 2, 2},
                     {-0.14132508, 0.039464971, -0.1452193, 0.055802212, 0.015877722, 0.081151385,
                      -0.081035552, 0.0036279462})
      .Output<float>("Y_c", {2, 2, 2},
                     {-0.23634015, 0.085529648, -0.24707992, 0.14081043, 0.041883147, 0.17710818,
                      -0.18254883, 0.0062439131})
      .Run();
}

TEST_CASE("LSTM with layout 1, clip, input_forget and custom activations", "[rnn][LSTM]") {
  OpTester("LSTM", 14)
      .AttrInt("hidden_size", 2)
      .AttrInt("layout", 1)
      .AttrFloat("clip", 0.7f)
      .AttrInt("input_forget", 1)
      .Attr(Attribute::Strings("activations", {"HardSigmoid", "ScaledTanh", "Softsign"}))
      .AttrFloats("activation_alpha", {0.3f, 0.8f})
      .AttrFloats("activation_beta", {0.4f, 1.2f})
      .Input<float>("X", {3, 2, 3},
                    {1.92, 0.06, 0.08, 1.59, 0.97, 0.32, -0.29, 1.51, -0.35, 1.69, -1.73, -0.28,
                     0.08, 1.8, -1, 1.22, 0.71, 0.87})
      .Input<float>("W", {1, 8, 3},
                    {0.26, 0.94, -0.33, -0.2, -0.59, -0.9, -0.57, 0.83,  0.68,  -0.78, 0.21, -0.04,
                     0.19, 0.32, -0.39, 0.92, -0.07, 0.26, 0.27,  -0.63, -0.88, -0.18, 0.53, 0.63})
      .Input<float>("R", {1, 8, 2},
                    {0.46, -0.77, 0.83, 0.6, 0.76, 0.05, 0.83, -0.91, -0.94, -0.96, -0.49, -0.5,
                     -0.62, 0.13, -0.92, 0.18})
      .Input<float>("B", {1, 16},
                    {-0.2, 0.11, -0.29, -0.11, 0.26, 0.02, 0.19, 0.09, 0.07, -0.19, 0.04, -0.28,
                     0.18, 0.28, 0.21, -0.27})
      .OmittedInput()
      .Input<float>("initial_h", {3, 1, 2}, {-0.16, -0.18, -0.39, 0.13, 0.3, -0.19})
      .Output<float>(
          "Y", {3, 2, 1, 2},
          {0.043379621, -0.010248008, 0.021562638, -0.0017045871, -0.021000213, 0.029981198,
           0.013167607, -0.043170746, -0.015003944, -0.030132213, -0.093085527, 0.0065381189})
      .Output<float>(
          "Y_h", {3, 1, 2},
          {0.021562638, -0.0017045871, 0.013167607, -0.043170746, -0.093085527, 0.0065381189})
      .Output<float>(
          "Y_c", {3, 1, 2},
          {0.061944837, -0.0090527276, 0.074463775, -0.29402006, -0.24909719, 0.035637479})
      .Run();
}

TEST_CASE("LSTM reverse in double precision", "[rnn][LSTM]") {
  OpTester("LSTM", 7)
      .AttrString("direction", "reverse")
      .AttrInt("hidden_size", 3)
      .Input<double>(
          "X", {4, 1, 2},
          {0.72999999999999998, 0.58999999999999997, -0.73999999999999999, 0.53000000000000003,
           0.77000000000000002, -0.60999999999999999, 0.14999999999999999, 0.28000000000000003})
      .ConstantInput<double>("W", {1, 12, 2},
                             {0.11,
                              -0.40000000000000002,
                              0.16,
                              0.13,
                              0.32000000000000001,
                              0.29999999999999999,
                              -0.17000000000000001,
                              0.22,
                              0.37,
                              0.39000000000000001,
                              -0.34000000000000002,
                              -0.46999999999999997,
                              0.14999999999999999,
                              -0.28999999999999998,
                              0.059999999999999998,
                              0.44,
                              -0.12,
                              -0.25,
                              -0.040000000000000001,
                              0.16,
                              -0.40000000000000002,
                              -0.12,
                              -0.37,
                              0.16})
      .ConstantInput<double>("R", {1, 12, 3},
                             {0.33000000000000002,
                              -0.12,
                              -0.13,
                              0.040000000000000001,
                              -0.28000000000000003,
                              -0.25,
                              -0.17000000000000001,
                              -0.040000000000000001,
                              -0.41999999999999998,
                              0.25,
                              0.080000000000000002,
                              -0.20000000000000001,
                              -0.41999999999999998,
                              0.26000000000000001,
                              -0.37,
                              -0.37,
                              -0.37,
                              -0.41999999999999998,
                              0.40999999999999998,
                              -0.23000000000000001,
                              -0.19,
                              0.33000000000000002,
                              0.12,
                              -0.31,
                              -0.070000000000000007,
                              0.38,
                              -0.12,
                              0.20999999999999999,
                              -0.40000000000000002,
                              0.23000000000000001,
                              0.28000000000000003,
                              0.33000000000000002,
                              0.17000000000000001,
                              -0.13,
                              -0.44,
                              0.02})
      .OmittedOutput()
      .Output<double>("Y_h", {1, 1, 3},
                      {0.023593918707606635, -0.10707792007520367, -0.023623964191148886})
      .Run();
}

TEST_CASE("LSTM computes float16 through float", "[rnn][LSTM]") {
  OpTester("LSTM", 14)
      .AttrInt("hidden_size", 2)
      .Input<Float16>("X", {2, 2, 2}, H({0.51, -0.62, -0.47, 0.07, 0.5, 0.79, -0.75, -0.63}))
      .ConstantInput<Float16>("W", {1, 8, 2},
                              H({0.3, 0.14, 0.22, 0.5, 0.44, 0.34, 0.28, -0.1, 0.14, -0.32, 0.26,
                                 0.26, 0.22, -0.06, -0.12, -0.08}))
      .ConstantInput<Float16>("R", {1, 8, 2},
                              H({-0.47, 0.34, 0.04, -0.11, 0.05, 0.22, -0.12, 0.33, 0.42, -0.11,
                                 -0.36, 0.26, 0.49, -0.35, 0.21, 0.33}))
      .Input<Float16>("B", {1, 16},
                      H({0.17, -0.15, -0.16, 0.2, -0.15, -0.13, 0.03, -0.02, 0.1, -0.12, 0.17,
                         -0.11, 0.11, -0.17, -0.01, -0.19}))
      .Output<Float16>("Y", {2, 1, 2, 2},
                       H({0.04933083, -0.04799196, -0.02132352, -0.03199833, 0.07430549, -0.1177118,
                          -0.02781538, -0.02393132}))
      .SetTolerance(0.002, 0.002)
      .Run();
}

TEST_CASE("GRU bidirectional with sequence_lens and initial_h", "[rnn][GRU]") {
  OpTester("GRU", 14)
      .AttrString("direction", "bidirectional")
      .AttrInt("hidden_size", 3)
      .Input<float>(
          "X", {3, 2, 2},
          {-0.37, -0.38, 0.44, -0.09, -0.89, 0.99, 0.78, 0.83, -0.51, -0.21, -0.55, -0.75})
      .ConstantInput<float>(
          "W", {2, 9, 2},
          {-0.47, 0,    -0.38, -0.32, 0.36,  -0.02, -0.32, 0.17,  -0.23, 0.03,  -0.22, 0.02,
           0.13,  0.04, -0.1,  0.29,  0.37,  -0.32, -0.36, -0.39, 0.48,  0.44,  -0.27, 0.47,
           -0.29, 0.01, -0,    0.41,  -0.46, -0.18, 0.1,   -0.43, -0.26, -0.03, 0.38,  0.26})
      .ConstantInput<float>(
          "R", {2, 9, 3}, {0.33, 0.26,  0.21, 0.35,  0.18,  0.24,  -0.2,  -0.33, 0.26, -0.33, 0.42,
                           0.1,  -0.17, 0.44, -0.34, 0.01,  -0.41, 0.47,  0.08,  0.3,  -0.22, 0.3,
                           0.2,  0.14,  0.45, -0.07, -0.08, 0.19,  0.34,  -0.16, 0.17, -0.29, 0.05,
                           0.27, -0.43, 0.23, -0.48, 0.46,  -0.03, -0.09, 0.22,  0.02, 0.23,  -0.42,
                           0.06, 0.06,  0.43, -0.46, -0.05, 0.13,  0.05,  -0.43, 0.09, -0.28})
      .ConstantInput<float>(
          "B", {2, 18},
          {-0.18, 0.23,  -0.18, -0.03, 0.15,  0.12,  0.03,  0.18, -0.02, 0.07, 0.19, 0.11,
           0.09,  -0.06, 0.03,  -0.06, 0.15,  -0.07, -0.02, 0.15, 0,     -0.1, 0.2,  -0.07,
           0.21,  0.17,  -0.03, 0.13,  -0.28, -0.07, 0.22,  0.05, 0.03,  0.1,  0.11, 0.05})
      .Input<int32_t>("sequence_lens", {2}, {2, 3})
      .Input<float>("initial_h", {2, 2, 3},
                    {-0.08, -0.32, -0.21, -0.21, -0.07, 0.5, -0.15, -0.05, -0.13, 0.08, 0.45, 0.39})
      .Output<float>("Y", {3, 2, 2, 3}, {-0.10112738,
                                         -0.13216017,
                                         -0.15228839,
                                         -0.12260169,
                                         0.067786603,
                                         0.29984663,
                                         0.077078371,
                                         0.32327029,
                                         -0.12353805,
                                         0.29873712,
                                         0.25022918,
                                         0.15087498,
                                         -0.10692882,
                                         0.16216281,
                                         -0.44031931,
                                         -0.0030180569,
                                         0.27584198,
                                         0.12298129,
                                         -0.16959352,
                                         0.21469057,
                                         -0.085244991,
                                         0.1980556,
                                         0.31248586,
                                         0.20167853,
                                         0,
                                         0,
                                         0,
                                         -0.045236177,
                                         0.25600593,
                                         0.011283339,
                                         0,
                                         0,
                                         0,
                                         0.22638839,
                                         0.44942841,
                                         -0.084693342})
      .Output<float>("Y_h", {2, 2, 3},
                     {-0.10692882, 0.16216281, -0.44031931, -0.045236177, 0.25600593, 0.011283339,
                      0.077078371, 0.32327029, -0.12353805, 0.29873712, 0.25022918, 0.15087498})
      .Run();
}

TEST_CASE("GRU with linear_before_reset, layout 1, clip and custom activations", "[rnn][GRU]") {
  OpTester("GRU", 14)
      .AttrString("direction", "reverse")
      .AttrInt("hidden_size", 2)
      .AttrInt("linear_before_reset", 1)
      .AttrInt("layout", 1)
      .AttrFloat("clip", 1.5f)
      .Attr(Attribute::Strings("activations", {"LeakyRelu", "Elu"}))
      .AttrFloats("activation_alpha", {0.1f, 0.5f})
      .Input<float>(
          "X", {2, 3, 2},
          {-0.49, -0.93, 1.54, -0.02, 0.74, -1.71, 1.47, -0.75, -0.02, -1.21, -0.32, 1.31})
      .Input<float>("W", {1, 6, 2},
                    {0.66, -0.05, 0.54, -0.08, -0.25, 0.09, -0.6, -0.37, 0.41, 0.54, -0.89, 0.47})
      .Input<float>("R", {1, 6, 2},
                    {0.63, -0.11, -0.88, 0.37, -0.51, 0.29, -0.25, 0.27, -0.48, -0.05, 0.05, 0.26})
      .Input<float>("B", {1, 12},
                    {-0.3, 0.46, -0.21, -0.19, -0.24, -0.43, -0.08, 0.27, 0.21, -0.3, -0.36, -0.18})
      .Output<float>("Y", {2, 3, 1, 2},
                     {-0.33858626, 0.13189479, 0.089953676, 0.34943605, -0.23040093, 0.10347906,
                      -0.14095559, 0.30251935, -0.30589576, 0.072201263, 0.28235566, 0.26536072})
      .Output<float>("Y_h", {2, 1, 2}, {-0.33858626, 0.13189479, -0.14095559, 0.30251935})
      .Run();
}

TEST_CASE("GRU with linear_before_reset in double precision", "[rnn][GRU]") {
  OpTester("GRU", 7)
      .AttrInt("hidden_size", 2)
      .AttrInt("linear_before_reset", 1)
      .Input<double>("X", {2, 2, 3},
                     {0.54000000000000004, -0.02, 0.84999999999999998, 0.31, 0.23999999999999999,
                      0.54000000000000004, 0.5, -0.31, -0.48999999999999999, -0.12, -0.02,
                      -0.71999999999999997})
      .ConstantInput<double>(
          "W", {1, 6, 3},
          {-0.059999999999999998, 0.14000000000000001, -0.35999999999999999, -0.35999999999999999,
           -0.33000000000000002, -0.22, 0.46000000000000002, -0.46999999999999997,
           -0.32000000000000001, -0.33000000000000002, -0.029999999999999999, -0.47999999999999998,
           -0.040000000000000001, -0.34000000000000002, -0.23000000000000001, 0.28999999999999998,
           -0.32000000000000001, 0.12})
      .ConstantInput<double>(
          "R", {1, 6, 2},
          {-0.089999999999999997, -0.080000000000000002, 0.32000000000000001, -0.34000000000000002,
           0.41999999999999998, 0.39000000000000001, 0.17000000000000001, -0.45000000000000001,
           0.16, 0.10000000000000001, 0.27000000000000002, -0.28999999999999998})
      .ConstantInput<double>(
          "B", {1, 12},
          {0.27000000000000002, 0.23000000000000001, -0.23000000000000001, -0.11,
           -0.28000000000000003, 0.20000000000000001, 0.25, 0.28999999999999998,
           0.070000000000000007, 0.10000000000000001, 0.11, 0.040000000000000001})
      .Output<double>(
          "Y", {2, 1, 2, 2},
          {-0.1884110200571413, 0.20665954375839241, -0.17586984083859594, 0.12799239586551164,
           -0.13045397529081459, 0.2584533779861603, -0.13824125016894095, 0.10421278030869238})
      .Output<double>(
          "Y_h", {1, 2, 2},
          {-0.13045397529081459, 0.2584533779861603, -0.13824125016894095, 0.10421278030869238})
      .Run();
}

TEST_CASE("RNN bidirectional with per-direction activations and a zero sequence length",
          "[rnn][RNN]") {
  OpTester("RNN", 14)
      .AttrString("direction", "bidirectional")
      .AttrInt("hidden_size", 2)
      .Attr(Attribute::Strings("activations", {"Relu", "LeakyRelu"}))
      .AttrFloats("activation_alpha", {0.1f})
      .Input<float>("X", {3, 3, 2},
                    {0.9, 0.22, -0.33, 0.03, -0.96, 0.45, 0.39, -0.16, 0.7, 0.51, -0.33, -0.85,
                     -0.74, -0.63, -0.39, -0.1, 0.86, -0.44})
      .Input<float>("W", {2, 2, 2}, {0.8, 0.36, 0.71, -0.19, -0.99, 0.57, -0.51, -0.72})
      .Input<float>("R", {2, 2, 2}, {0.6, 0.37, -0.58, -0.46, 0.88, -0.46, 0.4, -0.74})
      .Input<float>("B", {2, 4}, {0.19, -0.23, 0.01, -0.28, 0.03, 0.21, -0.25, -0.14})
      .Input<int32_t>("sequence_lens", {3}, {3, 0, 2})
      .Input<float>("initial_h", {2, 3, 2},
                    {0.26, 0.11, -0.19, 0.13, -0.05, 0.36, -0.21, 0.26, 0.14, 0.24, -0.12, 0.22})
      .Output<float>(
          "Y", {3, 2, 3, 2},
          {1.1959,   0, 0, 0, 0, 0, -0.10512455, -0.055165225, 0, 0, 0.6412852, -0.0261014,
           1.17194,  0, 0, 0, 0, 0, -0.09978952, -0.048194,    0, 0, -0.05846,  0.6395,
           0.084364, 0, 0, 0, 0, 0, -0.01509,    0.6246,       0, 0, 0,         0})
      .Output<float>(
          "Y_h", {2, 3, 2},
          {0.084364, 0, 0, 0, 0, 0, -0.10512455, -0.055165225, 0, 0, 0.6412852, -0.0261014})
      .Run();
}

TEST_CASE("RNN reverse with layout 1 takes hidden_size from R", "[rnn][RNN]") {
  OpTester("RNN", 14)
      .AttrString("direction", "reverse")
      .AttrInt("layout", 1)
      .Input<float>("X", {1, 3, 2}, {0.4, -0.23, -0.95, 0.93, 0.43, -0.59})
      .ConstantInput<float>("W", {1, 3, 2}, {0.23, -0.22, -0.03, 0.36, -0.05, -0.21})
      .ConstantInput<float>("R", {1, 3, 3},
                            {-0.19, -0.42, -0.28, -0.23, -0.33, -0.44, -0.03, -0.29, 0.24})
      .Output<float>("Y", {1, 3, 1, 3},
                     {0.095639219, -0.08604013, -0.070838199, -0.38108328, 0.32731147, -0.065705084,
                      0.22479441, -0.22156376, 0.10204358})
      .Output<float>("Y_h", {1, 1, 3}, {0.095639219, -0.08604013, -0.070838199})
      .Run();
}

TEST_CASE("RNN with an empty sequence gives empty Y and zero Y_h", "[rnn][RNN]") {
  OpTester("RNN", 14)
      .AttrInt("hidden_size", 2)
      .Input<float>("X", {0, 2, 1}, {})
      .Input<float>("W", {1, 2, 1}, {1, 2})
      .Input<float>("R", {1, 2, 2}, {1, 0, 0, 1})
      .Output<float>("Y", {0, 1, 2, 2}, {})
      .Output<float>("Y_h", {1, 2, 2}, {0, 0, 0, 0})
      .Run();
}

TEST_CASE("GRU and LSTM handle an empty batch", "[rnn][GRU]") {
  OpTester("GRU", 14)
      .AttrInt("hidden_size", 1)
      .Input<float>("X", {2, 0, 1}, {})
      .Input<float>("W", {1, 3, 1}, {1, 2, 3})
      .Input<float>("R", {1, 3, 1}, {1, 2, 3})
      .Output<float>("Y", {2, 1, 0, 1}, {})
      .Output<float>("Y_h", {1, 0, 1}, {})
      .Run();
  OpTester("LSTM", 14)
      .AttrInt("hidden_size", 1)
      .Input<float>("X", {2, 0, 1}, {})
      .Input<float>("W", {1, 4, 1}, {1, 2, 3, 4})
      .Input<float>("R", {1, 4, 1}, {1, 2, 3, 4})
      .OmittedOutput()
      .OmittedOutput()
      .Output<float>("Y_c", {1, 0, 1}, {})
      .Run();
}

TEST_CASE("A bidirectional RNN uses one listed activation for both directions", "[rnn][RNN]") {
  // Forward: relu(2 * 1) = 2; reverse: relu(2 * -1) = 0 (tanh would give -0.964).
  OpTester("RNN", 14)
      .AttrString("direction", "bidirectional")
      .AttrInt("hidden_size", 1)
      .Attr(Attribute::Strings("activations", {"Relu"}))
      .Input<float>("X", {1, 1, 1}, {2})
      .Input<float>("W", {2, 1, 1}, {1, -1})
      .Input<float>("R", {2, 1, 1}, {0, 0})
      .OmittedOutput()
      .Output<float>("Y_h", {2, 1, 1}, {2, 0})
      .Run();
}

TEST_CASE("Recurrent ops reject malformed inputs", "[rnn][LSTM]") {
  // W's gate dimension does not match hidden_size.
  OpTester("LSTM", 14)
      .AttrInt("hidden_size", 2)
      .Input<float>("X", {1, 1, 1}, {1})
      .Input<float>("W", {1, 4, 1}, {1, 2, 3, 4})
      .Input<float>("R", {1, 8, 2}, std::vector<float>(16, 0.0f))
      .Output<float>("Y", {1, 1, 1, 2}, {0, 0})
      .RunExpectingError("W must be");
  // A sequence length beyond the sequence.
  OpTester("RNN", 14)
      .AttrInt("hidden_size", 1)
      .Input<float>("X", {2, 1, 1}, {1, 2})
      .Input<float>("W", {1, 1, 1}, {1})
      .Input<float>("R", {1, 1, 1}, {1})
      .OmittedInput()
      .Input<int32_t>("sequence_lens", {1}, {3})
      .Output<float>("Y", {2, 1, 1, 1}, {0, 0})
      .RunExpectingError("outside [0, 2]");
  // X of the wrong rank.
  OpTester("GRU", 14)
      .AttrInt("hidden_size", 1)
      .Input<float>("X", {2, 1}, {1, 2})
      .Input<float>("W", {1, 3, 1}, {1, 2, 3})
      .Input<float>("R", {1, 3, 1}, {1, 2, 3})
      .Output<float>("Y", {2, 1, 1, 1}, {0, 0})
      .RunExpectingError("rank 3");
  // An unknown activation.
  OpTester("RNN", 14)
      .AttrInt("hidden_size", 1)
      .Attr(Attribute::Strings("activations", {"Swish"}))
      .Input<float>("X", {1, 1, 1}, {1})
      .Input<float>("W", {1, 1, 1}, {1})
      .Input<float>("R", {1, 1, 1}, {1})
      .Output<float>("Y", {1, 1, 1, 1}, {0})
      .RunExpectingError("unsupported activation");
  // initial_h of the wrong shape.
  OpTester("GRU", 14)
      .AttrInt("hidden_size", 1)
      .Input<float>("X", {1, 2, 1}, {1, 2})
      .Input<float>("W", {1, 3, 1}, {1, 2, 3})
      .Input<float>("R", {1, 3, 1}, {1, 2, 3})
      .OmittedInput()
      .OmittedInput()
      .Input<float>("initial_h", {1, 1, 1}, {0})
      .Output<float>("Y", {1, 1, 2, 1}, {0, 0})
      .RunExpectingError("input 5 must be");
}

TEST_CASE("LSTM splits a large batch across threads", "[rnn][LSTM]") {
  // Every batch entry holds the same sequence, so each must give the numpy result of one entry.
  const int64_t seq = 3, batch = 64, input = 4, hidden = 8;
  std::vector<float> x(seq * batch * input), w(4 * hidden * input), r(4 * hidden * hidden);
  for (int64_t t = 0; t < seq; ++t) {
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < input; ++i) {
        x[(t * batch + b) * input + i] = 0.1f * static_cast<float>(t + i);
      }
    }
  }
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.01f * static_cast<float>(i % 7) - 0.03f;
  for (size_t i = 0; i < r.size(); ++i) r[i] = 0.02f * static_cast<float>(i % 5) - 0.04f;
  const std::vector<float> entry = {-0.0040636776, 0.0047687699, -0.0061480191,  0.0099450158,
                                    -0.0055692503, 0.0012992342, -0.00035121086, -0.003834142};
  std::vector<float> expected;
  for (int64_t b = 0; b < batch; ++b) expected.insert(expected.end(), entry.begin(), entry.end());
  OpTester("LSTM", 14)
      .AttrInt("hidden_size", hidden)
      .Input<float>("X", {seq, batch, input}, x)
      .ConstantInput<float>("W", {1, 4 * hidden, input}, w)
      .ConstantInput<float>("R", {1, 4 * hidden, hidden}, r)
      .OmittedOutput()
      .Output<float>("Y_h", {1, batch, hidden}, expected)
      .Threads(2)
      .Run();
}

}  // namespace ort::test
