#!/usr/bin/env bash
# Upgrades a PostgreSQL table of notes of mixed versions while the notes keep being edited, kills
# upgrade workers at random moments and restarts them, and checks the table against a ledger.
#
#   bash Examples/NotesService/upgrade-fault-test.sh
#
# Installs PostgreSQL from the system's packages if missing and starts its own cluster on
# 127.0.0.1, as the fleet test does (as the `postgres` user: PostgreSQL refuses to run as
# root), builds the notes package's tests and, in release, notes-upgrade (warnings as errors),
# runs the store's tests against it, then:
#   1. plants notes of versions 1, 2 and 3, damaged notes and notes of a newer build
#      (`notes-upgrade plant`), keeping a copy of each as planted;
#   2. starts a new build of the service and edits half the notes through it, and writers that
#      edit the other half directly in the table, each write recorded in a ledger;
#   3. runs several upgrade workers, each on its own share of the table, and kills one with
#      SIGKILL at random moments, restarting it each time, until the workers finish;
#   4. runs the plain pass: the same workers read and write back every note with plain Codable,
#      through the same store, while the live load goes on;
#   5. stops the load and checks every note against the planted copy and the ledgers.
# The last line is the summary:
#   upgrade: <n> documents, <u> upgraded, <r> unreadable kept, <v> newer kept, <w> live writes,
#   <x> conflicts retried, <k> worker kills survived, <l> lost, <d> changed, <t> documents/s vs
#   <p> plain pass, peak <m> MB
# Everything started here is stopped on exit.
#
# Environment: FAULT_NOTES (100000), FAULT_WORKERS (3), FAULT_KILLS (at least this many, 5),
# FAULT_BATCH (500), FAULT_WRITERS (3 of each kind), FAULT_PG_PORT (25433), FAULT_PORT (the
# service's, 18281), FAULT_SCRATCH (the build folder,
# Examples/NotesService/.build, shared with the fleet test), FAULT_SEED (1), FAULT_CONFIGURATION
# (the build of notes-upgrade: release or debug; release).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="${FAULT_SCRATCH:-$here/.build}"
notes="${FAULT_NOTES:-100000}"
workers="${FAULT_WORKERS:-3}"
minimum_kills="${FAULT_KILLS:-5}"
batch="${FAULT_BATCH:-500}"
writers="${FAULT_WRITERS:-3}"
pg_port="${FAULT_PG_PORT:-25433}"
service_port="${FAULT_PORT:-18281}"
seed="${FAULT_SEED:-1}"
configuration="${FAULT_CONFIGURATION:-release}"
started=$SECONDS
RANDOM=$seed

say() {
    printf '[fault %4ds] %s\n' "$((SECONDS - started))" "$*"
}

now() {
    date +%s.%N
}

# Arithmetic on fractions, with awk rather than bc, which a fresh machine may lack.
calc() {
    awk "BEGIN { printf \"%.6f\", $1 }"
}

work="$(mktemp -d /tmp/notes-fault.XXXXXX)"
declare -A worker_pids=()
writer_pid=""
edits_pid=""
service_pid=""
# shellcheck source=postgres.sh
source "$here/postgres.sh"

