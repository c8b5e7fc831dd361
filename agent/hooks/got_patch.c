/*
 * got_patch: the import table rewriting (got_patch.h). Each loaded object's dynamic section gives its
 * relocation tables (DT_JMPREL for the PLT, DT_RELA for the rest) and its dynamic symbol and string
 * tables; a relocation of type JUMP_SLOT or GLOB_DAT whose symbol is one of ours locates a slot at
 * load address + r_offset.
 */
#define _GNU_SOURCE
#include "got_patch.h"

#include "arch.h"
#include "got_scope.h"
#include "page_protection.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Slots patched and what they held; a process has a few hundred at most (one per object and function). */
#define MAX_SAVED 8192
static struct {
    uintptr_t slot;
    uintptr_t original;
} saved[MAX_SAVED];
static size_t saved_count;
static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

/* Objects an install finished with (every slot of the hooks hooked or bound elsewhere), for the hook set it
 * used, with the slots they hold hooked: a later install skips them, and reads no page protections when no
 * listed object is new, so that the rescan after each dlopen costs the new object only. Forgotten when the
 * hook set changes, at every restore, and when an object was unloaded (its address may then go to another
 * object); while none was, an object at a remembered address is the one remembered. Under patch_lock. */
#define MAX_SCANNED 4096
static struct {
    uintptr_t addr;
    const void *phdr;
    size_t hooked;
} scanned[MAX_SCANNED];
static size_t scanned_count;
static uint64_t scanned_hook_set;
static unsigned long long scanned_subs;

typedef enum { WALK_INSTALL, WALK_RESTORE, WALK_COUNT } walk_action;

#define MAX_FAMILIES 8    /* distinct got_hook.family lists in one hook set */
#define MAX_LISTED 1024   /* objects remembered from before the pages were read (a JVM has 30-80) */

typedef struct {
    walk_action action;
    const got_hook *hooks;
    size_t count;
    got_patch_stats stats;
    size_t result;
    bool waited;   /* got_patch_install_waited: an object that looks unrelocated is taken all the same */
    /* Read before the walk, outside the loader's lock (no file is read under it), after the loader's counts
     * of objects added and removed and the objects listed then: an object is mapped before it is listed, so
     * one listed then and still listed now had its pages mapped when they were read (pages_are_its_own). */
    page_protections pages;
    bool pages_read;
    unsigned long long adds, subs;
    uintptr_t listed[MAX_LISTED];   /* load addresses */
    size_t listed_count;
    size_t unscanned;   /* objects listed before the walk that are not in 'scanned' */
    bool fresh;    /* for the object visited: its pages are in 'pages' */
    /* For the object visited: the families (got_hook.family) it keeps whole this time. */
    const char *const *left[MAX_FAMILIES];
    size_t left_count;
    bool stale;    /* an object could not be judged (loaded since, or no pages): walk again */
} walk_state;

/* Objects whose calls are never redirected: libprof (its own allocations must not be sampled, and the hooks
 * call the real functions through it), libc (its internal calls bind directly anyway; the ones through its
 * GOT belong to the allocator itself) and the dynamic loader (whose allocations during dlopen hold its
 * lock). */
static bool excluded(const struct dl_phdr_info *info) {
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libc.so", 7) == 0 || strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "linux-vdso", 10) == 0)
        return true;
    uintptr_t own = (uintptr_t)&got_patch_install;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && own >= start && own < start + ph->p_memsz) return true;
    }
    return false;
}

/* Dynamic section pointers are absolute once the loader relocated them, except in objects it did not
 * (the vDSO): an address below the load base is still relative. */
static uintptr_t dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) p) {
    return p < info->dlpi_addr ? info->dlpi_addr + p : p;
}

typedef struct {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Rela) *tables[2];
    size_t sizes[2];
    uintptr_t relro_start, relro_end;
    uintptr_t low, high;   /* the object's mapped range: a slot pointing inside is an unresolved lazy stub */
    uintptr_t base;        /* the load address */
    const ElfW(Dyn) *dyn;  /* the dynamic section */
    bool pending;          /* counted in stats.pending */
} object_tables;

