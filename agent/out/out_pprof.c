#include "out_pprof.h"

#include "array_grow.h"
#include "completeness.h"
#include "pb_strings.h"
#include "profile.pb-c.h"
#include "profile_threads.h"
#include "u64map.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Label pb_label;

/* Locations: one per distinct run of (function id, line) (a frame and the frames inlined into it). */
typedef struct {
    pb_location *locations;
    pb_location **location_ptrs;
    pb_line *lines;          /* every location's lines, one block each */
    pb_line **line_ptrs;
    size_t count, line_count, capacity, line_capacity;
    u64map by_hash;          /* hash of the run -> location index + 1 (chained by 'next') */
    size_t *next;
} location_table;

/* By its type (cstack=vm, JFR's "Inlined"), with or without the 'ann' suffix in its name; a Java frame of
 * unknown type named "_[i]" (collapsed input written elsewhere) is one too. */
static bool inlined(const profile *p, uint32_t name) {
    size_t n = strlen(p->names[name]);
    return p->types[name] == FTYPE_INLINED ||
           (frame_type_is_java((frame_type)p->types[name]) && n > 4 && strcmp(p->names[name] + n - 4, "_[i]") == 0);
}

/* Compares on the flat line block: before assembly a location's "line" is an offset into it. */
static bool same_run_flat(const location_table *t, size_t loc, const uint64_t *fns, const int64_t *numbers, size_t n) {
    const pb_location *l = &t->locations[loc];
    if (l->n_line != n) return false;
    const pb_line *lines = &t->lines[(uintptr_t)l->line];
    for (size_t i = 0; i < n; i++)
        if (lines[i].function_id != fns[i] || lines[i].line != numbers[i]) return false;
    return true;
}

/* The id of the location of 'fns' at source lines 'numbers' (0: unknown), innermost first, added on first
 * use; 0 when out of memory. Pointers into the blocks are set by assemble_locations, after the last realloc. */
static uint64_t location_of(location_table *t, const uint64_t *fns, const int64_t *numbers, size_t n) {
    uint64_t hash = u64map_hash_bytes(fns, n * sizeof(uint64_t)) ^ (u64map_hash_bytes(numbers, n * sizeof(int64_t)) * 31), first;
    if (hash == 0) hash = 1;
    if (u64map_get(&t->by_hash, hash, &first)) {
        for (size_t loc = first - 1; loc != SIZE_MAX; loc = t->next[loc])
            if (same_run_flat(t, loc, fns, numbers, n)) return loc + 1;
    }
    size_t cap = t->capacity, cap2 = cap, lcap = t->line_capacity;
    if (array_grow((void **)&t->locations, sizeof(pb_location), t->count + 1, &cap) ||
        array_grow((void **)&t->next, sizeof(size_t), t->count + 1, &cap2) ||
        array_grow((void **)&t->lines, sizeof(pb_line), t->line_count + n, &lcap))
        return 0;
    t->capacity = cap < cap2 ? cap : cap2;
    t->line_capacity = lcap;
    size_t loc = t->count++;
    pb_location *l = &t->locations[loc];
    perftools__profiles__location__init(l);
    l->id = loc + 1;
    l->n_line = n;
    l->line = (pb_line **)(uintptr_t)t->line_count;   /* an offset into 'lines' until assembled */
    for (size_t i = 0; i < n; i++) {
        pb_line *line = &t->lines[t->line_count++];
        perftools__profiles__line__init(line);
        line->function_id = fns[i];
        line->line = numbers[i];
    }
    t->next[loc] = u64map_get(&t->by_hash, hash, &first) ? first - 1 : SIZE_MAX;
    if (u64map_put(&t->by_hash, hash, loc + 1)) return 0;
    return loc + 1;
}

/* Turns the offsets left by location_of into pointers (the blocks no longer move). */
static int assemble_locations(location_table *t) {
    t->location_ptrs = malloc((t->count ? t->count : 1) * sizeof(pb_location *));
    t->line_ptrs = malloc((t->line_count ? t->line_count : 1) * sizeof(pb_line *));
    if (!t->location_ptrs || !t->line_ptrs) return -1;
    for (size_t i = 0; i < t->line_count; i++) t->line_ptrs[i] = &t->lines[i];
    for (size_t i = 0; i < t->count; i++) {
        t->location_ptrs[i] = &t->locations[i];
        t->locations[i].line = &t->line_ptrs[(uintptr_t)t->locations[i].line];
    }
    return 0;
}

