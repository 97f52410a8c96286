#!/usr/bin/env bash
# Rehearses a rolling deploy of the notes service against a real PostgreSQL, and checks it.
#
#   bash Examples/NotesService/fleet-test.sh
#
# Installs PostgreSQL from the system's packages if missing, starts it on 127.0.0.1 in a
# temporary data directory as the `postgres` user, builds both builds of the service and the
# load generator, then:
#   1. starts two old instances (newest note version 2) and one new (version 3), and drives a
#      concurrent load of version 1, 2 and 3 clients through them. Note version 3 only adds
#      fields, so the new instance stores it from the start, and the old ones read and edit
#      version 3 notes, keeping the fields they do not know; attachment version 2 renames its
#      fields, so the new instance stores attachments as version 1 until the setting allows 2;
#   2. replaces the old instances with new ones one at a time, flips the fleet setting to
#      version 3, and drives the load again, then the same load through the versioned and the
#      plain-Codable handlers.
# The load generator checks every answer against its ledger, including that the fields version
# 3 clients wrote survive edits made through old instances. The last line is the summary:
#   fleet: <n> requests, <f> failed, <l> lost, <u> unreadable, <e> newer notes edited by old
#   builds, <x> unknown fields lost, <v> requests/s versioned vs <p> plain
# Everything started here is stopped on exit.
#
# Environment: FLEET_REQUESTS (per load, 4000), FLEET_COMPARE (per handler, 2000),
# FLEET_NOTES (120), FLEET_CONCURRENCY (12), FLEET_PG_PORT (25432), FLEET_PORT (first
# instance's port, 18181), FLEET_SCRATCH (the build folder, Examples/NotesService/.build),
# FLEET_CONFIGURATION (debug or release; debug).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="${FLEET_SCRATCH:-$here/.build}"
configuration="${FLEET_CONFIGURATION:-debug}"
requests="${FLEET_REQUESTS:-4000}"
compare="${FLEET_COMPARE:-2000}"
notes="${FLEET_NOTES:-120}"
concurrency="${FLEET_CONCURRENCY:-12}"
pg_port="${FLEET_PG_PORT:-25432}"
first_port="${FLEET_PORT:-18181}"
started=$SECONDS

say() {
    printf '[fleet %4ds] %s\n' "$((SECONDS - started))" "$*"
}

work="$(mktemp -d /tmp/notes-fleet.XXXXXX)"
declare -A instance_pids=()
# shellcheck source=postgres.sh
source "$here/postgres.sh"

cleanup() {
    local status=$?
    for name in "${!instance_pids[@]}"; do
        kill "${instance_pids[$name]}" 2>/dev/null || true
    done
    for name in "${!instance_pids[@]}"; do
        wait "${instance_pids[$name]}" 2>/dev/null || true
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
psql_notes() {
    "$pg_bin/psql" -X -q -t -A -h 127.0.0.1 -p "$pg_port" -U notes -d postgres "$@"
}

say "building the old and new builds and the load generator ($configuration)"
swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" -Xswiftc -warnings-as-errors \
    >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
bin="$(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --show-bin-path)"
say "built"

port_of() {
    echo $((first_port + $1 - 1))
}
url_of() {
    echo "http://127.0.0.1:$(port_of "$1")"
}

# Starts instance N of a build and waits until it listens: it listens only after it has
# prepared the tables and read the fleet setting.
start_instance() {
    local number=$1 build=$2
    local name="$build$number"
    NOTES_PORT="$(port_of "$number")" NOTES_DB_PORT="$pg_port" NOTES_SETTING_INTERVAL_MS=200 \
        "$bin/notes-$build" >"$work/instance-$number-$build.log" 2>&1 &
    instance_pids[$number]=$!
    for _ in $(seq 1 150); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$(port_of "$number")") 2>/dev/null; then
            say "instance $number ($build build) listens on $(url_of "$number")"
            return 0
        fi
        if ! kill -0 "${instance_pids[$number]}" 2>/dev/null; then
            say "instance $number ($build build) exited"
            exit 1
        fi
        sleep 0.1
    done
    say "instance $number ($build build) did not start within 15 s"
    exit 1
}

stop_instance() {
    local number=$1
    kill -TERM "${instance_pids[$number]}"
    wait "${instance_pids[$number]}" 2>/dev/null || true
    unset "instance_pids[$number]"
    say "instance $number stopped"
}

load_options=(--ledger "$work/ledger.json" --notes "$notes" --requests "$requests" --compare "$compare"
    --concurrency "$concurrency" --seconds 120)

say "phase 1: two old instances and one new, version 1, 2 and 3 clients"
start_instance 1 old
start_instance 2 old
start_instance 3 new
status=0
"$bin/notes-load" mixed --old "$(url_of 1),$(url_of 2)" --new "$(url_of 3)" "${load_options[@]}" \
    | tee "$work/phase1.txt" || status=1

say "deploy: replace the old instances one at a time, then flip the setting"
stop_instance 1
start_instance 4 new
stop_instance 2
start_instance 5 new
# Each attachment carries its own version inside its note.
attachment_versions="SELECT string_agg(v || '=' || n, ' ' ORDER BY v) FROM (SELECT part ->> 'version' AS v, count(*) AS n
    FROM notes, jsonb_array_elements(body::jsonb -> 'attachments') AS part GROUP BY 1) AS counts"
echo "Stored versions before the flip: $(psql_notes -c "SELECT string_agg(version || '=' || n, ' ' ORDER BY version) FROM (SELECT version, count(*) AS n FROM notes GROUP BY version) AS counts"); attachments $(psql_notes -c "$attachment_versions")"
psql_notes -c "UPDATE fleet_settings SET value = 3 WHERE name = 'readable_version'"
say "fleet setting: every running build knows version 3, so attachments are stored as version 2"

say "phase 2: three new instances"
"$bin/notes-load" upgraded --new "$(url_of 3),$(url_of 4),$(url_of 5)" "${load_options[@]}" \
    | tee "$work/phase2.txt" || status=1

# The store itself, not the service, says whether every note and attachment reached the newest
# version.
behind="$(psql_notes -c "SELECT count(*) FROM notes WHERE version <> 3 OR (body::jsonb ->> 'version')::int <> 3
    OR EXISTS (SELECT 1 FROM jsonb_array_elements(body::jsonb -> 'attachments') AS part
        WHERE (part ->> 'version')::int <> 2)")"
echo "Rows in PostgreSQL not at note version 3 and attachment version 2: $behind"
[ "$behind" = 0 ] || status=1
summary="$(grep '^fleet: ' "$work/phase2.txt" || echo "fleet: the load generator printed no summary")"
if [ "$status" -ne 0 ]; then
    for log in "$work"/instance-*.log; do
        echo "--- $log" >&2
        tail -n 15 "$log" >&2
    done
    say "FAILED"
else
    say "passed"
fi
trap - EXIT
cleanup_quietly() {
    for name in "${!instance_pids[@]}"; do kill "${instance_pids[$name]}" 2>/dev/null || true; done
    for name in "${!instance_pids[@]}"; do wait "${instance_pids[$name]}" 2>/dev/null || true; done
    stop_postgres
    rm -rf "$work"
}
cleanup_quietly
echo "$summary"
exit "$status"