static bool read_tables(const struct dl_phdr_info *info, object_tables *t) {
    memset(t, 0, sizeof(*t));
    t->base = info->dlpi_addr;
    const ElfW(Dyn) *dyn = NULL;
    t->low = UINTPTR_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)start;
        if (ph->p_type == PT_GNU_RELRO) {
            t->relro_start = start;
            t->relro_end = start + ph->p_memsz;
        }
        if (ph->p_type == PT_LOAD) {
            if (start < t->low) t->low = start;
            if (start + ph->p_memsz > t->high) t->high = start + ph->p_memsz;
        }
    }
    if (!dyn) return false;
    t->dyn = dyn;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: t->symtab = (const ElfW(Sym) *)dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_STRTAB: t->strtab = (const char *)dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_JMPREL: t->tables[0] = (const ElfW(Rela) *)dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: t->sizes[0] = dyn->d_un.d_val; break;
        case DT_RELA: t->tables[1] = (const ElfW(Rela) *)dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_RELASZ: t->sizes[1] = dyn->d_un.d_val; break;
        default: break;
        }
    }
    return t->symtab && t->strtab;
}

static bool ends_with(const char *name, const char *suffix) {
    size_t n = name ? strlen(name) : 0, k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

const char got_patch_main_program[] = "(the main program)";
static bool follow_data_pointers;

void got_patch_follow_data_pointers(bool on) {
    follow_data_pointers = on;
}

static bool hook_applies(const got_hook *h, const struct dl_phdr_info *info) {
    if (h->only_in == got_patch_main_program) return !info->dlpi_name || !info->dlpi_name[0];
    return !h->only_in || ends_with(info->dlpi_name, h->only_in);
}

static const got_hook *hook_named(const walk_state *w, const char *name) {
    for (size_t i = 0; i < w->count; i++) {
        if (strcmp(w->hooks[i].symbol, name) == 0) return &w->hooks[i];
    }
    return NULL;
}

static uintptr_t original_of(uintptr_t slot, uintptr_t fallback) {
    for (size_t i = 0; i < saved_count; i++) {
        if (saved[i].slot == slot) return saved[i].original;
    }
    return fallback;
}

static void remember(uintptr_t slot, uintptr_t original) {
    for (size_t i = 0; i < saved_count; i++) {
        if (saved[i].slot == slot) {
            saved[i].original = original;
            return;
        }
    }
    if (saved_count < MAX_SAVED) saved[saved_count++] = (typeof(saved[0])){slot, original};
}

static uintptr_t page_size(void) {
    return (uintptr_t)sysconf(_SC_PAGESIZE);
}

/* Whether the object visited was mapped when the pages were read: nothing was loaded since, or nothing was
 * unloaded since and it was listed then (its address cannot have changed hands). */
static bool pages_are_its_own(const walk_state *w, const struct dl_phdr_info *info) {
    if (!w->pages_read) return false;
    /* Asked of the kernel now, inside the walk: the loader's lock it holds keeps every listed object mapped. */
    if (w->pages.query_fd >= 0) return true;
    if (info->dlpi_adds == w->adds) return true;
    if (info->dlpi_subs != w->subs) return false;
    for (size_t i = 0; i < w->listed_count; i++)
        if (w->listed[i] == info->dlpi_addr) return true;
    return false;
}

/* The protection of the page holding 'addr' as read before the walk; -1 when not known. A slot that holds our
 * hook belongs to an object an earlier walk patched, listed since (reloaded, it would hold what the loader
 * wrote): its pages were read whatever the loader did meanwhile. */
static int protection(const walk_state *w, uintptr_t addr, bool hooked) {
    return w->pages_read && (w->fresh || hooked) ? page_protections_of(&w->pages, addr) : -1;
}

/* The loader lists an object before it relocates it, and makes its RELRO read-only once it is done (whole pages
 * only). A slot of an object still being relocated is not touched: the loader may still write it, and a page
 * made read-only again after our write would fault the loader's next write. An object whose RELRO covers no
 * whole page tells by its slots: before relocation one holds 0 or the address it was linked at, below the
 * object. Unless 'waited' (relocation takes milliseconds: a RELRO writable for longer was left so by someone
 * else, another import patcher). An object whose pages are not known (loaded since they were read, or
 * /proc/self/maps unreadable) is not judged: the walk is done again, and it stays pending. */
static bool relocated(walk_state *w, const object_tables *t, uintptr_t value) {
    if (!w->fresh) {
        w->stale = true;
        return false;
    }
    if (w->waited) return true;
    uintptr_t start = t->relro_start & ~(page_size() - 1), end = t->relro_end & ~(page_size() - 1);
    if (start < end) {
        int prot = protection(w, start, false);
        return prot >= 0 && !(prot & PROT_WRITE);
    }
    bool linked_address = t->base && value < t->low && value + t->base >= t->low && value + t->base < t->high;
    return value != 0 && !linked_address;
}

/* Writes one slot and puts its page back as it was read; nothing is written where the page's protection is not
 * known. The page is opened for the write even when it was read writable: a loader that has been relocating an
 * object for over a second (got_patch_install_waited) may have closed it since, and a write to a closed page
 * would fault this thread. */
static bool write_slot(walk_state *w, uintptr_t slot, uintptr_t value, bool hooked) {
    int prot = protection(w, slot, hooked);
    if (prot < 0) {
        w->stale = true;
        return false;
    }
    void *page = (void *)(slot & ~(page_size() - 1));
    if (mprotect(page, page_size(), prot | PROT_WRITE) != 0) return false;
    atomic_store_explicit((_Atomic uintptr_t *)slot, value, memory_order_release);
    if (!(prot & PROT_WRITE)) mprotect(page, page_size(), prot);
    return true;
}

static void visit_slot(walk_state *w, object_tables *t, uintptr_t slot, const got_hook *h) {
    uintptr_t value = atomic_load_explicit((_Atomic uintptr_t *)slot, memory_order_acquire);
    uintptr_t hook = (uintptr_t)h->hook, real = (uintptr_t)h->real;
    switch (w->action) {
    case WALK_COUNT:
        if (value == hook) w->result++;
        return;
    case WALK_RESTORE:
        if (value == hook && write_slot(w, slot, original_of(slot, real), true)) w->result++;
        return;
    case WALK_INSTALL:
        if (value == hook) {
            w->result++;
            return;
        }
        if (!relocated(w, t, value)) {
            if (!t->pending) w->stats.pending++;
            t->pending = true;
            return;
        }
        if (value != real && !(value >= t->low && value < t->high)) {
            w->stats.foreign++;
            return;
        }
        if (!write_slot(w, slot, hook, false)) {
            w->stats.failed++;
            return;
        }
        remember(slot, value);
        w->stats.patched++;
        w->result++;
        return;
    }
}

static bool family_left(const walk_state *w, const char *const *family) {
    for (size_t i = 0; i < w->left_count; i++)
        if (w->left[i] == family) return true;
    return false;
}

static void leave_family(walk_state *w, const char *const *family) {
    if (!family_left(w, family) && w->left_count < MAX_FAMILIES) w->left[w->left_count++] = family;
}

/* Calls 'fn' for each slot of the object that imports one of the hooks' symbols. */
static void each_slot(walk_state *w, object_tables *t, const struct dl_phdr_info *info,
                      void (*fn)(walk_state *, object_tables *, uintptr_t, const got_hook *)) {
    for (int k = 0; k < 2; k++) {
        size_t n = t->tables[k] ? t->sizes[k] / sizeof(ElfW(Rela)) : 0;
        for (size_t i = 0; i < n; i++) {
            const ElfW(Rela) *r = &t->tables[k][i];
            unsigned type = (unsigned)ELF64_R_TYPE(r->r_info), sym = (unsigned)ELF64_R_SYM(r->r_info);
            bool data_pointer = follow_data_pointers && type == ARCH_RELOC_ABS64 && r->r_addend == 0 &&
                                (!info->dlpi_name || !info->dlpi_name[0]);
            if ((type != ARCH_RELOC_JUMP_SLOT && type != ARCH_RELOC_GLOB_DAT && !data_pointer) || sym == 0) continue;
            const got_hook *h = hook_named(w, t->strtab + t->symtab[sym].st_name);
            if (h && hook_applies(h, info)) fn(w, t, info->dlpi_addr + r->r_offset, h);
        }
    }
}

/* Families whose lazy slots were seen in the object being judged (judge_slot), to be asked of got_scope. */
static const char *const *lazy_families[MAX_FAMILIES];
static size_t lazy_count;

/* The first look at a slot of a family: bound to another definition, the family stays whole; a lazy stub, where
 * it would bind is asked later; not relocated yet, the family waits (the object is pending, visit_slot says). */
static void judge_slot(walk_state *w, object_tables *t, uintptr_t slot, const got_hook *h) {
    if (!h->family) return;
    uintptr_t value = atomic_load_explicit((_Atomic uintptr_t *)slot, memory_order_acquire);
    if (value == (uintptr_t)h->hook || value == (uintptr_t)h->real) return;
    bool linked_address = t->base && value < t->low && value + t->base >= t->low && value + t->base < t->high;
    if (value == 0 || linked_address) {
        leave_family(w, h->family);   /* not counted: it comes back once relocated */
        if (!t->pending) w->stats.pending++;
        t->pending = true;
        return;
    }
    if (value < t->low || value >= t->high) {
        leave_family(w, h->family);
        return;
    }
    for (size_t i = 0; i < lazy_count; i++)
        if (lazy_families[i] == h->family) return;
    if (lazy_count < MAX_FAMILIES) lazy_families[lazy_count++] = h->family;
}

/* Which families the object keeps whole this time (w->left), counted in stats.families_left unless only
 * waiting for the loader. Runs under patch_lock (lazy_families is shared). */
static void judge_families(walk_state *w, object_tables *t, const struct dl_phdr_info *info) {
    w->left_count = 0;
    lazy_count = 0;
    each_slot(w, t, info, judge_slot);
    bool pending = t->pending;
    for (size_t i = 0; i < lazy_count; i++)
        if (!family_left(w, lazy_families[i]) && !got_scope_binds_globally(t->dyn, info->dlpi_addr, lazy_families[i]))
            leave_family(w, lazy_families[i]);
    if (!pending) w->stats.families_left += w->left_count;
}

static void install_slot(walk_state *w, object_tables *t, uintptr_t slot, const got_hook *h) {
    if (h->family && family_left(w, h->family)) return;
    visit_slot(w, t, slot, h);
}

/* The hook set an install uses, as one number: the same array may hold other hooks from one call to the next. */
static uint64_t hook_set_of(const got_hook *hooks, size_t count) {
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)follow_data_pointers;
    for (size_t i = 0; i < count; i++) {
        uintptr_t parts[] = {(uintptr_t)hooks[i].symbol, (uintptr_t)hooks[i].real, (uintptr_t)hooks[i].hook,
                             (uintptr_t)hooks[i].only_in};
        for (size_t k = 0; k < sizeof(parts) / sizeof(*parts); k++) h = (h ^ parts[k]) * 0x100000001b3ULL;
    }
    return h;
}

