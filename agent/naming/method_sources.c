#define _GNU_SOURCE
#include "method_sources.h"

#include "jvm.h"

#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct method_source {
    char *file;              /* "" when unknown */
    int32_t start_line;
    int line_count;
    struct jvm_line *lines;  /* the method's line number table (jvm_method_describe's) */
};

void method_sources_init(method_sources *s) {
    memset(s, 0, sizeof(*s));
    u64map_init(&s->index);
}

void method_sources_free(method_sources *s) {
    for (uint32_t i = 0; i < s->count; i++) {
        free(s->entries[i].file);
        free(s->entries[i].lines);
    }
    free(s->entries);
    free(s->describe);
    u64map_free(&s->index);
    memset(s, 0, sizeof(*s));
}

/* "pkg/dir/" + SourceFile, from the class signature "Lpkg/dir/Name;". */
static char *source_file(jvmtiEnv *jvmti, jmethodID method) {
    jclass klass = NULL;
    char *sig = NULL, *name = NULL, *out = NULL;
    if ((*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetSourceFileName(jvmti, klass, &name) == JVMTI_ERROR_NONE && name && sig && sig[0] == 'L') {
        const char *slash = strrchr(sig, '/');
        int dir = slash ? (int)(slash - sig) : 0;   /* "Lpkg/dir" without the L: dir - 1 characters + '/' */
        if (asprintf(&out, "%.*s%s%s", dir > 1 ? dir - 1 : 0, sig + 1, dir > 1 ? "/" : "", name) < 0) out = NULL;
    }
    if (name) (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    if (sig) (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    if (klass) {
        JavaVM *vm = jvm_vm();
        JNIEnv *jni = NULL;
        if (vm && (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) == JNI_OK) (*jni)->DeleteLocalRef(jni, klass);
    }
    return out ? out : strdup("");
}

/* The smallest line of the table: the method's first line with code (its declaration has none). */
static int32_t first_line(const struct jvm_line *lines, int count) {
    int32_t line = 0;
    for (int i = 0; i < count; i++)
        if (lines[i].line > 0 && (line == 0 || lines[i].line < line)) line = lines[i].line;
    return line;
}

const method_source *method_sources_get(method_sources *s, uint64_t method, const char **file, int32_t *start_line) {
    uint64_t found;
    if (u64map_get(&s->index, method, &found)) {
        const method_source *m = &s->entries[found - 1];
        *file = m->file;
        *start_line = m->start_line;
        return m;
    }
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 256;
        method_source *grown = realloc(s->entries, cap * sizeof(method_source));
        if (!grown) return NULL;
        s->entries = grown;
        s->capacity = cap;
    }
    method_source *m = &s->entries[s->count];
    memset(m, 0, sizeof(*m));
    jvmtiEnv *jvmti = jvm_jvmti();
    if (jvmti && method) {
        m->file = source_file(jvmti, (jmethodID)(uintptr_t)method);
        /* jvm_method_describe also reads the names; the line table is what is kept. */
        if (!s->describe && !(s->describe = malloc(sizeof(jvm_method_info)))) return NULL;
        jvm_method_info *info = s->describe;
        if (jvm_method_describe((jmethodID)(uintptr_t)method, info) == 0) {
            m->lines = info->lines;
            m->line_count = info->line_count;
            m->start_line = first_line(m->lines, m->line_count);
        }
    }
    if (!m->file) m->file = strdup("");
    if (!m->file || u64map_put(&s->index, method, (uint64_t)s->count + 1)) {
        free(m->file);
        free(m->lines);
        return NULL;
    }
    s->count++;
    *file = m->file;
    *start_line = m->start_line;
    return m;
}

int32_t method_sources_line(const method_source *m, int32_t bci) {
    int line = bci >= 0 ? jvm_lines_find(m->lines, m->line_count, bci) : -1;
    return line > 0 ? line : 0;
}
