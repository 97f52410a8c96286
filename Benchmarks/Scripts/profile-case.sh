#!/usr/bin/env bash
# Where a row's instructions go: runs the instruction gate's measurement under Callgrind and
# prints the functions of one case and side by inclusive instruction count.
#
#     bash Scripts/profile-case.sh json-decode-200b versioned [BINARY]
#
# Sides are `plain`, `plain+version`, `versioned` and `1.2`. Run from the Benchmarks folder after
# `swift build -c release --product instruction-gate`; BINARY defaults to that build's gate.
set -euo pipefail
case_name=$1
side=$2
binary=${3:-.build/release/instruction-gate}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --collect-atstart=no \
    --callgrind-out-file="$folder/callgrind.out" "$binary" measure --items 1000 >/dev/null 2>&1
profile=$(grep -l "Client Request: $case_name|$side|" "$folder"/callgrind.out*)
callgrind_annotate --inclusive=yes --threshold=99 "$profile" | swift demangle --simplified | head -${PROFILE_LINES:-80}
