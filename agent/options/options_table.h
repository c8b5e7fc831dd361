/*
 * options_table: the one table of options. Every option the agent's grammar knows (its name in
 * async-profiler's spelling, its value kind with the kind's limits, the field it sets, for a choice its
 * accepted values), the flags jprof and jfrconv spell it with, their help lines for it, and where jfrconv
 * puts it; the tools' own flags (-d, --state, ...) are rows without an agent name. The agent's values and
 * "accepted:" lists, jprof's flag translation and help, and jfrconv's flags, values and help all read it,
 * so an option of an existing kind is one row. The rows are data (options_table.c); each kind's parser
 * and message is in options_kinds.c. Used by options.c, jprof and jfrconv.
 */
#ifndef LIBPROF_OPTIONS_TABLE_H
#define LIBPROF_OPTIONS_TABLE_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A row's value kind: how its value is spelled, parsed and checked, and the one message that names what
 * is accepted. Each kind has one parser (options_table_apply); a new option of an existing kind is a row. */
typedef enum {
    OPTION_ACTION,     /* start, stop, ...: no value; one per request */
    OPTION_FLAG,       /* no value: sets the row's bool (to !off), selects its format, or is a tool's own switch */
    OPTION_COUNT,      /* a whole number from min to max (an int field); a bare name means 'dflt' when it is set */
    OPTION_DURATION,   /* a whole number with ns, us, ms, s, m or h; a bare number is in 'unit' ns; min..max ns */
    OPTION_SIZE,       /* bytes with an optional k, m or g (binary multiples, either case); min..max */
    OPTION_PERCENT,    /* a decimal number from 0 to 100 (a double field) */
    OPTION_CHOICE,     /* one of the row's choices (an int field) */
    OPTION_CHOICE_SET, /* one or more of the row's choices joined by '+'; their values (bits) OR-ed into an int */
    OPTION_EVENT,      /* cpu, ctimer, itimer, a perf event (perf_events.h) or methods to instrument */
    OPTION_TEXT,       /* any non-empty text that fits the row's char array */
    OPTION_REGEX,      /* a POSIX extended regular expression that fits the row's char array */
    OPTION_PATTERN,    /* a frame pattern, '*' only at its ends; repeatable: appended to the row's list */
    OPTION_FILE,       /* an output file name pattern (%p, %t, %n, %n{MAX}, %{NAME}: filepath.h), checked now */
    OPTION_TIDS,       /* thread ids and ranges, ';' between (120-127;132): pairs into the row's uint32_t
                          [][2] array, their number into count_field; at most max */
    OPTION_TIME,       /* jfrconv: a point in a recording (10s, -5s, epoch ms, 2026-11-22T10:15:00, 10:15:00) */
    OPTION_STATES,     /* thread states: the agent's a mask of thread_state bits (an unsigned field), ';' or ','
                          between; jfrconv's any names of the recording, ',' between (parsed by jfrconv) */
    OPTION_NUMBER,     /* a decimal number (a double field) of at least min, such as 2.5 */
    OPTION_TRACE,      /* a method to trace with its threshold (trace_target.h); repeatable: appended to the
                        * row's list like a pattern */
    OPTION_KIND_COUNT, /* not a kind: how many there are */
} options_kind;

/* What jprof does itself with a row's flag rather than passing it to the agent as name=value. */
typedef enum {
    OPTION_OWN_NONE = 0,        /* passed on */
    OPTION_OWN_DURATION,        /* -d: how long jprof waits between start and stop */
    OPTION_OWN_ATTACH_TIMEOUT,  /* --attach-timeout */
    OPTION_OWN_FILE,            /* -f: made absolute before it becomes file= */
    OPTION_OWN_FORMAT,          /* -o: the format token, added to the actions that write */
    OPTION_OWN_LIBPATH,         /* --libpath: the agent to load; not an option, so it may contain ',' */
    OPTION_OWN_FDTRANSFER,      /* --fdtransfer: jprof starts the helper and passes its socket as fdtransfer= */
} options_own;

