/* jfrconv's shaping: --classify's category of known stacks of every kind of thread and leaf,
 * --skip's root-side frames, --grain's multiples with the total kept; each checked on collapsed text. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapsed_read.h"
#include "out_collapsed.h"
#include "profile_classify.h"
#include "profile_reshape.h"

static void load(const char *text, profile *p) {
    profile_init(p);
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    char err[256];
    assert_int_equal(collapsed_read(in, "test", p, err, sizeof(err)), 0);
    fclose(in);
}

static int by_text(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profile's stacks as collapsed lines "a;b count", sorted, one string. */
static char *lines(const profile *p) {
    char **rows = calloc(p->stack_count + 1, sizeof(char *));
    size_t total = 1;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        char buf[1024] = "";
        for (uint32_t f = 0; f < s->depth; f++) {
            if (f) strcat(buf, ";");
            strcat(buf, p->names[s->frames[f]]);
        }
        assert_true(asprintf(&rows[i], "%s %llu\n", buf, (unsigned long long)s->samples) > 0);
        total += strlen(rows[i]);
    }
    qsort(rows, p->stack_count, sizeof(char *), by_text);
    char *out = calloc(1, total);
    for (size_t i = 0; i < p->stack_count; i++) {
        strcat(out, rows[i]);
        free(rows[i]);
    }
    free(rows);
    return out;
}

static char *reshaped(const char *text, profile_reshape_options o) {
    profile in, out;
    load(text, &in);
    assert_int_equal(profile_reshape(&in, &o, &out), 0);
    assert_int_equal(out.total_samples <= in.total_samples + (o.grain > 0 ? (uint64_t)o.grain : 0), 1);
    char *text_out = lines(&out);
    profile_free(&in);
    profile_free(&out);
    return text_out;
}

static void expect_category(const char *stack, const char *category) {
    char line[1024];
    snprintf(line, sizeof(line), "%s 1\n", stack);
    profile p;
    load(line, &p);
    const char *got = profile_classify(&p, p.stacks[0].frames, p.stacks[0].depth);
    if (strcmp(got, category) != 0) fail_msg("%s: %s, expected %s", stack, got, category);
    profile_free(&p);
}

#define JAVA_THREAD "start_thread;thread_native_entry;Thread::call_run;JavaThread::run;JavaCalls::call_helper;call_stub;"

static void test_categories(void **state) {
    (void)state;
    /* The JVM's threads, by their run loops. */
    expect_category("[GC Thread#0 tid=7];start_thread;thread_native_entry;Thread::call_run;WorkerThread::run;"
                    "G1ParScanThreadState::trim_queue", "[gc]");
    expect_category("start_thread;thread_native_entry;Thread::call_run;GangWorker::loop;G1RootProcessor::process", "[gc]");
    expect_category("start_thread;thread_native_entry;Thread::call_run;ConcurrentGCThread::run;G1ConcurrentMark::mark",
                    "[gc]");
    expect_category("start_thread;thread_native_entry;Thread::call_run;VMThread::run;VMThread::inner_execute;"
                    "VM_G1CollectFull::doit;G1CollectedHeap::do_full_collection;memmove_[k]", "[gc]");
    expect_category("start_thread;thread_native_entry;Thread::call_run;VMThread::run;VMThread::wait_for_operation", "[vm]");
    expect_category("start_thread;thread_native_entry;Thread::call_run;JavaThread::thread_main_inner;"
                    "CompileBroker::compiler_thread_loop;C2Compiler::compile_method;PhaseIdealLoop::build", "[jit]");
    /* Class loading and its kin anywhere in a Java thread: the frame nearest the leaf decides. */
    expect_category(JAVA_THREAD "Main.main_[j];java/lang/ClassLoader.loadClass_[j];Gen.findClass_[0];"
                    "java/lang/ClassLoader.defineClass1;JVM_DefineClassWithSource;SystemDictionary::resolve_from_stream;"
                    "ClassFileParser::parse_stream", "[class_load]");
    expect_category("Main.main_[0];jdk/internal/loader/ClassLoaders$AppClassLoader.loadClass_[0];"
                    "java/util/HashMap.get_[0]", "[class_load]");
    expect_category(JAVA_THREAD "Main.main_[0];java/lang/ClassLoader.loadClass_[0];SystemDictionary::resolve_from_stream;"
                    "Verifier::verify;ClassVerifier::verify_method", "[class_verify]");
    expect_category(JAVA_THREAD "Main.main_[0];InterpreterRuntime::_new;InstanceKlass::initialize_impl", "[class_init]");
    expect_category(JAVA_THREAD "Main.main_[0];InterpreterRuntime::resolve_from_cache;LinkResolver::resolve_invoke",
                    "[class_resolve]");
    expect_category("Main.main_[0];java/lang/invoke/LambdaMetafactory.metafactory_[0];java/lang/String.length_[j]",
                    "[lambda_init]");
    /* Otherwise the leaf end: Java code by its execution type, the VM called from Java, native, kernel. */
    expect_category(JAVA_THREAD "Main.main_[0];Main.work_[0]", "[Interpreter]");
    expect_category(JAVA_THREAD "Main.main_[j];Main.work_[i];Main.inner_[i]", "[c2_comp]");
    expect_category("Main.main_[j];Main.work_[1]", "[c1_comp]");
    expect_category("Main.main;Main.work", "[java]");
    expect_category("Main.main:12@3;Main.work:40@7", "[java]");
    expect_category(JAVA_THREAD "Main.main_[j];java/util/zip/Deflater.deflateBytesBytes;deflate;longest_match", "[native]");
    expect_category(JAVA_THREAD "Main.main_[j];Main.copy_[j];jlong_disjoint_arraycopy", "[c2_comp]");
    expect_category(JAVA_THREAD "Main.main_[j];jdk/internal/misc/Unsafe.park;Unsafe_Park;Parker::park", "[vm]");
    expect_category(JAVA_THREAD "Main.main_[j];[unknown_Java]", "[vm]");
    expect_category(JAVA_THREAD "Main.main_[j];Main.write_[j];write;entry_SYSCALL_64_[k];ksys_write_[k]", "[kernel]");
    expect_category("start_thread;worker_loop;compress", "[native]");
    expect_category("[main tid=1];[STATE_RUNNABLE];Main.main_[j]", "[c2_comp]");
    expect_category("libjvm.so`start_thread;libjvm.so`thread_native_entry;libjvm.so`CompileBroker::compiler_thread_loop",
                    "[jit]");
}

