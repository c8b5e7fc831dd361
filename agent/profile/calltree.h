/*
 * calltree: a profile's stacks merged into one tree (a trie over frame names, root first), each node
 * holding the total value of the stacks that pass through it. Built at dump time for the writers that show
 * a tree (out_html); allocates, so never from a signal handler.
 */
#ifndef LIBPROF_CALLTREE_H
#define LIBPROF_CALLTREE_H

#include "profile.h"

#include <stddef.h>
#include <stdint.h>

#define CALLTREE_NONE UINT32_MAX

typedef struct {
    uint32_t name;          /* profile name id; unused for the root */
    uint32_t first_child;   /* CALLTREE_NONE when a leaf */
    uint32_t next_sibling;  /* CALLTREE_NONE when the last child */
    uint64_t total;         /* the value (samples, or weight with 'total') of every stack through here */
} calltree_node;

typedef struct calltree {
    calltree_node *nodes;   /* nodes[0] is the root, above every stack's first frame */
    uint32_t count, capacity;
} calltree;

/* Merges every stack of 'p' with a non-zero value. Returns 0, or -1 when out of memory (tree freed). */
int calltree_build(calltree *t, const profile *p);
void calltree_free(calltree *t);

/* The node's own value: its total less its children's. */
uint64_t calltree_self(const calltree *t, uint32_t node);

#endif
