#!/usr/bin/env bash
# Builds the fuzz target with libFuzzer and AddressSanitizer, runs it from the seed corpus for
# a bounded time, and prints how many inputs it tried.
#
# Usage: Fuzz/run.sh [seconds] [libFuzzer options...]     (default 60 seconds)
# FUZZ_SCRATCH_PATH names the build folder (default .build), for checkouts that several
# people build in at once.
# Exit status: 0 when nothing crashed, non-zero when the fuzzer found a crash, a sanitizer
# report or a timeout; the input that did it is saved as Fuzz/crash-* (or leak-*, timeout-*).
# Reproduce one with: Fuzz/.build/release/FuzzVersionedDecoding Fuzz/crash-<hash> (.build being
# the scratch path)
set -euo pipefail

seconds="${1:-60}"
shift || true
cd "$(dirname "$0")"
scratch="${FUZZ_SCRATCH_PATH:-.build}"

# `--sanitize=fuzzer` makes SwiftPM link libFuzzer's `main` instead of the target's own. The
# compiler is also given both sanitizers in one flag: as `--sanitize=fuzzer --sanitize=address`
# it receives only the last one, and the code would not be instrumented for coverage.
build_flags=(-c release --scratch-path "$scratch" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
swift build "${build_flags[@]}" --product FuzzVersionedDecoding
binary="$(swift build "${build_flags[@]}" --show-bin-path)/FuzzVersionedDecoding"

# New inputs go to corpus-run/ (ignored by git); Corpus/ is only read.
mkdir -p corpus-run
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

set +e
# Swift's own crash backtracer reads the stack in a way AddressSanitizer reports as an overflow,
# hiding the real crash: leave crash reports to libFuzzer.
# lsan-suppressions.txt says which reports are not leaks.
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/lsan-suppressions.txt" "$binary" corpus-run Corpus \
    -max_total_time="$seconds" \
    -max_len=4096 \
    -timeout=10 \
    -dict=property-list.dict \
    -print_final_stats=1 "$@" 2>&1 | tee "$log" | grep -v -E '^#[0-9]+.*(pulse|NEW|REDUCE)'
status=${PIPESTATUS[0]}
set -e

executions="$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log")"
echo "fuzz: ${executions:-unknown} executions in at most ${seconds} s"
if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED (libFuzzer exit status $status); see the report above" >&2
    exit "$status"
fi
echo "fuzz: no crash"
