/*
 * classfile_tool: runs the class file rewriter (classfile.h) over every .class file under a directory and
 * writes the result under another, for the behaviour and real-jar tests and for trying the rewriter by
 * hand:
 *     classfile_tool [--helper pkg/Class.method] [--trace EXIT] [--only PATTERN] IN_DIR OUT_DIR
 * With --trace the classes are rewritten for timing (classfile_trace): the helper method (I)V at entry, the
 * method EXIT (I)V of the same class on every way out, each method its own id (counted from 0;
 * CLASSFILE_TOOL_IDS=1 in the environment prints them, "TRACE-ID n class.method(descriptor)"). PATTERN is an fnmatch(3) glob over "internal/class/Name.method" ('*' also crosses '/'); default all
 * methods. Rewritten classes are written rewritten, the others copied as they are, so OUT_DIR is a complete
 * class path. Each rewritten class is parsed again (selecting nothing) as a self-check. Prints one line per
 * refused class with the reason, then the counts; exits 1 on bad usage or I/O errors, 0 otherwise.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "classfile.h"

static const char *in_root, *out_root, *only = "*";
static char helper_class[512], helper_method[256];
static const char *trace_exit;   /* --trace: the exit helper's name */
static int next_trace_id;
static long n_classes, n_rewritten, n_unchanged, n_refused, n_methods, n_reparse_failed, n_io_errors;

static bool select_method(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    (void)descriptor, (void)arg;
    size_t n = strlen(class_name) + strlen(method_name) + 2;
    char *full = malloc(n);
    if (!full) return false;
    snprintf(full, n, "%s.%s", class_name, method_name);
    bool match = fnmatch(only, full, 0) == 0;
    free(full);
    return match;
}

static int trace_method(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    if (!select_method(class_name, method_name, descriptor, arg)) return -1;
    if (getenv("CLASSFILE_TOOL_IDS")) printf("TRACE-ID %d %s.%s%s\n", next_trace_id, class_name, method_name, descriptor);
    return next_trace_id++ % (CLASSFILE_TRACE_MAX_ID + 1);
}

static bool select_none(const char *c, const char *m, const char *d, void *arg) {
    (void)c, (void)m, (void)d, (void)arg;
    return false;
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        rewind(f);
        data = size >= 0 ? malloc((size_t)size + 1) : NULL;
        if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
            free(data);
            data = NULL;
        }
        *len = (size_t)size;
    }
    fclose(f);
    return data;
}

/* Creates the parent directories of path. */
static void make_parents(char *path) {
    for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = 0;
        mkdir(path, 0755);
        *p = '/';
    }
}

static int write_file(const char *rel, const uint8_t *data, size_t len) {
    size_t n = strlen(out_root) + strlen(rel) + 2;
    char *path = malloc(n);
    if (!path) return -1;
    snprintf(path, n, "%s/%s", out_root, rel);
    make_parents(path);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(data, 1, len, f) == len ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc) fprintf(stderr, "classfile_tool: cannot write %s: %s\n", path, strerror(errno));
    free(path);
    return rc;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 6 || strcmp(path + n - 6, ".class") != 0) return 0;
    const char *rel = path + strlen(in_root);
    while (*rel == '/') rel++;
    size_t len;
    uint8_t *in = read_file(path, &len);
    if (!in) {
        fprintf(stderr, "classfile_tool: cannot read %s\n", path);
        n_io_errors++;
        return 0;
    }
    n_classes++;
    uint8_t *out = NULL;
    size_t out_len = 0;
    int methods = 0;
    char why[512];
    classfile_result r =
        trace_exit ? classfile_trace(in, len, helper_class, helper_method, trace_exit, trace_method, NULL, &out,
                                     &out_len, &methods, why, sizeof(why))
                   : classfile_instrument(in, len, helper_class, helper_method, select_method, NULL, &out, &out_len,
                                          &methods, why, sizeof(why));
    if (r == CLASSFILE_REWRITTEN) {
        n_rewritten++;
        n_methods += methods;
        uint8_t *again = NULL;
        size_t again_len;
        char why2[512];
        if (classfile_instrument(out, out_len, helper_class, helper_method, select_none, NULL, &again,
                                 &again_len, NULL, why2, sizeof(why2)) != CLASSFILE_UNCHANGED) {
            printf("REPARSE-FAILED %s: %s\n", rel, why2);
            n_reparse_failed++;
        }
        free(again);
    } else if (r == CLASSFILE_UNCHANGED) {
        n_unchanged++;
    } else {
        n_refused++;
        printf("REFUSED %s: %s\n", rel, why);
    }
    if (write_file(rel, out ? out : in, out ? out_len : len)) n_io_errors++;
    free(out);
    free(in);
    return 0;
}

int main(int argc, char **argv) {
    const char *helper = "libprof/Instrument.recordSample";
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "--helper") == 0) helper = argv[i + 1];
        else if (strcmp(argv[i], "--only") == 0) only = argv[i + 1];
        else if (strcmp(argv[i], "--trace") == 0) trace_exit = argv[i + 1];
        else break;
    }
    const char *dot = strrchr(helper, '.');
    if (argc - i != 2 || !dot || dot == helper || !dot[1] || (size_t)(dot - helper) >= sizeof(helper_class) ||
        strlen(dot + 1) >= sizeof(helper_method)) {
        fprintf(stderr, "usage: classfile_tool [--helper pkg/Class.method] [--only GLOB] IN_DIR OUT_DIR\n"
                        "  (--helper got '%s': expected internal class name, a dot, a method name)\n", helper);
        return 1;
    }
    memcpy(helper_class, helper, (size_t)(dot - helper));
    strcpy(helper_method, dot + 1);
    in_root = argv[i];
    out_root = argv[i + 1];
    mkdir(out_root, 0755);
    if (nftw(in_root, visit, 32, FTW_PHYS) != 0) {
        fprintf(stderr, "classfile_tool: cannot walk %s: %s\n", in_root, strerror(errno));
        return 1;
    }
    printf("classes %ld rewritten %ld unchanged %ld refused %ld methods %ld reparse-failed %ld io-errors %ld\n",
           n_classes, n_rewritten, n_unchanged, n_refused, n_methods, n_reparse_failed, n_io_errors);
    return n_io_errors ? 1 : 0;
}