static void free_locations(location_table *t) {
    free(t->locations);
    free(t->location_ptrs);
    free(t->lines);
    free(t->line_ptrs);
    free(t->next);
    u64map_free(&t->by_hash);
}

static const char *weight_unit(const char *units) {
    if (strcmp(units, "ns") == 0) return "nanoseconds";
    return units[0] ? units : "count";
}

typedef struct {
    const profile *p;
    pb_strings strings;
    location_table locs;
    pb_function *functions;
    pb_function **function_ptrs;
    pb_sample *samples;
    pb_sample **sample_ptrs;
    uint64_t *location_ids;   /* every sample's locations, one block each */
    int64_t *values;          /* two per sample */
    pb_label *labels;         /* one per sample (its thread), used when the profile has thread frames */
    pb_label **label_ptrs;
    size_t sample_count;
} pprof_state;

static void free_state(pprof_state *s) {
    pb_strings_free(&s->strings);
    free_locations(&s->locs);
    free(s->functions);
    free(s->function_ptrs);
    free(s->samples);
    free(s->sample_ptrs);
    free(s->location_ids);
    free(s->values);
    free(s->labels);
    free(s->label_ptrs);
}

static int add_samples(pprof_state *s, int64_t thread_key) {
    const profile *p = s->p;
    size_t total_frames = 0, n = 0;
    for (size_t i = 0; i < p->stack_count; i++) total_frames += p->stacks[i].depth;
    size_t count = p->stack_count ? p->stack_count : 1;
    s->samples = calloc(count, sizeof(pb_sample));
    s->sample_ptrs = calloc(count, sizeof(pb_sample *));
    s->location_ids = malloc((total_frames ? total_frames : 1) * sizeof(uint64_t));
    s->values = malloc(count * 2 * sizeof(int64_t));
    s->labels = calloc(count, sizeof(pb_label));
    s->label_ptrs = calloc(count, sizeof(pb_label *));
    uint64_t *run = malloc((total_frames ? total_frames : 1) * sizeof(uint64_t));
    int64_t *run_lines = malloc((total_frames ? total_frames : 1) * sizeof(int64_t));
    if (!s->samples || !s->sample_ptrs || !s->location_ids || !s->values || !s->labels || !s->label_ptrs || !run ||
        !run_lines) {
        free(run);
        free(run_lines);
        return -1;
    }
    size_t used_ids = 0;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *st = &p->stacks[i];
        if (!st->samples && !st->weight) continue;
        uint32_t first = profile_threads_first_frame(p, st);
        pb_sample *sample = &s->samples[n];
        perftools__profiles__sample__init(sample);
        sample->location_id = &s->location_ids[used_ids];
        /* Leaf first; a run of inlined frames joins the frame it was inlined into (toward the root). */
        for (uint32_t f = st->depth; f-- > first;) {
            size_t len = 0;
            run_lines[len] = st->lines && st->lines[f] > 0 ? st->lines[f] : 0;
            run[len++] = st->frames[f] + 1ULL;
            while (inlined(p, st->frames[f]) && f > first) {
                f--;
                run_lines[len] = st->lines && st->lines[f] > 0 ? st->lines[f] : 0;
                run[len++] = st->frames[f] + 1ULL;
            }
            uint64_t id = location_of(&s->locs, run, run_lines, len);
            if (!id) {
                free(run);
                free(run_lines);
                return -1;
            }
            s->location_ids[used_ids++] = id;
            sample->n_location_id++;
        }
        sample->value = &s->values[2 * n];
        sample->n_value = 2;
        sample->value[0] = (int64_t)st->samples;
        sample->value[1] = (int64_t)st->weight;
        if (first) {
            perftools__profiles__label__init(&s->labels[n]);
            s->labels[n].key = thread_key;
            s->labels[n].str = (int64_t)st->frames[0] + 1;
            s->label_ptrs[n] = &s->labels[n];
            sample->label = &s->label_ptrs[n];
            sample->n_label = 1;
        }
        s->sample_ptrs[n] = sample;
        n++;
    }
    free(run);
    free(run_lines);
    s->sample_count = n;
    return 0;
}