/* Where jfrconv puts a row's value: by default the agent's own parser sets the row's field in its output
 * options (jfrconv_args.output), exactly as in the agent; the others are the converter's own settings. */
typedef enum {
    JFRCONV_SETS_OUTPUT = 0,    /* options_table_apply into the output options */
    JFRCONV_SETS_STATES,        /* -s: the thread states kept */
    JFRCONV_SETS_INCLUDE,       /* -I: the agent's pattern or a regular expression */
    JFRCONV_SETS_EXCLUDE,       /* -X: likewise */
    JFRCONV_SETS_FROM,          /* --from */
    JFRCONV_SETS_TO,            /* --to */
    JFRCONV_SETS_CPU_ONLY,      /* --cpu */
    JFRCONV_SETS_WALL_ONLY,     /* --wall */
    JFRCONV_SETS_ALLOC_ONLY,    /* --alloc */
    JFRCONV_SETS_LOCK_ONLY,     /* --lock */
    JFRCONV_SETS_LINES,         /* --lines: Java frames split by source line */
    JFRCONV_SETS_BCI,           /* --bci: Java frames split by bytecode index */
    JFRCONV_SETS_NORM,          /* --norm: generated class names without their numbers */
    JFRCONV_SETS_DIFF,          /* --diff: compare two profiles */
    JFRCONV_SETS_NATIVEMEM,     /* --nativemem: profiler.Malloc events */
    JFRCONV_SETS_NATIVELOCK,    /* --nativelock: profiler.NativeLock events */
    JFRCONV_SETS_TRACE_ONLY,    /* --trace: jdk.MethodTrace events */
    JFRCONV_SETS_LATENCY,       /* --latency: samples inside slow traced calls only */
    JFRCONV_SETS_LATENCY_DIFF,  /* --latency-diff: samples in slow calls against those in fast ones */
    JFRCONV_SETS_TAIL,          /* --tail: with --leak, the young allocations left out */
} options_jfrconv_sets;

/* One accepted value of an OPTION_CHOICE option, the int it stores, and another spelling of it. */
typedef struct {
    const char *name;
    int value;
    const char *alias;       /* async-profiler's other spelling ("vmx"), NULL when none */
} options_choice;

