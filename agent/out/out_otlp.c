#include "out_otlp.h"

#include "array_grow.h"
#include "otlp_profiles.pb-c.h"
#include "pb_strings.h"
#include "profile_threads.h"
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

typedef Opentelemetry__Proto__Profiles__V1development__ProfilesData otlp_data;
typedef Opentelemetry__Proto__Profiles__V1development__ProfilesDictionary otlp_dictionary;
typedef Opentelemetry__Proto__Profiles__V1development__ResourceProfiles otlp_resource;
typedef Opentelemetry__Proto__Profiles__V1development__ScopeProfiles otlp_scope;
typedef Opentelemetry__Proto__Profiles__V1development__Profile otlp_profile;
typedef Opentelemetry__Proto__Profiles__V1development__ValueType otlp_value_type;
typedef Opentelemetry__Proto__Profiles__V1development__Sample otlp_sample;
typedef Opentelemetry__Proto__Profiles__V1development__Mapping otlp_mapping;
typedef Opentelemetry__Proto__Profiles__V1development__Stack otlp_stack;
typedef Opentelemetry__Proto__Profiles__V1development__Location otlp_location;
typedef Opentelemetry__Proto__Profiles__V1development__Line otlp_line;
typedef Opentelemetry__Proto__Profiles__V1development__Function otlp_function;
typedef Opentelemetry__Proto__Profiles__V1development__Link otlp_link;
typedef Opentelemetry__Proto__Profiles__V1development__KeyValueAndUnit otlp_attribute;
typedef Opentelemetry__Proto__Profiles__V1development__AnyValue otlp_any;

/* The attribute key of a sample's thread (OpenTelemetry's semantic conventions). */
#define OTLP_THREAD_NAME "thread.name"

/* async-profiler's engine names, which its sample types are; an engine of ours not in it keeps its own. */
static const struct {
    const char *engine, *type;
} sample_types[] = {
    {"itimer", "itimer"},      {"ctimer", "ctimer"},          {"perf", "perf_events"},
    {"wall", "wall"},          {"alloc", "object_sampler"},   {"lock", "lock_tracer"},
    {"nativemem", "malloc_tracer"}, {"nativelock", "native_lock_tracer"}, {"instrument", "instrument"},
};

const char *out_otlp_sample_type(const profile *p) {
    if (p->meta.sample_kind[0]) return p->meta.sample_kind;
    for (size_t i = 0; i < sizeof(sample_types) / sizeof(sample_types[0]); i++)
        if (strcmp(p->meta.engine, sample_types[i].engine) == 0) return sample_types[i].type;
    return p->meta.engine[0] ? p->meta.engine : "samples";
}

/* The weight's unit as async-profiler spells it: the agent's "ns", its converter's "nanoseconds". */
static const char *weight_unit(const profile *p) {
    const char *u = p->meta.units;
    if (!u[0] || strcmp(u, "samples") == 0) return "count";
    if (strcmp(p->meta.engine, "jfr") == 0 && strcmp(u, "ns") == 0) return "nanoseconds";
    return u;
}

typedef struct {
    const profile *p;
    pb_strings strings;
    u64map file_strings;       /* source file name hash -> string index (files repeat across functions) */
    otlp_function *functions;  /* [0] the zero value, then one per frame name, in order of first use */
    otlp_function **function_ptrs;
    size_t function_count;
    uint32_t *function_of;     /* per name id: its function's index, 0 before its first use */
    otlp_location *locations;  /* [0] the zero value, then one per (function, line) */
    otlp_location **location_ptrs;
    otlp_line *lines;          /* locations[i]'s one line */
    otlp_line **line_ptrs;
    size_t location_count, location_capacity, line_capacity;
    u64map location_of;        /* function index << 32 | line -> location index */
    otlp_attribute *attributes;   /* [0] the zero value, then one per thread */
    otlp_attribute **attribute_ptrs;
    otlp_any *attribute_values;
    size_t attribute_count;
    uint32_t *attribute_of;    /* per thread frame's name id: its attribute's index, 0 before its first use */
    otlp_stack *stacks;        /* [0] the empty stack, then sample i's at i + 1 */
    otlp_stack **stack_ptrs;
    int32_t *location_indices; /* every stack's, one block each */
    otlp_sample *samples;
    otlp_sample **sample_ptrs;
    int64_t *values;           /* one per sample */
    int32_t *thread_attributes;   /* one per sample */
    size_t sample_count;
    int64_t thread_key;
} otlp_state;

