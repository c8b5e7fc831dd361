#include "u64map.h"

#include <stdlib.h>

void u64map_init(u64map *m) {
    m->keys = NULL;
    m->values = NULL;
    m->capacity = 0;
    m->count = 0;
}

void u64map_free(u64map *m) {
    free(m->keys);
    free(m->values);
    u64map_init(m);
}

static size_t slot_of(uint64_t key, size_t mask) {
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(key >> 17) & mask;
}

bool u64map_get(const u64map *m, uint64_t key, uint64_t *value) {
    if (!m->capacity) return false;
    size_t mask = m->capacity - 1;
    for (size_t i = slot_of(key, mask);; i = (i + 1) & mask) {
        if (m->keys[i] == key) {
            *value = m->values[i];
            return true;
        }
        if (m->keys[i] == 0) return false;
    }
}

static void insert(uint64_t *keys, uint64_t *values, size_t mask, uint64_t key, uint64_t value) {
    size_t i = slot_of(key, mask);
    while (keys[i] != 0 && keys[i] != key) i = (i + 1) & mask;
    keys[i] = key;
    values[i] = value;
}

static int grow(u64map *m) {
    size_t cap = m->capacity ? m->capacity * 2 : 64;
    uint64_t *keys = calloc(cap, sizeof(uint64_t));
    uint64_t *values = calloc(cap, sizeof(uint64_t));
    if (!keys || !values) {
        free(keys);
        free(values);
        return -1;
    }
    for (size_t i = 0; i < m->capacity; i++) {
        if (m->keys[i]) insert(keys, values, cap - 1, m->keys[i], m->values[i]);
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->capacity = cap;
    return 0;
}

int u64map_put(u64map *m, uint64_t key, uint64_t value) {
    if ((m->count + 1) * 2 > m->capacity && grow(m)) return -1;
    uint64_t old;
    if (!u64map_get(m, key, &old)) m->count++;
    insert(m->keys, m->values, m->capacity - 1, key, value);
    return 0;
}

/* Linear probing without tombstones: the entries after the removed one that could have sat in its slot
 * move back into it, so every lookup still finds its key before the first empty slot. */
bool u64map_remove(u64map *m, uint64_t key, uint64_t *value) {
    if (!m->capacity) return false;
    size_t mask = m->capacity - 1, hole = slot_of(key, mask);
    while (m->keys[hole] != key) {
        if (m->keys[hole] == 0) return false;
        hole = (hole + 1) & mask;
    }
    if (value) *value = m->values[hole];
    for (size_t j = (hole + 1) & mask; m->keys[j] != 0; j = (j + 1) & mask) {
        size_t home = slot_of(m->keys[j], mask);
        /* The entry at j may fill the hole unless its home lies cyclically in (hole, j]. */
        bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (stays) continue;
        m->keys[hole] = m->keys[j];
        m->values[hole] = m->values[j];
        hole = j;
    }
    m->keys[hole] = 0;
    m->values[hole] = 0;
    m->count--;
    return true;
}

uint64_t u64map_hash_bytes(const void *data, size_t len) {
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h ? h : 1;
}
