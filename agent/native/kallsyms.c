/*
 * kallsyms: parsing "ffffffff81000000 T _stext" lines (an optional "\t[module]" follows the name) into a
 * symtab of absolute addresses.
 */
#define _GNU_SOURCE
#include "kallsyms.h"

#include "symtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static symtab *table;

/* Parses one line [p, end); adds it when it is a text symbol. Sets *any_address when its address is not
 * 0 (with kptr_restrict every address reads 0). */
static void parse_line(symtab_builder *b, const char *p, const char *end, bool *any_address) {
    /* By hand rather than strtoull: the text is not NUL-terminated. */
    uint64_t addr = 0;
    const char *after = p;
    for (int digits = 0; after < end && digits < 16; after++, digits++) {
        int d = *after >= '0' && *after <= '9' ? *after - '0' : *after >= 'a' && *after <= 'f' ? *after - 'a' + 10 : -1;
        if (d < 0) break;
        addr = addr << 4 | (uint64_t)d;
    }
    if (after == p || after >= end || *after != ' ' || end - after < 3) return;
    char type = after[1];
    if (after[2] != ' ') return;
    const char *name = after + 3;
    size_t n = 0;
    while (name + n < end && name[n] != '\t' && name[n] != ' ' && name[n] != '\n') n++;
    if (n == 0 || n > 511) return;
    if (addr == 0) return;
    *any_address = true;
    char buf[512];
    memcpy(buf, name, n);
    buf[n] = 0;
    /* Other symbols (data, absolute) are added without a name, only so that the text symbol before them
     * does not appear to extend over them. */
    bool text = type == 't' || type == 'T';
    symtab_builder_add(b, addr, 0, text ? buf : "", text ? 1 + (type == 'T') : 0);
}

size_t kallsyms_parse(const char *text, size_t len) {
    kallsyms_free();
    symtab_builder *b = symtab_builder_new();
    if (!b) return 0;
    bool any_address = false;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        parse_line(b, p, line_end, &any_address);
        p = line_end + 1;
    }
    symtab *t = symtab_builder_finish(b, KALLSYMS_MAX_SIZE);
    if (!any_address || !t || symtab_count(t) == 0) {
        symtab_free(t);
        return 0;
    }
    table = t;
    return symtab_count(t);
}

size_t kallsyms_load(const char *path) {
    FILE *f = fopen(path ? path : "/proc/kallsyms", "re");
    if (!f) {
        kallsyms_free();
        return 0;
    }
    /* /proc files have no size: read to the end in growing chunks (about 10 MB for a full kernel). */
    size_t len = 0, cap = 1 << 20;
    char *text = malloc(cap);
    while (text) {
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
        if (len == cap) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    size_t count = text ? kallsyms_parse(text, len) : 0;
    free(text);
    return count;
}

bool kallsyms_available(void) { return table != NULL; }

const char *kallsyms_find(uint64_t addr) {
    const char *name = symtab_find(table, addr, NULL);
    return name && *name ? name : NULL;
}

void kallsyms_free(void) {
    symtab_free(table);
    table = NULL;
}