/* One function per name, with its source file and first line where known. */
static int add_functions(pprof_state *s) {
    const profile *p = s->p;
    size_t n = p->name_count ? p->name_count : 1;
    s->functions = calloc(n, sizeof(pb_function));
    s->function_ptrs = calloc(n, sizeof(pb_function *));
    if (!s->functions || !s->function_ptrs) return -1;
    for (uint32_t i = 0; i < p->name_count; i++) {
        perftools__profiles__function__init(&s->functions[i]);
        s->functions[i].id = i + 1ULL;
        s->functions[i].name = s->functions[i].system_name = (int64_t)i + 1;
        profile_source src = profile_source_of(p, i);
        if (src.file[0] && (s->functions[i].filename = pb_strings_add(&s->strings, src.file)) < 0) return -1;
        s->functions[i].start_line = src.start_line > 0 ? src.start_line : 0;
        s->function_ptrs[i] = &s->functions[i];
    }
    return 0;
}

static int gzip_to(FILE *out, const uint8_t *data, size_t size) {
    z_stream z;
    memset(&z, 0, sizeof(z));
    /* windowBits 15 + 16: a gzip wrapper, as pprof files are. */
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    uint8_t buf[65536];
    z.next_in = (uint8_t *)data;
    z.avail_in = (uInt)size;   /* profiles larger than 4 GiB are not written */
    int rc;
    do {
        z.next_out = buf;
        z.avail_out = sizeof(buf);
        rc = deflate(&z, Z_FINISH);
        if (rc == Z_STREAM_ERROR) break;
        fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
    } while (rc != Z_STREAM_END);
    deflateEnd(&z);
    return rc == Z_STREAM_END && !ferror(out) ? 0 : -1;
}

int out_pprof_write(const profile *p, FILE *out) {
    pprof_state s = {.p = p};
    u64map_init(&s.locs.by_hash);
    int rc = -1;
    char completeness[1024], event[sizeof(p->meta.engine) + sizeof(p->meta.event) + sizeof(p->meta.warning) + 64];
    pb_profile pb = PERFTOOLS__PROFILES__PROFILE__INIT;
    pb_value_type types[2] = {PERFTOOLS__PROFILES__VALUE_TYPE__INIT, PERFTOOLS__PROFILES__VALUE_TYPE__INIT};
    pb_value_type period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    pb_value_type *type_ptrs[2] = {&types[0], &types[1]};
    int64_t comments[3];
    uint8_t *packed = NULL;
    /* The string table: "" first, then every frame name (name id i at index i + 1), then the writer's own. */
    if (pb_strings_add(&s.strings, "") < 0) goto done;
    for (uint32_t i = 0; i < p->name_count; i++)
        if (pb_strings_add(&s.strings, p->names[i]) < 0) goto done;
    const char *kind = p->meta.event[0] && strlen(p->meta.event) < 32 ? p->meta.event : "events";
    types[0].type = pb_strings_add(&s.strings, "samples");
    types[0].unit = pb_strings_add(&s.strings, "count");
    types[1].type = pb_strings_add(&s.strings, kind);
    types[1].unit = pb_strings_add(&s.strings, weight_unit(p->meta.units));
    period.type = types[1].type;
    period.unit = types[1].unit;
    int64_t thread_key = pb_strings_add(&s.strings, "thread");
    completeness_summary(p, completeness, sizeof(completeness));
    snprintf(event, sizeof(event), "libprof: engine %s, event %s%s%s", p->meta.engine, p->meta.event,
             p->meta.warning[0] ? "; warning: " : "", p->meta.warning);
    comments[0] = pb_strings_add(&s.strings, event);
    comments[1] = pb_strings_add(&s.strings, completeness);
    if (types[1].unit < 0 || thread_key < 0 || comments[0] < 0 || comments[1] < 0) goto done;
    if (add_functions(&s) || add_samples(&s, thread_key) || assemble_locations(&s.locs)) goto done;
    pb.n_sample_type = 2;
    pb.sample_type = type_ptrs;
    pb.default_sample_type = p->meta.total ? types[1].type : types[0].type;
    pb.n_sample = s.sample_count;
    pb.sample = s.sample_ptrs;
    pb.n_location = s.locs.count;
    pb.location = s.locs.location_ptrs;
    pb.n_function = p->name_count;
    pb.function = s.function_ptrs;
    pb.n_string_table = s.strings.count;
    pb.string_table = s.strings.strings;
    pb.duration_nanos = (int64_t)p->meta.duration_ns;
    pb.period_type = &period;
    pb.period = (int64_t)p->meta.interval_ns;
    pb.n_comment = 2;
    pb.comment = comments;
    size_t size = perftools__profiles__profile__get_packed_size(&pb);
    packed = malloc(size ? size : 1);
    if (!packed) goto done;
    perftools__profiles__profile__pack(&pb, packed);
    rc = gzip_to(out, packed, size);
done:
    free(packed);
    free_state(&s);
    return rc;
}