typedef struct {
    const char *name;        /* the agent's spelling; NULL for a flag only a tool has */
    options_kind kind;       /* of the agent option; of the tool's flag when there is none */
    size_t field;            /* offsetof what the row sets in prof_options (its type follows the kind);
                                0 when none */
    int format;              /* a format option: the prof_format it selects, else 0 */
    const char *jprof;       /* jprof's flag (asprof's spelling), NULL when jprof does not offer it */
    const char *jprof_arg;   /* the value's placeholder in jprof's help ("PCT") */
    const char *jprof_help;  /* jprof's help text (continuation lines indented to the text column) */
    const char *probe;       /* the value jprof's help tries on the linked grammar to mark what is pending */
    const char *jfrconv;     /* jfrconv's short flag ("-t"), NULL when none */
    const char *jfrconv_long;/* jfrconv's long flag ("--threads"), NULL when jfrconv does not offer it */
    const char *jfrconv_arg; /* the value's placeholder in jfrconv's help */
    const char *jfrconv_help;/* jfrconv's help text */
    const options_choice *choices; /* OPTION_CHOICE(_SET): its values, ended by a NULL name; the error lists
                                      them */
    options_own own;         /* what jprof does itself with the row's flag */
    /* The value's limits and storage, by kind (see options_kind); 0 when the kind has none. */
    uint64_t min, max;       /* OPTION_COUNT, OPTION_DURATION (ns), OPTION_SIZE (bytes); OPTION_NUMBER: min */
    uint64_t unit;           /* OPTION_DURATION: ns per bare number; the field then holds ns, or whole
                                seconds (an int) when 'seconds' is set */
    bool seconds;            /* OPTION_DURATION: stored as whole seconds in an int */
    int dflt;                /* OPTION_COUNT: the value of the bare name ("traces"); 0: a value is required */
    bool off;                /* OPTION_FLAG: sets its bool to false ("samples" undoes "total") */
    size_t cap;              /* OPTION_TEXT, OPTION_REGEX, OPTION_FILE, OPTION_PATTERN: the char array's size */
    size_t count_field;      /* OPTION_PATTERN: offsetof the int counting the list's entries */
    size_t slash_field;      /* OPTION_COUNT: offsetof an int taking M of a value "N/M" (from min to N), or 0
                                when the row takes a single number */
    size_t unit_field;       /* OPTION_DURATION: offsetof a bool set when the value carried a unit, or 0 */
    size_t clock_field;      /* OPTION_DURATION: offsetof a uint32_t set to a time of day (clock_time.h) given
                                instead of a duration ("23:00", "*:00"), or 0 when the row takes none */
    options_jfrconv_sets jfrconv_sets;  /* where jfrconv puts the row's value */
    /* An event kind recorded beside event= (wall): the row's name is the kind's name; given, bare or with a
     * value, it sets extra_events[kind]. A value is parsed by the row's kind (duration, size) into the row's
     * field (wall: extra_intervals[EVENT_WALL]); bare, the field keeps its options_init value (0 in
     * extra_intervals[]: the engine's default). EVENT_CPU (0): not such a row. */
    event_kind extra_event;
} options_spec;

extern const options_spec options_table[];
extern const size_t options_table_count;

/* The row of an agent option by its name, or NULL. */
const options_spec *options_table_find(const char *name);
/* True when 'name' (n characters) is one of async-profiler's features= values that are not libprof's: *refusal
 * says why libprof refuses it, or is NULL for one libprof does anyway (mixed). */
bool options_ignore_async_profiler_feature(const options_spec *s, const char *name, size_t n, prof_options *o,
                                           const char **refusal);

/* The row of a jprof flag ("-t", "--minwidth"), or NULL. */
const options_spec *options_table_jprof(const char *flag);

/* The row of a jfrconv flag (short or long spelling), or NULL. */
const options_spec *options_table_jfrconv(const char *flag);

/* Whether a row's flag takes a value (from its kind; jprof's and jfrconv's flags of an extra event too). */
bool options_table_takes_value(const options_spec *s);

/* An OPTION_CHOICE(_SET) row's values as its error message lists them: "vm (or vmx), dwarf, fp, no". */
void options_table_choices(const options_spec *s, char *buf, size_t len);

/* The tools whose help the table writes. */
typedef enum { OPTIONS_JPROF, OPTIONS_JFRCONV } options_tool;

/* The tool's option lines, one per row it offers, in table order: its flag spelling, the value's
 * placeholder and the help (a choice's values from the table). 'note' (NULL: none) may add text after a
 * row's help, such as jprof's "not supported by this agent build yet". */
void options_table_print_help(FILE *out, options_tool tool, const char *(*note)(const options_spec *s));

/* A kind's name as the tests and messages call it ("duration"). */
const char *options_table_kind_name(options_kind kind);

/* Parses 'value' (NULL when the option was given bare) by the row's kind into its field of 'o'. 'spelled'
 * is the option as the user wrote it: a name ("interval") gives messages "option 'interval=VALUE': ...",
 * a flag ("--minwidth") gives "--minwidth 'VALUE': ...". -1 with one line in 'err' naming the option,
 * the value and what is accepted. */
int options_table_apply(const options_spec *s, const char *spelled, const char *value, prof_options *o,
                        char *err, size_t errlen);

/* The agent's options as an unknown option's message lists them: "start ... traces[=N] ... minwidth=". */
void options_table_accepted(char *buf, size_t len);

#endif
