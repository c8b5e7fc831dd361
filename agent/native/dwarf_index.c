/*
 * dwarf_index: the page index of an unwind table (see unwind_table in dwarf.h), built once with the table,
 * outside signal handlers. Why: on this kind of machine a sample's cost is mostly the distinct, rarely used
 * pages it touches, and a binary search over libjvm's ~200K rows (megabytes) lands each of its deeper
 * probes on another page. With the index a lookup reads one small array entry pair and searches the few
 * rows of one page of text.
 */
#include "dwarf.h"

#include <stdlib.h>

#define MAX_SHIFT 31

bool dwarf_index_build(unwind_table *t, unsigned shift) {
    free(t->page_first);
    t->page_first = NULL;
    t->npages = 0;
    if (t->nrows == 0) return true;
    uint32_t base = t->rows[0].pc_offset;
    uint64_t span = (uint64_t)t->rows[t->nrows - 1].pc_offset - base;
    /* Rows far apart (sparse or crafted tables): wider pages, at most 4 entries per row. */
    while (shift < MAX_SHIFT && (span >> shift) + 1 > 4 * (uint64_t)t->nrows + 16) shift++;
    size_t npages = (size_t)(span >> shift) + 1;
    uint32_t *first = malloc((npages + 1) * sizeof(*first));
    if (!first) return false;
    size_t r = 0;
    for (size_t p = 0; p <= npages; p++) {
        uint64_t page_start = base + ((uint64_t)p << shift);
        while (r < t->nrows && t->rows[r].pc_offset < page_start) r++;
        first[p] = (uint32_t)r;
    }
    first[npages] = (uint32_t)t->nrows;  /* every row starts at or below the last page's end */
    t->page_first = first;
    t->npages = npages;
    t->page_shift = shift;
    return true;
}

size_t dwarf_index_bytes(const unwind_table *t) {
    return t && t->page_first ? (t->npages + 1) * sizeof(uint32_t) : 0;
}