static const char STACKS[] = "[main tid=1];Main.main;Main.a;Main.hot 100\n"
                             "[main tid=1];Main.main;Main.b 7\n"
                             "[main tid=1];Main.main;Main.c;Main.x 3\n"
                             "[main tid=1];Main.main 2\n"
                             "[w tid=2];Worker.run;Main.a;Main.hot 3\n";

static void test_skip(void **state) {
    (void)state;
    char *out = reshaped(STACKS, (profile_reshape_options){.skip = 2});
    /* Two frames fewer everywhere, thread frames counted; what had two frames or fewer keeps its samples. */
    assert_string_equal(out, "Main.a;Main.hot 103\n"
                             "Main.b 7\n"
                             "Main.c;Main.x 3\n"
                             PROFILE_RESHAPE_ALL_SKIPPED " 2\n");
    free(out);
    out = reshaped(STACKS, (profile_reshape_options){.skip = 1, .classify = true, .reverse = true});
    assert_string_equal(out, "Main.b;Main.main;[java] 7\n"
                             "Main.hot;Main.a;Main.main;[java] 100\n"
                             "Main.hot;Main.a;Worker.run;[java] 3\n"
                             "Main.main;[java] 2\n"
                             "Main.x;Main.c;Main.main;[java] 3\n");
    free(out);
}

static void test_grain(void **state) {
    (void)state;
    /* Grain 5 over 115 samples, largest stack first: 100 -> 100; 7 -> 5 (0.4 carried); 3 + 0.4 -> 5; the other 3
     * -> 0 (0.6 carried); 2 + 0.6 -> 5. The total stays within one grain; a stack of a grain or more is never lost. */
    char *out = reshaped(STACKS, (profile_reshape_options){.grain = 5});
    assert_string_equal(out, "[main tid=1];Main.main 5\n"
                             "[main tid=1];Main.main;Main.a;Main.hot 100\n"
                             "[main tid=1];Main.main;Main.b 5\n"
                             "[main tid=1];Main.main;Main.c;Main.x 5\n");
    free(out);
    /* A grain of one changes nothing; a grain above the total keeps what the carry reaches. */
    out = reshaped(STACKS, (profile_reshape_options){.grain = 1});
    char *same = reshaped(STACKS, (profile_reshape_options){.skip = 0, .classify = false});
    assert_string_equal(out, same);
    free(out);
    free(same);
    out = reshaped("a;b 1\na;c 1\n", (profile_reshape_options){.grain = 2.5});
    assert_string_equal(out, "");
    free(out);
}

static void test_weights_scale(void **state) {
    (void)state;
    profile in, out;
    profile_init(&in);
    uint32_t a = profile_intern(&in, "a", FTYPE_NATIVE), b = profile_intern(&in, "b", FTYPE_NATIVE);
    assert_int_equal(profile_add(&in, &a, 1, 10, 1000), 0);
    assert_int_equal(profile_add(&in, &b, 1, 4, 400), 0);
    in.meta.total = true;
    assert_int_equal(profile_reshape(&in, &(profile_reshape_options){.grain = 4}, &out), 0);
    /* 10 -> 8 samples (2 carried), 4 + 2 -> 4 samples: weights scaled with their counts, meta kept. */
    assert_int_equal(out.total_samples, 12);
    assert_int_equal(out.total_weight, 800 + 400);
    assert_true(out.meta.total);
    profile_free(&in);
    profile_free(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_skip),
        cmocka_unit_test(test_grain),
        cmocka_unit_test(test_weights_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
