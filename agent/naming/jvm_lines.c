/*
 * The line of a bytecode index by a method's line number table (jvm_method_describe's copy). Apart from
 * jvm.c because it needs no JVM: the JFR writer's benchmark links it with a synthetic method source.
 */
#include "jvm.h"

int jvm_lines_find(const struct jvm_line *lines, int count, int bci) {
    /* The entry that starts last at or before bci; tables are not guaranteed to be sorted. */
    int line = -1, best = -1;
    for (int i = 0; bci >= 0 && i < count; i++) {
        if (lines[i].bci <= bci && lines[i].bci > best) {
            best = lines[i].bci;
            line = lines[i].line;
        }
    }
    return line;
}

int jvm_lines_at(const jvm_method_info *m, int bci) {
    return jvm_lines_find(m->lines, m->line_count, bci);
}
