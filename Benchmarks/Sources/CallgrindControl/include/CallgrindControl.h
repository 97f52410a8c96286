// Callgrind's client requests, for the instruction gate: count instructions only around the
// operations measured, and write one profile per measured batch.
//
// The requests are a special instruction sequence that does nothing outside Valgrind, so the
// gate also runs (and measures nothing) without it. Without Valgrind's headers they compile to
// nothing and `callgrind_control_available` says so, so that the gate fails instead of passing
// on empty counts.
#ifndef CALLGRIND_CONTROL_H
#define CALLGRIND_CONTROL_H

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

static inline int callgrind_control_available(void) { return 1; }
static inline int callgrind_control_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
static inline void callgrind_control_start(void) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}
static inline void callgrind_control_stop_and_dump(const char *name) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(name);
}
#else
static inline int callgrind_control_available(void) { return 0; }
static inline int callgrind_control_running_on_valgrind(void) { return 0; }
static inline void callgrind_control_start(void) {}
static inline void callgrind_control_stop_and_dump(const char *name) { (void)name; }
#endif

#endif
