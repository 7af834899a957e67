#!/usr/bin/env bash
# The unit, CLI, bad-input, conformance and fuzz-regression tests built with AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer (ORT_SANITIZE=ON, no CUDA) into SANITIZE_BUILD_DIR
# (default build-asan/). Any sanitizer report fails the test it happens in. CI runs this after
# the Release tests (scripts/test.sh).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SANITIZE_BUILD_DIR:-$repo/build-asan}
# -O0 -g1 and no NDEBUG: with both sanitizers GCC compiles the kernels' templates 4x slower at -O1
# than at -O0 (comparison.cc 133 s against 34 s), which CI's two cores cannot afford; line tables
# keep the reports readable and asserts stay on.
# Only what the tests below run (not the stress tool or the kernel benchmark).
BUILD_DIR=$build_dir BUILD_TARGETS="ort_lib_tests ort_cpu_kernel_tests ort ort-conformance \
  ort-fuzz-models" "$repo/scripts/build.sh" Release -DCMAKE_CXX_FLAGS_RELEASE="-O0 -g1" \
  -DORT_SANITIZE=ON -DORT_USE_CUDA=OFF -DORT_BUILD_TESTS=ON
# detect_leaks: LeakSanitizer at exit; abort_on_error off keeps the exit code a plain failure.
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:check_initialization_order=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
# The CLI tests skip what the sanitizers' runtime cannot survive (100000 threads).
export ORT_SANITIZED=1
# The kernels' tests once (at the machine's ISA): the capped-ISA reruns add time, not coverage of
# memory errors the first run would miss.
ctest --test-dir "$build_dir" --output-on-failure --timeout 1800 --parallel "$(nproc)" \
  -R '^(lib_tests|cpu_kernel_tests|cli_tests|bad_input_tests|onnx_conformance|fuzz_regressions|fuzz_mutants)$'
