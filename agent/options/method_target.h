/*
 * method_target: the `event=` value that selects Java methods for instrumentation, in async-profiler's
 * syntax: `pkg.Class.method`, an optional JVM descriptor (`pkg.Class.method(Ljava/lang/String;)V`), `*` at
 * the end of the class or the method name or alone (`pkg.Class.*`, `java.lang.*.<init>`, `*.*`),
 * constructors `<init>` and static initialisers `<clinit>`.
 *
 * Pure functions of their input: shared by the option parser (to refuse a bad target at once), the
 * instrumentation engine (its class file filter) and the unit tests.
 */
#ifndef LIBPROF_METHOD_TARGET_H
#define LIBPROF_METHOD_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#define METHOD_TARGET_MAX 512

typedef struct {
    char class_name[METHOD_TARGET_MAX];   /* internal form ("java/util/HashMap"), without the '*' */
    bool class_prefix;                    /* a trailing '*': every class whose name starts with class_name */
    char method[METHOD_TARGET_MAX];       /* without the '*' */
    bool method_prefix;
    char descriptor[METHOD_TARGET_MAX];   /* "" = any descriptor */
} method_target;

/* True when an event= value names methods rather than an engine or a perf event: it holds a '.' (between
 * class and method) or a '*'. Engine and perf event names hold neither. */
bool method_target_is_target(const char *event);

/* Parses 'text'. Returns 0, or -1 with one line in err naming the value and what is accepted. */
int method_target_parse(const char *text, method_target *t, char *err, size_t errlen);

/* True when some method of the class (internal form) may match: the class part alone. */
bool method_target_matches_class(const method_target *t, const char *class_name);

/* True when the method (class in internal form, name, JVM descriptor) is selected. */
bool method_target_matches(const method_target *t, const char *class_name, const char *method,
                           const char *descriptor);

#endif