static void free_state(otlp_state *s) {
    pb_strings_free(&s->strings);
    u64map_free(&s->file_strings);
    u64map_free(&s->location_of);
    void *blocks[] = {s->functions, s->function_ptrs, s->function_of, s->locations, s->location_ptrs, s->lines,
                      s->line_ptrs, s->attributes, s->attribute_ptrs, s->attribute_values, s->attribute_of,
                      s->stacks, s->stack_ptrs, s->location_indices, s->samples, s->sample_ptrs, s->values,
                      s->thread_attributes};
    for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) free(blocks[i]);
}

/* The string index of a source file name, added once. */
static int64_t file_string(otlp_state *s, const char *file) {
    uint64_t hash = u64map_hash_bytes(file, strlen(file)) | 1, index;
    if (u64map_get(&s->file_strings, hash, &index) && strcmp(s->strings.strings[index], file) == 0)
        return (int64_t)index;
    int64_t added = pb_strings_add(&s->strings, file);
    if (added >= 0 && u64map_put(&s->file_strings, hash, (uint64_t)added)) return -1;
    return added;
}

/* The function of name id 'name' (strings: the name at name + 1), added on first use; 0 when out of memory. */
static uint32_t function_of(otlp_state *s, uint32_t name) {
    if (s->function_of[name]) return s->function_of[name];
    uint32_t index = (uint32_t)s->function_count++;
    otlp_function *f = &s->functions[index];
    opentelemetry__proto__profiles__v1development__function__init(f);
    f->name_strindex = (int32_t)name + 1;
    profile_source src = profile_source_of(s->p, name);
    if (src.file[0]) {
        int64_t file = file_string(s, src.file);
        if (file < 0) return 0;
        f->filename_strindex = (int32_t)file;
    }
    f->start_line = src.start_line > 0 ? src.start_line : 0;
    s->function_of[name] = index;
    return index;
}

/* The location of one frame (name id, source line 0 unknown), added on first use; 0 when out of memory.
 * Its line is pointed to by assemble_locations, once the array no longer moves. */
static int32_t location_of(otlp_state *s, uint32_t name, int32_t line) {
    uint32_t function = function_of(s, name);
    if (!function) return 0;
    uint64_t key = (uint64_t)function << 32 | (uint32_t)(line > 0 ? line : 0), index;
    if (u64map_get(&s->location_of, key, &index)) return (int32_t)index;
    size_t cap = s->location_capacity, lcap = s->line_capacity;
    if (array_grow((void **)&s->locations, sizeof(otlp_location), s->location_count + 1, &cap) ||
        array_grow((void **)&s->lines, sizeof(otlp_line), s->location_count + 1, &lcap))
        return 0;
    s->location_capacity = cap;
    s->line_capacity = lcap;
    index = s->location_count++;
    opentelemetry__proto__profiles__v1development__location__init(&s->locations[index]);
    opentelemetry__proto__profiles__v1development__line__init(&s->lines[index]);
    s->lines[index].function_index = (int32_t)function;
    s->lines[index].line = line > 0 ? line : 0;
    if (u64map_put(&s->location_of, key, index)) return 0;
    return (int32_t)index;
}

static int assemble_locations(otlp_state *s) {
    s->location_ptrs = malloc(s->location_count * sizeof(otlp_location *));
    s->line_ptrs = malloc(s->location_count * sizeof(otlp_line *));
    if (!s->location_ptrs || !s->line_ptrs) return -1;
    for (size_t i = 0; i < s->location_count; i++) {
        s->location_ptrs[i] = &s->locations[i];
        s->line_ptrs[i] = &s->lines[i];
        if (i) {   /* the zero value has no line */
            s->locations[i].n_lines = 1;
            s->locations[i].lines = &s->line_ptrs[i];
        }
    }
    return 0;
}

/* The attribute "thread.name" = the thread frame's text, as async-profiler attaches it. */
static int32_t thread_attribute(otlp_state *s, uint32_t name) {
    if (s->attribute_of[name]) return (int32_t)s->attribute_of[name];
    size_t index = s->attribute_count++;
    otlp_attribute *a = &s->attributes[index];
    otlp_any *v = &s->attribute_values[index];
    opentelemetry__proto__profiles__v1development__key_value_and_unit__init(a);
    opentelemetry__proto__profiles__v1development__any_value__init(v);
    a->key_strindex = (int32_t)s->thread_key;
    v->value_case = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__ANY_VALUE__VALUE_STRING_VALUE;
    v->string_value = s->p->names[name];
    a->value = v;
    s->attribute_of[name] = (uint32_t)index;
    return (int32_t)index;
}

