#include "thread_dump.h"

#include <stdlib.h>
#include <string.h>

/* A header line: '"', the name, '"', fields without quotes, among them " nid=N". The real nid is the last
 * one on the line and the name ends at the last quote before it, so a name holding quotes (or " nid=")
 * is still read whole. */
static void parse_line(const char *line, size_t len, void (*found)(int, const char *, void *), void *arg) {
    char text[1024];
    if (len < 2 || line[0] != '"' || len >= sizeof(text)) return;
    memcpy(text, line, len);
    text[len] = 0;
    char *nid = NULL;
    for (char *at = strstr(text, " nid="); at; at = strstr(at + 1, " nid=")) nid = at;
    if (!nid) return;
    char *end = NULL;
    long tid = strtol(nid + 5, &end, 0);
    if (end == nid + 5 || tid <= 0 || tid > 0x7fffffff) return;
    *nid = 0;
    char *close = strrchr(text + 1, '"');
    if (!close) return;
    *close = 0;
    found((int)tid, text + 1, arg);
}

void thread_dump_parse(const char *dump, void (*found)(int tid, const char *name, void *arg), void *arg) {
    for (const char *line = dump; line && *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        parse_line(line, len, found, arg);
        line = eol ? eol + 1 : NULL;
    }
}
