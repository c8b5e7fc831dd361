/*
 * event_names: the event= values that name an engine or an event kind, listed once: the option parser
 * accepts them, its errors and `jprof list` show them. (Perf events and method targets are the other
 * event= values: perf_events.h, method_target.h.)
 */
#ifndef LIBPROF_EVENT_NAMES_H
#define LIBPROF_EVENT_NAMES_H

#define EVENT_NAMES(X) X("cpu") X("ctimer") X("itimer") X("wall") X("alloc") X("lock") X("nativemem") X("nativelock") X("trace")

#define EVENT_NAMES_AS_ELEMENT(name) name,
#define EVENT_NAMES_AS_TEXT(name) name ", "

/* "cpu, ctimer, ..., nativelock, ": for messages that go on to name the other kinds of value. */
#define EVENT_NAMES_TEXT EVENT_NAMES(EVENT_NAMES_AS_TEXT)

#endif