/* The remembered entry of this object, or -1. Only while no object was unloaded since the memo was checked: one
 * unloaded meanwhile could have given its address to another. */
static ssize_t scanned_index(const struct dl_phdr_info *info) {
    if (info->dlpi_subs != scanned_subs) return -1;
    for (size_t i = 0; i < scanned_count; i++)
        if (scanned[i].addr == info->dlpi_addr && scanned[i].phdr == (const void *)info->dlpi_phdr) return (ssize_t)i;
    return -1;
}

static void remember_scanned(const struct dl_phdr_info *info, size_t hooked) {
    if (scanned_count < MAX_SCANNED) scanned[scanned_count++] = (typeof(scanned[0])){info->dlpi_addr, info->dlpi_phdr, hooked};
}

static int visit_object(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    walk_state *w = arg;
    object_tables t;
    if (excluded(info)) return 0;
    ssize_t known = w->action == WALK_INSTALL ? scanned_index(info) : -1;
    if (known >= 0) {
        w->stats.objects++;
        w->result += scanned[known].hooked;
        return 0;
    }
    if (!read_tables(info, &t)) {   /* no import tables: nothing to hook, ever */
        if (w->action == WALK_INSTALL) remember_scanned(info, 0);
        return 0;
    }
    w->stats.objects++;
    w->fresh = pages_are_its_own(w, info);
    size_t result_before = w->result, pending_before = w->stats.pending, failed_before = w->stats.failed;
    bool stale_before = w->stale;
    w->stale = false;
    w->left_count = 0;
    if (w->action == WALK_INSTALL) judge_families(w, &t, info);
    each_slot(w, &t, info, install_slot);
    bool finished = !w->stale && w->stats.pending == pending_before && w->stats.failed == failed_before;
    if (w->action == WALK_INSTALL && finished) remember_scanned(info, w->result - result_before);
    w->stale = w->stale || stale_before;
    return 0;
}

