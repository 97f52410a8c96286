#!/usr/bin/env bash
# Upgrades a PostgreSQL table of notes of mixed versions while both builds of the service keep
# editing them, kills upgrade workers at random moments and restarts them, and checks the table
# against a ledger.
#
#   bash Examples/NotesService/upgrade-fault-test.sh
#
# Installs PostgreSQL from the system's packages if missing and starts its own cluster on
# 127.0.0.1, as the fleet test does (as the `postgres` user: PostgreSQL refuses to run as
# root), builds the notes package's tests and, in release, notes-upgrade (warnings as errors),
# runs the store's tests against it, then:
#   1. plants notes of versions 1, 2 and 3, damaged notes and notes of a newer build
#      (`notes-upgrade plant`), keeping a copy of each as planted;
#   2. starts the old build of the service (newest note version 2), then the new one (version 3),
#      which reads the fleet's setting the old one left: every running build reads version 2.
#      Half the notes are edited through the service, the old build taking half of those planted
#      below version 3 (the planted version 3 notes carry version 2 attachments, which it does
#      not read) and the new build the rest; writers edit the other half directly in the table.
#      Each write is recorded in a ledger: an old build's is stored as version 2, a new build's
#      and a direct writer's as version 3. Meanwhile a reader does what a service that repairs
#      on read does (`notes-upgrade read-repair`): it reads random notes and writes those below
#      the target back at it through the store's compare and swap, at a bounded rate;
#   3. runs several upgrade workers to the target, the newest version every running build reads
#      (2), each on its own share of the table, and kills one with SIGKILL at random moments,
#      restarting it each time, until the workers finish. Notes at or above the target are
#      left as they are;
#   4. runs the plain pass: the same workers read and write back every note with plain Codable,
#      through the same store, while the live load goes on;
#   5. stops the load and checks every note against the planted copy and the ledgers: each
#      readable note has the value its migration gives, or the value last written, stored as
#      the version its last writer writes, the target when nobody wrote it, or as planted when
#      planted at or above the target; unreadable and newer notes are byte for byte as planted.
# The last line is the summary:
#   upgrade: <n> documents, <u> upgraded, <r> unreadable kept, <v> newer kept, <w> live writes,
#   <x> conflicts retried, <k> worker kills survived, <q> repaired on read, <l> lost, <d> changed,
#   <t> documents/s vs <p> plain pass, peak <m> MB
# Everything started here is stopped on exit.
#
# Environment: FAULT_NOTES (100000), FAULT_WORKERS (3), FAULT_KILLS (at least this many, 5),
# FAULT_BATCH (500), FAULT_WRITERS (3 direct, and 3 through each build), FAULT_TARGET (2; at 3,
# past what the old build reads, only the new build runs, as after the deploy), FAULT_PG_PORT
# (25433), FAULT_PORT (the new build's, 18281; the old build's is the next), FAULT_SCRATCH (the
# build folder,
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
old_service_port=$((service_port + 1))
target="${FAULT_TARGET:-2}"
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
repair_pid=""
service_pid=""
old_service_pid=""
# shellcheck source=postgres.sh
source "$here/postgres.sh"

