#!/usr/bin/env bash
# Clients at three API versions at once against the notes service on a real PostgreSQL, checked
# against a ledger of every revision.
#
#   bash Examples/NotesService/api-versions-test.sh
#
# Installs PostgreSQL from the system's packages if missing and starts it on 127.0.0.1 in a
# temporary data directory (as the fleet test does), builds the service and the load generator,
# starts two instances of the new build, then:
#   1. runs clients at API versions 1, 2 and 3 at once, each creating, reading, editing and
#      listing notes in its own version's shape, every client editing every client's notes.
#      Each edit names the revision it read; an edit that lost the race gets 412 and is read
#      again and retried. Some requests name API versions the service does not serve, or send
#      fields their version does not have: both must be refused with 400;
#   2. runs the same load with every client at the newest version, for the rate to compare with.
# Every answer is compared with the revision it names, for the fields its version shows. The
# last line is the summary:
#   api versions: <n> requests at <k> API versions, <f> failed, <l> fields lost, <c> conflicts
#   retried, <u> unknown versions refused, <r> requests/s vs <p> at the newest version only
# Everything started here is stopped on exit.
#
# Environment: API_REQUESTS (per run, 10000), API_CONCURRENCY (12), API_PG_PORT (25434),
# API_PORT (first instance's port, 18381), API_SCRATCH (the build folder,
# Examples/NotesService/.build), API_CONFIGURATION (debug or release; debug).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="${API_SCRATCH:-$here/.build}"
configuration="${API_CONFIGURATION:-debug}"
requests="${API_REQUESTS:-10000}"
concurrency="${API_CONCURRENCY:-12}"
pg_port="${API_PG_PORT:-25434}"
first_port="${API_PORT:-18381}"
started=$SECONDS

say() {
    printf '[api versions %4ds] %s\n' "$((SECONDS - started))" "$*"
}

work="$(mktemp -d /tmp/notes-api-versions.XXXXXX)"
pids=()
# shellcheck source=postgres.sh
source "$here/postgres.sh"

cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    stop_postgres
    if [ "$status" -ne 0 ]; then
        say "failed; the last lines of each log:" >&2
        for log in "$work"/*.log; do
            [ -e "$log" ] || continue
            echo "--- $log" >&2
            tail -n 15 "$log" >&2
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT

start_postgres

say "building the service and the load generator ($configuration)"
swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" -Xswiftc -warnings-as-errors \
    >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
bin="$(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --show-bin-path)"
say "built"

urls=()
for number in 1 2; do
    port=$((first_port + number - 1))
    NOTES_PORT="$port" NOTES_DB_PORT="$pg_port" "$bin/notes-new" >"$work/instance-$number.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 150); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            break
        fi
        if ! kill -0 "${pids[-1]}" 2>/dev/null; then
            say "instance $number exited"
            exit 1
        fi
        sleep 0.1
    done
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { say "instance $number did not start within 15 s"; exit 1; }
    urls+=("http://127.0.0.1:$port")
    say "instance $number listens on http://127.0.0.1:$port"
done

say "clients at API versions 1, 2 and 3, then at the newest only"
status=0
"$bin/notes-load" api-versions --new "$(IFS=,; echo "${urls[*]}")" --requests "$requests" \
    --concurrency "$concurrency" | tee "$work/load.txt" || status=1
summary="$(grep '^api versions: ' "$work/load.txt" || echo "api versions: the load generator printed no summary")"
if [ "$status" -ne 0 ]; then
    say "FAILED"
    exit 1
fi
say "passed"
trap - EXIT
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
stop_postgres
rm -rf "$work"
echo "$summary"