static int read_listed(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    walk_state *w = arg;
    w->adds = info->dlpi_adds;
    w->subs = info->dlpi_subs;
    if (w->listed_count < MAX_LISTED) w->listed[w->listed_count++] = info->dlpi_addr;
    if (!excluded(info) && scanned_index(info) < 0) w->unscanned++;
    return 0;
}

static int read_counts(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    unsigned long long *counts = arg;
    counts[0] = info->dlpi_adds;
    counts[1] = info->dlpi_subs;
    return 1;
}

void got_patch_loader_counts(unsigned long long *adds, unsigned long long *subs) {
    unsigned long long counts[2] = {0, 0};
    dl_iterate_phdr(read_counts, counts);
    if (adds) *adds = counts[0];
    if (subs) *subs = counts[1];
}

/* Before an install: the remembered objects, if they still hold for this hook set and no object was unloaded. */
static void check_scanned(const got_hook *hooks, size_t count) {
    uint64_t set = hook_set_of(hooks, count);
    unsigned long long subs = 0;
    got_patch_loader_counts(NULL, &subs);
    if (set != scanned_hook_set || subs != scanned_subs) scanned_count = 0;
    scanned_hook_set = set;
    scanned_subs = subs;
}

/* A walk that found objects loaded or unloaded since its pages were read is done again with new ones (each
 * time, slots already hooked or restored are left as they are); a few tries, then the objects it could not
 * tell about are left pending. */
