/*
 * options_table: the one table of options. Every option the agent's grammar knows (its name and value
 * kind in async-profiler's spelling, and for a choice its accepted values), the flags jprof and jfrconv
 * spell it with, and jprof's and jfrconv's help lines for it; the tools' own flags (-d, --state, ...) are
 * rows without an agent name. The agent's "accepted:" lists, its no-value checks, flags and choices,
 * jprof's flag translation and help, and jfrconv's flags and help all read it, so a new option is one
 * row. Pure data; used by options.c, jprof and jfrconv.
 */
#ifndef LIBPROF_OPTIONS_TABLE_H
#define LIBPROF_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    OPTION_ACTION,   /* start, stop, ...: no value; one per request */
    OPTION_FLAG,     /* no value */
    OPTION_VALUE,    /* name=value */
    OPTION_COUNT,    /* name or name=N */
    OPTION_CHOICE,   /* name=one of the row's choices */
} options_kind;

/* What jprof does itself with a row's flag rather than passing it to the agent as name=value. */
typedef enum {
    OPTION_OWN_NONE = 0,        /* passed on */
    OPTION_OWN_DURATION,        /* -d: how long jprof waits between start and stop */
    OPTION_OWN_ATTACH_TIMEOUT,  /* --attach-timeout */
    OPTION_OWN_FILE,            /* -f: made absolute before it becomes file= */
    OPTION_OWN_FORMAT,          /* -o: the format token, added to the actions that write */
    OPTION_OWN_LIBPATH,         /* --libpath: the agent to load; not an option, so it may contain ',' */
} options_own;

/* One accepted value of an OPTION_CHOICE option, the int it stores, and another spelling of it. */
typedef struct {
    const char *name;
    int value;
    const char *alias;       /* async-profiler's other spelling ("vmx"), NULL when none */
} options_choice;

typedef struct {
    const char *name;        /* the agent's spelling; NULL for a flag only a tool has */
    options_kind kind;       /* of the agent option; of the tool's flag when there is none */
    size_t field;            /* offsetof what the row sets in prof_options: an OPTION_FLAG's bool, an
                                OPTION_CHOICE's int; 0 when none */
    int format;              /* a format option: the prof_format it selects, else 0 */
    const char *jprof;       /* jprof's flag (asprof's spelling), NULL when jprof does not offer it */
    const char *jprof_arg;   /* the value's placeholder in jprof's help ("PCT") */
    const char *jprof_help;  /* jprof's help text (continuation lines indented to the text column) */
    const char *probe;       /* the value jprof's help tries on the linked grammar to mark what is pending */
    const char *jfrconv;     /* jfrconv's short flag ("-t"), NULL when none */
    const char *jfrconv_long;/* jfrconv's long flag ("--threads"), NULL when jfrconv does not offer it */
    const char *jfrconv_arg; /* the value's placeholder in jfrconv's help */
    const char *jfrconv_help;/* jfrconv's help text */
    const options_choice *choices; /* OPTION_CHOICE: its values, ended by a NULL name; the error lists them */
    options_own own;         /* what jprof does itself with the row's flag */
} options_spec;

extern const options_spec options_table[];
extern const size_t options_table_count;

/* The row of an agent option by its name, or NULL. */
const options_spec *options_table_find(const char *name);

/* The row of a jprof flag ("-t", "--minwidth"), or NULL. */
const options_spec *options_table_jprof(const char *flag);

/* The row of a jfrconv flag (short or long spelling), or NULL. */
const options_spec *options_table_jfrconv(const char *flag);

/* Whether a row's flag takes a value (from its kind). */
bool options_table_takes_value(const options_spec *s);

/* An OPTION_CHOICE row's values as its error message lists them: "vm (or vmx), dwarf, fp, no". */
void options_table_choices(const options_spec *s, char *buf, size_t len);

/* The agent's options as an unknown option's message lists them: "start ... traces[=N] ... minwidth=". */
void options_table_accepted(char *buf, size_t len);

#endif