cleanup() {
    local status=$?
    for index in "${!worker_pids[@]}"; do
        kill "${worker_pids[$index]}" 2>/dev/null || true
    done
    for pid in "$writer_pid" "$edits_pid" "$service_pid"; do
        if [ -n "$pid" ]; then
            kill "$pid" 2>/dev/null || true
        fi
    done
    wait 2>/dev/null || true
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
export NOTES_DB_PORT="$pg_port"

say "building the notes package's tests, and notes-upgrade ($configuration)"
swift build --package-path "$here" --scratch-path "$scratch" --build-tests -Xswiftc -warnings-as-errors \
    >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
# The timed passes run as a deployment runs them: the upgrade's cost against plain Codable is
# the compiled library's, not a debug build's.
swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --product notes-upgrade \
    -Xswiftc -warnings-as-errors >>"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
bin="$(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --show-bin-path)"
debug_bin="$(swift build --package-path "$here" --scratch-path "$scratch" --show-bin-path)"
say "built"

say "the store's tests against this PostgreSQL"
NOTES_TEST_DB_PORT="$pg_port" swift test --package-path "$here" --scratch-path "$scratch" --skip-build \
    --filter NotesStoreTests 2>&1 | tee "$work/store-tests.log" | grep -E '^(✔|✘) (Test run|Suite)' || true
grep -q '^✔ Test run' "$work/store-tests.log" || { tail -n 40 "$work/store-tests.log"; exit 1; }

psql_notes() {
    "$pg_bin/psql" -X -q -t -A -h 127.0.0.1 -p "$pg_port" -U notes -d postgres "$@"
}

say "planting $notes notes"
"$bin/notes-upgrade" plant --notes "$notes" --seed "$seed"
# Both timed passes start from a vacuumed, analyzed table, so that the plain pass does not pay
# for the dead row versions the upgrade left behind.
psql_notes -c "VACUUM ANALYZE notes"
"$bin/notes-upgrade" census | sed -n '1,8p'

# The live load: a new build of the service, edited through HTTP on half the notes (its reads
# upgrade notes too, as it does in production), and writers editing the other half directly in
# the table, just ahead of the upgrade workers, to make conflicts. One writer per note, each write
# recorded once the write is made.
psql_notes -c "COPY (SELECT id FROM notes_planted WHERE kind = 'readable' ORDER BY id) TO STDOUT" \
    | awk 'NR % 2 == 0' >"$work/service-ids.txt"
NOTES_PORT="$service_port" NOTES_SETTING_INTERVAL_MS=200 "$debug_bin/notes-new" >"$work/service.log" 2>&1 &
service_pid=$!
# It listens once it has prepared its tables and read the fleet setting.
listening=no
for _ in $(seq 1 150); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$service_port") 2>/dev/null; then
        listening=yes
        break
    fi
    kill -0 "$service_pid" 2>/dev/null || { say "the service exited"; exit 1; }
    sleep 0.1
done
[ "$listening" = yes ] || { say "the service did not listen within 15 s"; exit 1; }
say "the service (new build) listens on 127.0.0.1:$service_port"
rm -f "$work/stop"
"$bin/notes-upgrade" live-writes --stop-file "$work/stop" --writers "$writers" --seed "$((seed + 1))" \
    >"$work/live-writes.log" 2>&1 &
writer_pid=$!
"$debug_bin/notes-load" edits --new "http://127.0.0.1:$service_port" --ids "$work/service-ids.txt" \
    --ledger "$work/service-ledger.jsonl" --stop-file "$work/stop" --writers "$writers" --seed "$((seed + 2))" \
    >"$work/service-edits.log" 2>&1 &
edits_pid=$!

declare -A runs=()
start_worker() {
    local index=$1 command=$2
    runs[$index]=$((${runs[$index]:-0} + 1))
    "$bin/notes-upgrade" "$command" --worker "$index/$workers" --batch-size "$batch" --log-lines \
        >"$work/$command-$index-run-${runs[$index]}.out" 2>"$work/$command-$index-run-${runs[$index]}.log" &
    worker_pids[$index]=$!
}

# Waits for every worker; a worker that fails (rather than being killed) fails the test.
wait_for_workers() {
    local index
    for index in "${!worker_pids[@]}"; do
        if ! wait "${worker_pids[$index]}"; then
            say "worker $index failed"
            exit 1
        fi
        unset "worker_pids[$index]"
    done
}

any_worker_running() {
    local index
    for index in "${!worker_pids[@]}"; do
        kill -0 "${worker_pids[$index]}" 2>/dev/null && return 0
    done
    return 1
}

# Sleeps for $1 tenths of a second, or until no worker runs, so that a pass's time ends when
# its workers do rather than when a pause does.
nap() {
    local tenths=$1
    while [ "$tenths" -gt 0 ] && any_worker_running; do
        sleep 0.1
        tenths=$((tenths - 1))
    done
}

say "upgrading with $workers workers while the service and $writers direct writers edit notes; killing workers at random"
upgrade_started=$(now)
for index in $(seq 1 "$workers"); do
    start_worker "$index" upgrade
done
kills=0
while true; do
    # A pause, then a random running worker is killed and started again: 0.1 to 0.5 s until the
    # minimum number of kills is reached, which a release build's run of a few seconds allows,
    # then 1 to 4 s, so that a longer run is hit all along.
    if [ "$kills" -lt "$minimum_kills" ]; then
        nap $((1 + RANDOM % 5))
    else
        nap $((10 + RANDOM % 31))
    fi
    running=()
    progressed=()
    for index in "${!worker_pids[@]}"; do
        if kill -0 "${worker_pids[$index]}" 2>/dev/null; then
            running+=("$index")
            # Killed only once this run has committed a batch, so that every restart resumes
            # from a checkpoint that this run moved.
            if grep -q '^progress ' "$work/upgrade-$index-run-${runs[$index]}.out"; then
                progressed+=("$index")
            fi
        fi
    done
    [ "${#running[@]}" -gt 0 ] || break
    if [ "${#progressed[@]}" -eq 0 ]; then
        continue
    fi
    victim="${progressed[$((RANDOM % ${#progressed[@]}))]}"
    if kill -KILL "${worker_pids[$victim]}" 2>/dev/null; then
        wait "${worker_pids[$victim]}" 2>/dev/null || true
        kills=$((kills + 1))
        say "killed worker $victim (SIGKILL #$kills), starting it again"
        start_worker "$victim" upgrade
    fi
done
wait_for_workers
upgrade_seconds=$(calc "$(now) - $upgrade_started")
if [ "$kills" -lt "$minimum_kills" ]; then
    say "the workers finished after $kills kills, fewer than $minimum_kills: lower FAULT_BATCH or raise FAULT_NOTES"
    exit 1
fi

psql_notes -c "VACUUM ANALYZE notes"
say "plain pass with $workers workers while the edits go on"
plain_started=$(now)
for index in $(seq 1 "$workers"); do
    start_worker "$index" plain-pass
done
wait_for_workers
plain_seconds=$(calc "$(now) - $plain_started")

touch "$work/stop"
wait "$writer_pid"
writer_pid=""
cat "$work/live-writes.log"
edits_status=0
wait "$edits_pid" || edits_status=$?
edits_pid=""
cat "$work/service-edits.log"
kill -TERM "$service_pid"
wait "$service_pid" 2>/dev/null || true
service_pid=""
if [ "$edits_status" != 0 ]; then
    say "the service's edits failed"
    exit 1
fi

# The planted notes of version 0 (retired) and the damaged ones stored as version 2 are still
# below version 3: the census must refuse to retire versions 1 and 2, with exit status 3.
census_status=0
"$bin/notes-upgrade" census --retire-below 3 >"$work/census.out" 2>&1 || census_status=$?
sed -n '1,8p;/^may retire/p' "$work/census.out"
if [ "$census_status" != 3 ]; then
    say "census --retire-below 3 exited with $census_status, not 3, with retired and damaged notes planted"
    exit 1
fi

say "checking every note against what was planted and written"
status=0
"$bin/notes-upgrade" check --ledger "$work/service-ledger.jsonl" >"$work/check.out" 2>"$work/check.log" || status=1
cat "$work/check.log" >&2
check="$(grep '^check ' "$work/check.out")"
field() {
    echo "$check" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

# Each run of a worker reports its own counts: the last line of each run is what it did before
# it finished or was killed.
conflicts=0
peak=0
for output in "$work"/upgrade-*-run-*.out; do
    last="$(grep -E '^(progress|finished) ' "$output" | tail -n 1 || true)"
    [ -n "$last" ] || continue
    conflicts=$((conflicts + $(echo "$last" | sed -n 's/.* conflicts=\([0-9]*\).*/\1/p')))
    run_peak="$(echo "$last" | sed -n 's/.* peak_mb=\([0-9.]*\).*/\1/p')"
    peak="$(calc "($run_peak > $peak) ? $run_peak : $peak")"
done
upgrade_rate=$(printf '%.0f' "$(calc "$notes / $upgrade_seconds")")
plain_rate=$(printf '%.0f' "$(calc "$notes / $plain_seconds")")
say "upgrade took $(printf '%.1f' "$upgrade_seconds") s, the plain pass $(printf '%.1f' "$plain_seconds") s; ratio $(printf '%.2f' "$(calc "$plain_seconds / $upgrade_seconds")")"

for output in "$work"/upgrade-*-run-*.out; do
    grep -q '^finished ' "$output" || continue
    echo "$(basename "$output" .out): $(grep '^finished ' "$output")"
done
lost="$(field lost)"
changed="$(field changed)"
[ "$lost" = 0 ] && [ "$changed" = 0 ] || status=1
say "$([ "$status" = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
echo "upgrade: $(field notes) documents, $(field upgraded) upgraded, $(field unreadable_kept) unreadable kept, $(field newer_kept) newer kept, $(field live_writes) live writes, $conflicts conflicts retried, $kills worker kills survived, $lost lost, $changed changed, $upgrade_rate documents/s vs $plain_rate plain pass, peak $(printf '%.0f' "$peak") MB"
exit "$status"
