# Sourced by the suite scripts that check `ort run` outputs against reference .npy files.
# Expects `rtol` and `atol` set. Provides:
#   make_work_dir         sets `work` to $WORK (kept) or a temporary directory removed on exit
#   max_diff < LOG        the largest "max abs diff" of an `ort run --expected-dir` log
#   compare EXPECTED_DIR LOG COMMAND...
#                         runs COMMAND (an `ort run`) with --expected-dir and the tolerances and
#                         prints one table cell: ok(max diff), MISMATCH(max diff) or ERROR

make_work_dir() {
  if [ -n "${WORK:-}" ]; then
    work=$WORK
    mkdir -p "$work"
  else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
  fi
}

max_diff() {
  grep -oE "max abs diff [^ ]+" | awk '{ if ($4 + 0 > m) m = $4 + 0 } END { printf "%.2g", m }'
}

compare() {
  local expected=$1 log=$2
  shift 2
  if "$@" --expected-dir "$expected" --rtol "$rtol" --atol "$atol" > "$log" 2>&1; then
    echo "ok($(max_diff < "$log"))"
  elif grep -q MISMATCH "$log"; then
    echo "MISMATCH($(max_diff < "$log"))"
  else
    echo "ERROR"
  fi
}