#define WALK_TRIES 3

static size_t walk(walk_action action, const got_hook *hooks, size_t count, bool waited,
                   unsigned long long waited_adds, got_patch_stats *stats) {
    walk_state w = {.action = action, .hooks = hooks, .count = count, .pages = {.query_fd = -1}};
    size_t patched = 0;
    pthread_mutex_lock(&patch_lock);
    if (action == WALK_INSTALL) check_scanned(hooks, count);
    for (int tries = 1;; tries++) {
        w.stale = false;
        w.result = 0;
        w.stats = (got_patch_stats){0};
        w.pages_read = false;
        if (action != WALK_COUNT) {
            w.listed_count = 0;
            w.unscanned = 0;
            dl_iterate_phdr(read_listed, &w);
            /* Every object listed is remembered: nothing to write, no protections to read. */
            if (action == WALK_RESTORE || w.unscanned)
                w.pages_read = page_protections_live(&w.pages) || page_protections_read(&w.pages, "/proc/self/maps");
        }
        /* Only objects listed when the wait began were waited for. */
        w.waited = waited && w.adds == waited_adds;
        dl_iterate_phdr(visit_object, &w);
        page_protections_free(&w.pages);
        patched += w.stats.patched;
        if (!w.stale || tries == WALK_TRIES) break;
    }
    if (action == WALK_RESTORE) scanned_count = 0;
    pthread_mutex_unlock(&patch_lock);
    w.stats.patched = patched;
    if (stats) *stats = w.stats;
    return w.result;
}

size_t got_patch_install(const got_hook *hooks, size_t count, got_patch_stats *stats) {
    return walk(WALK_INSTALL, hooks, count, false, 0, stats);
}

size_t got_patch_install_waited(const got_hook *hooks, size_t count, unsigned long long adds, got_patch_stats *stats) {
    return walk(WALK_INSTALL, hooks, count, true, adds, stats);
}

size_t got_patch_restore(const got_hook *hooks, size_t count) {
    return walk(WALK_RESTORE, hooks, count, false, 0, NULL);
}

size_t got_patch_count_hooked(const got_hook *hooks, size_t count) {
    return walk(WALK_COUNT, hooks, count, false, 0, NULL);
}