/* Every table sized for the profile at once (the locations alone grow: frames share them). */
static int allocate(otlp_state *s) {
    const profile *p = s->p;
    size_t names = p->name_count + 1, stacks = p->stack_count + 1, frames = 1;
    for (size_t i = 0; i < p->stack_count; i++) frames += p->stacks[i].depth;
    s->functions = calloc(names, sizeof(otlp_function));
    s->function_ptrs = calloc(names, sizeof(otlp_function *));
    s->function_of = calloc(names, sizeof(uint32_t));
    s->attributes = calloc(names, sizeof(otlp_attribute));
    s->attribute_ptrs = calloc(names, sizeof(otlp_attribute *));
    s->attribute_values = calloc(names, sizeof(otlp_any));
    s->attribute_of = calloc(names, sizeof(uint32_t));
    s->stacks = calloc(stacks, sizeof(otlp_stack));
    s->stack_ptrs = calloc(stacks, sizeof(otlp_stack *));
    s->location_indices = calloc(frames, sizeof(int32_t));
    s->samples = calloc(stacks, sizeof(otlp_sample));
    s->sample_ptrs = calloc(stacks, sizeof(otlp_sample *));
    s->values = calloc(stacks, sizeof(int64_t));
    s->thread_attributes = calloc(stacks, sizeof(int32_t));
    if (!s->functions || !s->function_ptrs || !s->function_of || !s->attributes || !s->attribute_ptrs ||
        !s->attribute_values || !s->attribute_of || !s->stacks || !s->stack_ptrs || !s->location_indices ||
        !s->samples || !s->sample_ptrs || !s->values || !s->thread_attributes)
        return -1;
    /* Entry 0 of each table: the zero value. */
    opentelemetry__proto__profiles__v1development__function__init(&s->functions[0]);
    opentelemetry__proto__profiles__v1development__key_value_and_unit__init(&s->attributes[0]);
    opentelemetry__proto__profiles__v1development__stack__init(&s->stacks[0]);
    s->function_count = s->attribute_count = 1;
    s->stack_ptrs[0] = &s->stacks[0];
    if (array_grow((void **)&s->locations, sizeof(otlp_location), 1, &s->location_capacity) ||
        array_grow((void **)&s->lines, sizeof(otlp_line), 1, &s->line_capacity))
        return -1;
    opentelemetry__proto__profiles__v1development__location__init(&s->locations[0]);
    opentelemetry__proto__profiles__v1development__line__init(&s->lines[0]);
    s->location_count = 1;
    return 0;
}

/* One sample and one stack per profile stack; locations leaf first, without the thread frame. */
static int add_samples(otlp_state *s) {
    const profile *p = s->p;
    size_t used = 0;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *st = &p->stacks[i];
        if (!st->samples && !st->weight) continue;
        uint32_t first = profile_threads_first_frame(p, st);
        size_t n = s->sample_count++;
        otlp_stack *stack = &s->stacks[n + 1];
        opentelemetry__proto__profiles__v1development__stack__init(stack);
        stack->location_indices = &s->location_indices[used];
        for (uint32_t f = st->depth; f-- > first;) {
            int32_t loc = location_of(s, st->frames[f], st->lines ? st->lines[f] : 0);
            if (!loc) return -1;
            s->location_indices[used++] = loc;
            stack->n_location_indices++;
        }
        s->stack_ptrs[n + 1] = stack;
        otlp_sample *sample = &s->samples[n];
        opentelemetry__proto__profiles__v1development__sample__init(sample);
        sample->stack_index = (int32_t)n + 1;
        s->values[n] = (int64_t)profile_value(p, st);
        sample->values = &s->values[n];
        sample->n_values = 1;
        if (first) {
            s->thread_attributes[n] = thread_attribute(s, st->frames[0]);
            sample->attribute_indices = &s->thread_attributes[n];
            sample->n_attribute_indices = 1;
        }
        s->sample_ptrs[n] = sample;
    }
    return 0;
}