cleanup() {
    local status=$?
    for index in "${!worker_pids[@]}"; do
        kill "${worker_pids[$index]}" 2>/dev/null || true
    done
    for pid in "$writer_pid" "$edits_pid" "$repair_pid" "$service_pid" "$old_service_pid"; do
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
# The built test bundle runs directly rather than through `swift test`, which passes its lines
# on only once the run ends and starts it in a process group of its own: here its lines arrive
# as they are written, and `timeout` stops the run itself. The tests take seconds; a run that
# has not ended in ten minutes is stopped and reported with the tests that started and never
# ended, rather than left to hold up everything after it.
store_status=0
NO_COLOR=1 NOTES_TEST_DB_PORT="$pg_port" timeout -k 30 600 "$debug_bin/NotesServicePackageTests.xctest" \
    --testing-library swift-testing --filter NotesStoreTests >"$work/store-tests.log" 2>&1 || store_status=$?
grep -E '^(✔|✘) (Test run|Suite)' "$work/store-tests.log" || true
if [ "$store_status" -ne 0 ] || ! grep -q '^✔ Test run' "$work/store-tests.log"; then
    tail -n 40 "$work/store-tests.log"
    if [ "$store_status" -eq 124 ] || [ "$store_status" -eq 137 ]; then
        say "the store's tests were stopped after ten minutes; tests that started and did not end:"
        ended="$(grep -E '^(✔|✘) Test .* (passed|failed) after ' "$work/store-tests.log" || true)"
        sed -n 's/^◇ Test \(.*\) started\.$/\1/p' "$work/store-tests.log" | grep -vx 'run' | sort \
            | while IFS= read -r name; do
                grep -qF "Test $name " <<<"$ended" || echo "  $name"
            done
    fi
    exit 1
fi

psql_notes() {
    "$pg_bin/psql" -X -q -t -A -h 127.0.0.1 -p "$pg_port" -U notes -d postgres "$@"
}

say "planting $notes notes"
"$bin/notes-upgrade" plant --notes "$notes" --seed "$seed"
# Both timed passes start from a vacuumed, analyzed table, so that the plain pass does not pay
# for the dead row versions the upgrade left behind.
psql_notes -c "VACUUM ANALYZE notes"
"$bin/notes-upgrade" census | sed -n '1,8p'

# The newest note version of the old build: it runs while the target is one it reads.
old_build_version=2
with_old_build=no
[ "$target" -le "$old_build_version" ] && with_old_build=yes

# Starts a build of the service on a port, its pid in the variable named by $3, and waits until
# it listens.
start_service() {
    local build=$1 port=$2 pid listening=no
    NOTES_PORT="$port" NOTES_SETTING_INTERVAL_MS=200 "$debug_bin/notes-$build" >"$work/service-$build.log" 2>&1 &
    pid=$!
    printf -v "$3" '%s' "$pid"
    # It listens once it has prepared its tables and read the fleet setting.
    for _ in $(seq 1 150); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            listening=yes
            break
        fi
        kill -0 "$pid" 2>/dev/null || { say "the $build build of the service exited"; exit 1; }
        sleep 0.1
    done
    [ "$listening" = yes ] || { say "the $build build of the service did not listen within 15 s"; exit 1; }
}

# The service's health line: its build, its newest version, the fleet setting it read and the
# versions it stores.
health() {
    local answer
    exec 4<>"/dev/tcp/127.0.0.1/$1"
    printf 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&4
    answer="$(cat <&4)"
    exec 4<&-
    echo "$answer" | grep '^build='
}

# The live load: both builds of the service, each editing its own notes through HTTP (their reads
# upgrade notes too, as they do in production), on half the notes, and writers editing the other
# half directly in the table, just ahead of the upgrade workers, to make conflicts. One writer per
# note, each write recorded once the write is made. The old build edits half the service's notes
# planted below version 3 and the new build the rest: the planted version 3 notes carry version 2
# attachments, which only the new build reads.
psql_notes -c "COPY (SELECT id, version FROM notes_planted WHERE kind = 'readable' ORDER BY id) TO STDOUT" \
    | awk 'NR % 2 == 0' >"$work/service-notes.txt"
: >"$work/old-ids.txt"
if [ "$with_old_build" = yes ]; then
    awk -F '\t' -v old="$work/old-ids.txt" -v new="$work/new-ids.txt" \
        '$2 < 3 && ++below % 2 == 1 { print $1 > old; next } { print $1 > new }' "$work/service-notes.txt"
    # The old build starts first, as it ran before the deploy: the fleet setting it records,
    # its newest version, holds the new build to what the old one reads.
    start_service old "$old_service_port" old_service_pid
    say "the service's old build listens on 127.0.0.1:$old_service_port: $(health "$old_service_port")"
else
    cut -f 1 "$work/service-notes.txt" >"$work/new-ids.txt"
fi
start_service new "$service_port" service_pid
new_health="$(health "$service_port")"
say "the service's new build listens on 127.0.0.1:$service_port: $new_health"
if [ "$with_old_build" = yes ] && ! echo "$new_health" | grep -q " readable=$old_build_version "; then
    say "the new build does not hold to the old build's version $old_build_version while both run"
    exit 1
fi
rm -f "$work/stop"
"$bin/notes-upgrade" live-writes --stop-file "$work/stop" --writers "$writers" --seed "$((seed + 1))" \
    >"$work/live-writes.log" 2>&1 &
writer_pid=$!
# A service that reads with repair on: notes below the target that it reads are written back at
# the target, through the same compare and swap, while the workers upgrade.
"$bin/notes-upgrade" read-repair --stop-file "$work/stop" --to "$target" --seed "$((seed + 3))" \
    >"$work/read-repair.log" 2>&1 &
repair_pid=$!
service_builds=(--new "http://127.0.0.1:$service_port" --new-ids "$work/new-ids.txt")
if [ "$with_old_build" = yes ]; then
    service_builds+=(--old "http://127.0.0.1:$old_service_port" --old-ids "$work/old-ids.txt")
fi
"$debug_bin/notes-load" edits "${service_builds[@]}" \
    --ledger "$work/service-ledger.jsonl" --stop-file "$work/stop" --writers "$writers" --seed "$((seed + 2))" \
    >"$work/service-edits.log" 2>&1 &
edits_pid=$!

declare -A runs=()
start_worker() {
    local index=$1 command=$2
    runs[$index]=$((${runs[$index]:-0} + 1))
    local options=()
    [ "$command" = upgrade ] && options=(--to "$target")
    "$bin/notes-upgrade" "$command" "${options[@]}" --worker "$index/$workers" --batch-size "$batch" --log-lines \
        >"$work/$command-$index-run-${runs[$index]}.out" 2>"$work/$command-$index-run-${runs[$index]}.log" &
    worker_pids[$index]=$!
}

# Waits for every worker; a worker that fails (rather than being killed) fails the test. An
# upgrade worker that finishes with notes left behind (the unreadable ones planted) exits with
# status 4, as notes-upgrade documents; at least one share holds such notes, so at least one
# upgrade worker must say so.
wait_for_workers() {
    local index status left_behind=0
    for index in "${!worker_pids[@]}"; do
        status=0
        wait "${worker_pids[$index]}" || status=$?
        if [ "$status" = 4 ] && [ "$1" = upgrade ]; then
            left_behind=$((left_behind + 1))
        elif [ "$status" != 0 ]; then
            say "worker $index failed with status $status"
            exit 1
        fi
        unset "worker_pids[$index]"
    done
    if [ "$1" = upgrade ] && [ "$left_behind" = 0 ]; then
        say "no upgrade worker exited with status 4, with unreadable notes planted in the table"
        exit 1
    fi
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

say "upgrading to version $target with $workers workers while the service ($([ "$with_old_build" = yes ] && echo "old and new builds" || echo "new build")) and $writers direct writers edit notes; killing workers at random"
upgrade_started=$(now)
for index in $(seq 1 "$workers"); do
    start_worker "$index" upgrade
done
kills=0
kill_spacing=$(((notes + 99999) / 100000))
while true; do
    # A pause, then a random running worker is killed and started again: 0.1 to 0.5 s until the
    # minimum number of kills is reached, which a release build's run of a few seconds allows,
    # then 1 to 4 s for every 100,000 notes, so that a longer run is hit all along, about as many
    # times as a run of 100,000. A restart counts the notes left in its share, a scan of the
    # table: at a fixed rate, a larger table would be killed more often and pay more each time.
    if [ "$kills" -lt "$minimum_kills" ]; then
        nap $((1 + RANDOM % 5))
    else
        nap $(((10 + RANDOM % 31) * kill_spacing))
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
wait_for_workers upgrade
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
wait_for_workers plain-pass
plain_seconds=$(calc "$(now) - $plain_started")

touch "$work/stop"
wait "$writer_pid"
writer_pid=""
cat "$work/live-writes.log"
repair_status=0
wait "$repair_pid" || repair_status=$?
repair_pid=""
cat "$work/read-repair.log"
if [ "$repair_status" != 0 ]; then
    say "the service's reads with repair failed"
    exit 1
fi
repaired="$(sed -n 's/^repaired on read: \([0-9]*\)$/\1/p' "$work/read-repair.log")"
edits_status=0
wait "$edits_pid" || edits_status=$?
edits_pid=""
cat "$work/service-edits.log"
for pid in "$service_pid" "$old_service_pid"; do
    [ -n "$pid" ] || continue
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
done
service_pid=""
old_service_pid=""
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
"$bin/notes-upgrade" check --to "$target" --ledger "$work/service-ledger.jsonl" >"$work/check.out" 2>"$work/check.log" || status=1
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
say "$(field kept_at_or_above_target) notes planted at or above version $target left as they were; $(field old_build_writes) of the service's writes through the old build"
# A run in which the old build wrote nothing has not tested a mixed fleet.
if [ "$with_old_build" = yes ] && [ "$(field old_build_writes)" -eq 0 ]; then
    say "the old build took no write"
    status=1
fi
lost="$(field lost)"
changed="$(field changed)"
[ "$lost" = 0 ] && [ "$changed" = 0 ] || status=1
# Reads with repair on that wrote nothing back have not tested upgrade on read.
if [ "${repaired:-0}" -eq 0 ]; then
    say "no note was repaired on read"
    status=1
fi
say "$([ "$status" = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
echo "upgrade: $(field notes) documents, $(field upgraded) upgraded, $(field unreadable_kept) unreadable kept, $(field newer_kept) newer kept, $(field live_writes) live writes, $conflicts conflicts retried, $kills worker kills survived, ${repaired:-0} repaired on read, $lost lost, $changed changed, $upgrade_rate documents/s vs $plain_rate plain pass, peak $(printf '%.0f' "$peak") MB"
exit "$status"
