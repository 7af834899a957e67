#!/usr/bin/env bash
# ctest zoo_ci_slice: builds the zoo's CI slice (tiny models of every family) into DIR, keeping
# the models made by unchanged zoo scripts, and checks ORT_BINARY on it against torch eager's
# outputs at the four levels and through `ort optimize` -> reload, with known failures listed in
# ci_expected_failures.txt.   tools/zoo/ci_slice.sh ORT_BINARY DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ort=$1
dir=$2
/usr/bin/python3 "$here/build_zoo.py" --slice ci --out "$dir" --jobs 2
/usr/bin/python3 "$here/run_zoo.py" --zoo "$dir" --ort "$ort" --slice ci --reference torch --jobs 2 \
  --expected-failures "$here/ci_expected_failures.txt"
