/* The OpenTelemetry writer on synthetic profiles, read back with protobuf-c's decoder: each engine's sample
 * type and units as async-profiler names them, the tables' zero entries, stacks leaf first without the
 * thread frame, the thread as an attribute, a location per source line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "otlp_profiles.pb-c.h"
#include "out_otlp.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef Opentelemetry__Proto__Profiles__V1development__ProfilesData otlp_data;
typedef Opentelemetry__Proto__Profiles__V1development__Profile otlp_profile;

static otlp_data *written(const profile *p) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(out_otlp_write(p, f), 0);
    fclose(f);
    otlp_data *d = opentelemetry__proto__profiles__v1development__profiles_data__unpack(NULL, len, (uint8_t *)buf);
    free(buf);
    assert_non_null(d);
    return d;
}

static const otlp_profile *profile_of(const otlp_data *d) {
    assert_int_equal(d->n_resource_profiles, 1);
    assert_int_equal(d->resource_profiles[0]->n_scope_profiles, 1);
    assert_int_equal(d->resource_profiles[0]->scope_profiles[0]->n_profiles, 1);
    return d->resource_profiles[0]->scope_profiles[0]->profiles[0];
}

static const char *str(const otlp_data *d, int32_t i) {
    assert_true(i >= 0 && (size_t)i < d->dictionary->n_string_table);
    return d->dictionary->string_table[i];
}

static const char *frame_name(const otlp_data *d, int32_t location) {
    const Opentelemetry__Proto__Profiles__V1development__ProfilesDictionary *t = d->dictionary;
    assert_true(location > 0 && (size_t)location < t->n_location_table);
    assert_int_equal(t->location_table[location]->n_lines, 1);
    int32_t fn = t->location_table[location]->lines[0]->function_index;
    assert_true(fn > 0 && (size_t)fn < t->n_function_table);
    return str(d, t->function_table[fn]->name_strindex);
}

/* main -> work -> leaf on thread "[main tid=1]", 3 samples weighing 30 units. */
static void fill(profile *p, const char *engine, const char *units, bool total) {
    profile_init(p);
    snprintf(p->meta.engine, sizeof(p->meta.engine), "%s", engine);
    snprintf(p->meta.units, sizeof(p->meta.units), "%s", units);
    p->meta.total = total;
    p->meta.interval_ns = 4096;
    p->meta.start_unix_ns = 1700000000000000000ULL;
    p->meta.duration_ns = 5000;
    uint32_t frames[] = {profile_intern(p, "[main tid=1]", FTYPE_THREAD), profile_intern(p, "Main.main", FTYPE_JAVA),
                         profile_intern(p, "Main.work", FTYPE_JAVA), profile_intern(p, "leaf", FTYPE_NATIVE)};
    assert_int_equal(profile_add(p, frames, 4, 3, 30), 0);
    uint32_t other[] = {frames[1], frames[2]};
    assert_int_equal(profile_add(p, other, 2, 1, 10), 0);
}

static void test_engines(void **state) {
    (void)state;
    static const struct {
        const char *engine, *units, *type, *weight_unit;
    } cases[] = {
        {"perf", "ns", "perf_events", "ns"},         {"ctimer", "ns", "ctimer", "ns"},
        {"itimer", "ns", "itimer", "ns"},            {"wall", "ns", "wall", "ns"},
        {"alloc", "bytes", "object_sampler", "bytes"}, {"lock", "ns", "lock_tracer", "ns"},
        {"nativemem", "bytes", "malloc_tracer", "bytes"}, {"nativelock", "ns", "native_lock_tracer", "ns"},
        {"instrument", "calls", "instrument", "calls"}, {"jfr", "ns", "jfr", "nanoseconds"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int total = 0; total < 2; total++) {
            profile p;
            fill(&p, cases[i].engine, cases[i].units, total);
            otlp_data *d = written(&p);
            const otlp_profile *pr = profile_of(d);
            assert_string_equal(str(d, pr->sample_type->type_strindex), cases[i].type);
            assert_string_equal(str(d, pr->sample_type->unit_strindex), total ? cases[i].weight_unit : "count");
            assert_string_equal(str(d, pr->period_type->type_strindex), cases[i].type);
            assert_string_equal(str(d, pr->period_type->unit_strindex), cases[i].weight_unit);
            assert_int_equal(pr->period, 4096);
            int64_t sum = 0;
            for (size_t s = 0; s < pr->n_samples; s++) sum += pr->samples[s]->values[0];
            assert_int_equal(sum, total ? 40 : 4);
            opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(d, NULL);
            profile_free(&p);
        }
    }
}

