/*
 * The line of a bytecode index by a method's line number table (jvm_method_describe's copy). Apart from
 * jvm.c because it needs no JVM: the JFR writer's benchmark links it with a synthetic method source.
 */
#include "jvm.h"

int jvm_lines_at(const jvm_method_info *m, int bci) {
    /* The entry that starts last at or before bci; tables are not guaranteed to be sorted. */
    int line = -1, best = -1;
    for (int i = 0; bci >= 0 && i < m->line_count; i++) {
        if (m->lines[i].bci <= bci && m->lines[i].bci > best) {
            best = m->lines[i].bci;
            line = m->lines[i].line;
        }
    }
    return line;
}
