#include "child_index.h"

#include <stdlib.h>
#include <string.h>

void child_tree_init(child_tree *t, size_t payload_size) {
    memset(t, 0, sizeof(*t));
    t->payload_size = payload_size ? payload_size : 1;
    u64map_init(&t->index);
}

void child_tree_free(child_tree *t) {
    free(t->nodes);
    free(t->payload);
    u64map_free(&t->index);
    memset(t, 0, sizeof(*t));
}

static int grow(child_tree *t) {
    uint32_t cap = t->capacity ? t->capacity * 2 : 1024;
    child_node *nodes = realloc(t->nodes, cap * sizeof(child_node));
    if (!nodes) return -1;
    t->nodes = nodes;
    unsigned char *payload = realloc(t->payload, cap * t->payload_size);
    if (!payload) return -1;
    t->payload = payload;
    t->capacity = cap;
    return 0;
}

uint32_t child_tree_child(child_tree *t, uint32_t parent, uint32_t name) {
    bool added;
    uint32_t id = child_index_get(&t->index, parent, name, t->count, &added);
    if (!added) return id;
    /* On failure the index keeps an id never used: the caller abandons the whole tree. */
    if (t->count == t->capacity && grow(t)) return CHILD_INDEX_NONE;
    t->count++;
    t->nodes[id] = (child_node){name, CHILD_INDEX_NONE, CHILD_INDEX_NONE};
    memset(child_tree_payload(t, id), 0, t->payload_size);
    if (parent != CHILD_INDEX_NONE) {
        t->nodes[id].next_sibling = t->nodes[parent].first_child;
        t->nodes[parent].first_child = id;
    }
    return id;
}