/* jfrconv names the sample after the recording's events. */
static void test_sample_kind(void **state) {
    (void)state;
    profile p;
    fill(&p, "jfr", "bytes", true);
    snprintf(p.meta.sample_kind, sizeof(p.meta.sample_kind), "allocations");
    otlp_data *d = written(&p);
    const otlp_profile *pr = profile_of(d);
    assert_string_equal(str(d, pr->sample_type->type_strindex), "allocations");
    assert_string_equal(str(d, pr->sample_type->unit_strindex), "bytes");
    opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(d, NULL);
    profile_free(&p);
}

static void test_tables(void **state) {
    (void)state;
    profile p;
    fill(&p, "perf", "ns", false);
    /* The same frames on other source lines: other locations, the same functions. */
    uint32_t frames[] = {profile_intern(&p, "Main.main", FTYPE_JAVA), profile_intern(&p, "Main.work", FTYPE_JAVA)};
    int32_t lines[] = {7, 42};
    assert_true(profile_add_lines(&p, frames, lines, 2, 2, 20) >= 0);
    otlp_data *d = written(&p);
    const Opentelemetry__Proto__Profiles__V1development__ProfilesDictionary *t = d->dictionary;
    const otlp_profile *pr = profile_of(d);
    assert_string_equal(t->string_table[0], "");
    assert_int_equal(t->location_table[0]->n_lines, 0);
    assert_int_equal(t->function_table[0]->name_strindex, 0);
    assert_int_equal(t->stack_table[0]->n_location_indices, 0);
    assert_null(t->attribute_table[0]->value);
    assert_int_equal(t->n_mapping_table, 1);
    assert_int_equal(t->n_link_table, 1);
    assert_int_equal(t->link_table[0]->trace_id.len, 16);
    assert_int_equal(pr->time_unix_nano, 1700000000000000000ULL);
    assert_int_equal(pr->duration_nano, 5000);
    assert_int_equal(pr->n_samples, 3);
    /* The first sample: leaf first, no thread frame, the thread as "thread.name". */
    const Opentelemetry__Proto__Profiles__V1development__Sample *s = pr->samples[0];
    const Opentelemetry__Proto__Profiles__V1development__Stack *st = t->stack_table[s->stack_index];
    assert_int_equal(st->n_location_indices, 3);
    assert_string_equal(frame_name(d, st->location_indices[0]), "leaf");
    assert_string_equal(frame_name(d, st->location_indices[1]), "Main.work");
    assert_string_equal(frame_name(d, st->location_indices[2]), "Main.main");
    assert_int_equal(s->values[0], 3);
    assert_int_equal(s->n_attribute_indices, 1);
    const Opentelemetry__Proto__Profiles__V1development__KeyValueAndUnit *a = t->attribute_table[s->attribute_indices[0]];
    assert_string_equal(str(d, a->key_strindex), "thread.name");
    assert_string_equal(a->value->string_value, "[main tid=1]");
    /* No thread frame, no attribute; Main.work at line 42 is a location of its own, of the same function. */
    assert_int_equal(pr->samples[1]->n_attribute_indices, 0);
    const Opentelemetry__Proto__Profiles__V1development__Stack *st1 = t->stack_table[pr->samples[1]->stack_index];
    const Opentelemetry__Proto__Profiles__V1development__Stack *st2 = t->stack_table[pr->samples[2]->stack_index];
    assert_int_not_equal(st1->location_indices[0], st2->location_indices[0]);
    assert_int_equal(t->location_table[st1->location_indices[0]]->lines[0]->function_index,
                     t->location_table[st2->location_indices[0]]->lines[0]->function_index);
    assert_int_equal(t->location_table[st2->location_indices[0]]->lines[0]->line, 42);
    assert_int_equal(t->n_function_table, 4);   /* the zero value and the three frames: a thread is no function */
    opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(d, NULL);
    profile_free(&p);
}

static void test_empty(void **state) {
    (void)state;
    profile p;
    profile_init(&p);
    otlp_data *d = written(&p);
    assert_int_equal(profile_of(d)->n_samples, 0);
    assert_int_equal(d->dictionary->n_stack_table, 1);
    assert_int_equal(d->dictionary->n_location_table, 1);
    opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(d, NULL);
    profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engines),
        cmocka_unit_test(test_sample_kind),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
