/*
 * docs/options.md against the option table: every agent option, jprof flag and jfrconv flag the table has
 * is documented in the page's section for it, and the page documents none the table lacks. The page's
 * three sections ("## Agent options", "## jprof flags", "## jfrconv flags") hold tables whose first cell
 * names the row's option in backquotes (`interval=N`, `-d N`, `-o`, `--output FORMAT`).
 * The page is DOCS_OPTIONS_MD, or the file given as the first argument.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "options_table.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SECTION_NONE = -1, SECTION_AGENT, SECTION_JPROF, SECTION_JFRCONV, SECTION_COUNT };

static const char *const section_titles[SECTION_COUNT] = {"## Agent options", "## jprof flags", "## jfrconv flags"};

#define MAX_NAMES 512
#define NAME_LEN 64

typedef struct {
    char names[MAX_NAMES][NAME_LEN];
    int count;
} name_set;

static const char *doc_path = DOCS_OPTIONS_MD;
static name_set documented[SECTION_COUNT];

static bool set_has(const name_set *set, const char *name) {
    for (int i = 0; i < set->count; i++) {
        if (strcmp(set->names[i], name) == 0) return true;
    }
    return false;
}

static void set_add(name_set *set, const char *name, size_t len) {
    char buf[NAME_LEN];
    if (len == 0 || len >= sizeof buf) return;
    memcpy(buf, name, len);
    buf[len] = '\0';
    if (!set_has(set, buf) && set->count < MAX_NAMES) strcpy(set->names[set->count++], buf);
}

/* The option a backquoted token of a first cell names: an agent option up to its '=', '[' or a space
 * (`traces[=N]`, `file=` patterns), a flag up to its value (`--output FORMAT`). */
static size_t option_name_length(const char *token, size_t len, int section) {
    size_t n = 0;
    if (section != SECTION_AGENT && token[0] != '-') return 0;
    while (n < len && token[n] != ' ' && token[n] != '=' && (section != SECTION_AGENT || token[n] != '[')) n++;
    return n;
}

/* The backquoted tokens of a table row's first cell; not the header row nor the separator. */
static void read_first_cell(const char *line, int section) {
    const char *cell = line + 1;
    const char *end = strchr(cell, '|');
    if (!end || strncmp(cell, " option ", 8) == 0 || strncmp(cell, " flag ", 6) == 0 || strncmp(cell, " ---", 4) == 0)
        return;
    for (const char *p = cell; p < end; p++) {
        if (*p != '`') continue;
        const char *close = memchr(p + 1, '`', (size_t)(end - p - 1));
        if (!close) break;
        set_add(&documented[section], p + 1, option_name_length(p + 1, (size_t)(close - p - 1), section));
        p = close;
    }
}

static int read_doc(void **state) {
    (void)state;
    FILE *f = fopen(doc_path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", doc_path);
        return -1;
    }
    char line[8192];
    int section = SECTION_NONE;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "## ", 3) == 0) {
            section = SECTION_NONE;
            for (int s = 0; s < SECTION_COUNT; s++) {
                size_t n = strlen(section_titles[s]);
                if (strncmp(line, section_titles[s], n) == 0 && isspace((unsigned char)line[n])) section = s;
            }
        } else if (section != SECTION_NONE && line[0] == '|') {
            read_first_cell(line, section);
        }
    }
    fclose(f);
    return 0;
}

/* The names the table gives a section: agent options, jprof's flags, jfrconv's short and long flags. */
static void table_names(int section, name_set *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < options_table_count; i++) {
        const options_spec *s = &options_table[i];
        const char *names[2] = {NULL, NULL};
        if (section == SECTION_AGENT) names[0] = s->name;
        if (section == SECTION_JPROF) names[0] = s->jprof;
        if (section == SECTION_JFRCONV) names[0] = s->jfrconv, names[1] = s->jfrconv_long;
        for (int k = 0; k < 2; k++) {
            if (names[k]) set_add(out, names[k], strlen(names[k]));
        }
    }
}

static void check_section(int section) {
    name_set table;
    table_names(section, &table);
    int missing = 0, extra = 0;
    for (int i = 0; i < table.count; i++) {
        if (!set_has(&documented[section], table.names[i])) {
            fprintf(stderr, "%s: '%s' is in the option table but not documented under \"%s\"\n", doc_path,
                    table.names[i], section_titles[section]);
            missing++;
        }
    }
    for (int i = 0; i < documented[section].count; i++) {
        if (!set_has(&table, documented[section].names[i])) {
            fprintf(stderr, "%s: '%s' is documented under \"%s\" but the option table has no such option\n",
                    doc_path, documented[section].names[i], section_titles[section]);
            extra++;
        }
    }
    assert_true(table.count > 0);
    assert_int_equal(missing, 0);
    assert_int_equal(extra, 0);
}

static void test_agent_options_documented(void **state) {
    (void)state;
    check_section(SECTION_AGENT);
}

static void test_jprof_flags_documented(void **state) {
    (void)state;
    check_section(SECTION_JPROF);
}

static void test_jfrconv_flags_documented(void **state) {
    (void)state;
    check_section(SECTION_JFRCONV);
}

int main(int argc, char **argv) {
    if (argc > 1) doc_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agent_options_documented),
        cmocka_unit_test(test_jprof_flags_documented),
        cmocka_unit_test(test_jfrconv_flags_documented),
    };
    return cmocka_run_group_tests(tests, read_doc, NULL);
}