static int pack_to(FILE *out, const otlp_data *data) {
    size_t size = opentelemetry__proto__profiles__v1development__profiles_data__get_packed_size(data);
    uint8_t *packed = malloc(size ? size : 1);
    if (!packed) return -1;
    opentelemetry__proto__profiles__v1development__profiles_data__pack(data, packed);
    size_t written = fwrite(packed, 1, size, out);
    free(packed);
    return written == size && !ferror(out) ? 0 : -1;
}

int out_otlp_write(const profile *p, FILE *out) {
    otlp_state s = {.p = p};
    u64map_init(&s.file_strings);
    u64map_init(&s.location_of);
    int rc = -1;
    /* The string table: "" first, then every frame name (name id i at index i + 1), then the writer's own. */
    if (pb_strings_add(&s.strings, "") < 0) goto done;
    for (uint32_t i = 0; i < p->name_count; i++)
        if (pb_strings_add(&s.strings, p->names[i]) < 0) goto done;
    otlp_value_type sample_type = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__VALUE_TYPE__INIT;
    otlp_value_type period_type = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__VALUE_TYPE__INIT;
    int64_t type = pb_strings_add(&s.strings, out_otlp_sample_type(p));
    int64_t unit = pb_strings_add(&s.strings, weight_unit(p));
    int64_t count = pb_strings_add(&s.strings, "count");
    s.thread_key = pb_strings_add(&s.strings, OTLP_THREAD_NAME);
    if (type < 0 || unit < 0 || count < 0 || s.thread_key < 0) goto done;
    sample_type.type_strindex = period_type.type_strindex = (int32_t)type;
    sample_type.unit_strindex = (int32_t)(p->meta.total ? unit : count);
    period_type.unit_strindex = (int32_t)unit;
    if (allocate(&s) || add_samples(&s) || assemble_locations(&s)) goto done;
    for (size_t i = 0; i < s.function_count; i++) s.function_ptrs[i] = &s.functions[i];
    for (size_t i = 0; i < s.attribute_count; i++) s.attribute_ptrs[i] = &s.attributes[i];

    /* Mapping and link entry 0 are written although nothing refers to them: some readers need them, and
     * want the link's ids zero-filled at their full length rather than empty. */
    otlp_mapping mapping = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__MAPPING__INIT, *mapping_ptr = &mapping;
    otlp_link link = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__LINK__INIT, *link_ptr = &link;
    uint8_t zero_ids[16] = {0};
    link.trace_id = (ProtobufCBinaryData){16, zero_ids};
    link.span_id = (ProtobufCBinaryData){8, zero_ids};
    otlp_dictionary dictionary = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__PROFILES_DICTIONARY__INIT;
    dictionary.n_mapping_table = 1;
    dictionary.mapping_table = &mapping_ptr;
    dictionary.n_link_table = 1;
    dictionary.link_table = &link_ptr;
    dictionary.n_location_table = s.location_count;
    dictionary.location_table = s.location_ptrs;
    dictionary.n_function_table = s.function_count;
    dictionary.function_table = s.function_ptrs;
    dictionary.n_string_table = s.strings.count;
    dictionary.string_table = s.strings.strings;
    dictionary.n_attribute_table = s.attribute_count;
    dictionary.attribute_table = s.attribute_ptrs;
    dictionary.n_stack_table = s.sample_count + 1;
    dictionary.stack_table = s.stack_ptrs;

    otlp_profile profile = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__PROFILE__INIT, *profile_ptr = &profile;
    profile.sample_type = &sample_type;
    profile.period_type = &period_type;
    profile.period = (int64_t)p->meta.interval_ns;
    profile.time_unix_nano = p->meta.start_unix_ns;
    profile.duration_nano = p->meta.duration_ns;
    profile.n_samples = s.sample_count;
    profile.samples = s.sample_ptrs;
    otlp_scope scope = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__SCOPE_PROFILES__INIT, *scope_ptr = &scope;
    scope.n_profiles = 1;
    scope.profiles = &profile_ptr;
    otlp_resource resource = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__RESOURCE_PROFILES__INIT,
                  *resource_ptr = &resource;
    resource.n_scope_profiles = 1;
    resource.scope_profiles = &scope_ptr;
    otlp_data data = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__PROFILES_DATA__INIT;
    data.n_resource_profiles = 1;
    data.resource_profiles = &resource_ptr;
    data.dictionary = &dictionary;
    rc = pack_to(out, &data);
done:
    free_state(&s);
    return rc;
}
