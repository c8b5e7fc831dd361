/*
 * elf_reader: a bounds-checked read-only view of one ELF64 file. The rule throughout: nothing read from the file is
 * trusted. Offsets and sizes go through elf_range() (overflow-safe), string indexes through elf_string()
 * (which needs a NUL before the end of the table), counts are capped by what fits in the file.
 */
#define _GNU_SOURCE
#include "elf_reader.h"

#include "arch.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SEGMENTS 64

struct elf_image {
    char *path;
    const uint8_t *base;
    size_t size;
    bool mapped;              /* base is our own mapping of the file (else borrowed bytes) */
    const Elf64_Ehdr *ehdr;
    const Elf64_Phdr *phdrs;  /* NULL when the program header table is invalid */
    size_t phnum;
    const Elf64_Shdr *shdrs;  /* NULL when the section header table is invalid */
    size_t shnum;
    const char *shstr;        /* section name table, NULL when invalid */
    size_t shstr_size;
    elf_segment loads[MAX_SEGMENTS];
    size_t nloads;
};

/* The file bytes [off, off+len), or NULL when any of it lies outside the file. */
static const uint8_t *elf_range(const elf_image *img, uint64_t off, uint64_t len) {
    if (off > img->size || len > img->size - off) return NULL;
    return img->base + off;
}

/* A NUL-terminated string at index idx of a table of size bytes, or NULL. */
static const char *elf_string(const char *table, size_t size, uint64_t idx) {
    if (!table || idx >= size) return NULL;
    if (!memchr(table + idx, 0, size - idx)) return NULL;
    return table + idx;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *path, const char *what) {
    if (err && errlen) snprintf(err, errlen, fmt, path, what);
}

static void elf_read_program_headers(elf_image *img) {
    const Elf64_Ehdr *eh = img->ehdr;
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0) return;
    const uint8_t *p = elf_range(img, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr));
    if (!p || (eh->e_phoff & 7)) return;
    img->phdrs = (const Elf64_Phdr *)p;
    img->phnum = eh->e_phnum;
    for (size_t i = 0; i < img->phnum && img->nloads < MAX_SEGMENTS; i++) {
        const Elf64_Phdr *ph = &img->phdrs[i];
        if (ph->p_type != PT_LOAD) continue;
        img->loads[img->nloads++] = (elf_segment){ph->p_vaddr, ph->p_offset, ph->p_filesz, ph->p_memsz,
                                                  ph->p_flags};
    }
}

static void elf_read_section_headers(elf_image *img) {
    const Elf64_Ehdr *eh = img->ehdr;
    /* e_shnum == 0 with e_shoff set means more than 0xff00 sections: the real count is in section 0.
     * No x86_64 shared library we read has that many, so we treat it as "no sections". */
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 || eh->e_shoff == 0) return;
    const uint8_t *p = elf_range(img, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr));
    if (!p || (eh->e_shoff & 7)) return;
    img->shdrs = (const Elf64_Shdr *)p;
    img->shnum = eh->e_shnum;
    if (eh->e_shstrndx < img->shnum) {
        const Elf64_Shdr *s = &img->shdrs[eh->e_shstrndx];
        const uint8_t *strs = s->sh_type == SHT_NOBITS ? NULL : elf_range(img, s->sh_offset, s->sh_size);
        if (strs) {
            img->shstr = (const char *)strs;
            img->shstr_size = s->sh_size;
        }
    }
}

/* Checks the header of size bytes at base and builds the image around them; NULL and err set otherwise. */
static elf_image *elf_wrap(const char *path, const uint8_t *base, size_t size, bool mapped, char *err,
                           size_t errlen) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const char *why = NULL;
    if (size < sizeof(Elf64_Ehdr)) why = "too small for an ELF file";
    else if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) why = "not an ELF file";
    else if (eh->e_ident[EI_CLASS] != ELFCLASS64) why = "not a 64-bit ELF file";
    else if (eh->e_ident[EI_DATA] != ELFDATA2LSB) why = "not a little-endian ELF file";
    else if (eh->e_machine != ARCH_ELF_MACHINE) why = "not an " ARCH_NAME " ELF file";
    elf_image *img = why ? NULL : calloc(1, sizeof(*img));
    if (!why && (!img || !(img->path = strdup(path)))) why = "out of memory";
    if (why) {
        free(img);
        set_err(err, errlen, "%s: %s", path, why);
        return NULL;
    }
    img->base = base;
    img->size = size;
    img->mapped = mapped;
    img->ehdr = eh;
    elf_read_program_headers(img);
    elf_read_section_headers(img);
    return img;
}

elf_image *elf_open(const char *path, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_err(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        set_err(err, errlen, "%s: %s", path, "not a regular file of ELF size");
        return NULL;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        set_err(err, errlen, "%s: mmap: %s", path, strerror(errno));
        return NULL;
    }
    elf_image *img = elf_wrap(path, map, (size_t)st.st_size, true, err, errlen);
    if (!img) munmap(map, (size_t)st.st_size);
    return img;
}

elf_image *elf_open_bytes(const char *name, const void *data, size_t size, char *err, size_t errlen) {
    return elf_wrap(name, data, size, false, err, errlen);
}

void elf_close(elf_image *img) {
    if (!img) return;
    if (img->mapped) munmap((void *)img->base, img->size);
    free(img->path);
    free(img);
}

const char *elf_path(const elf_image *img) { return img->path; }

const elf_segment *elf_segments(const elf_image *img, size_t *count) {
    *count = img->nloads;
    return img->loads;
}

bool elf_load_bias(const elf_image *img, uint64_t map_start, uint64_t map_offset, uint64_t *bias) {
    /* Two segments may share the page at map_offset; the executable one is what native_map asks about,
     * and their biases can differ by less than a page, so it is tried first. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < img->nloads; i++) {
            const elf_segment *s = &img->loads[i];
            if (pass == 0 && !(s->flags & PF_X)) continue;
            /* The loader maps whole pages: the mapping of a segment starts at p_offset rounded down. */
            uint64_t page_off = s->offset & ~(uint64_t)4095;
            if (s->filesz == 0 || s->offset > UINT64_MAX - s->filesz) continue;
            if (map_offset < page_off || map_offset >= s->offset + s->filesz) continue;
            *bias = map_start - (s->vaddr + (map_offset - s->offset));
            return true;
        }
    }
    return false;
}

/* The section header at index i when it has bytes in the file, else NULL. */
static const uint8_t *section_data(const elf_image *img, size_t i, size_t *size) {
    if (!img->shdrs || i >= img->shnum) return NULL;
    const Elf64_Shdr *s = &img->shdrs[i];
    if (s->sh_type == SHT_NOBITS || s->sh_type == SHT_NULL) return NULL;
    const uint8_t *p = elf_range(img, s->sh_offset, s->sh_size);
    if (p) *size = s->sh_size;
    return p;
}

static const Elf64_Shdr *section_named(const elf_image *img, const char *name, size_t *index) {
    for (size_t i = 0; img->shdrs && i < img->shnum; i++) {
        const char *n = elf_string(img->shstr, img->shstr_size, img->shdrs[i].sh_name);
        if (n && strcmp(n, name) == 0) {
            if (index) *index = i;
            return &img->shdrs[i];
        }
    }
    return NULL;
}

bool elf_section_by_name(const elf_image *img, const char *name, elf_section *out) {
    size_t i, size = 0;
    const Elf64_Shdr *s = section_named(img, name, &i);
    const uint8_t *p = s ? section_data(img, i, &size) : NULL;
    if (!p) return false;
    *out = (elf_section){p, size, s->sh_addr};
    return true;
}

const uint8_t *elf_vaddr_data(const elf_image *img, uint64_t vaddr, size_t size) {
    for (size_t i = 0; i < img->nloads; i++) {
        const elf_segment *s = &img->loads[i];
        if (vaddr < s->vaddr || vaddr - s->vaddr > s->filesz || size > s->filesz - (vaddr - s->vaddr))
            continue;
        return elf_range(img, s->offset + (vaddr - s->vaddr), size);
    }
    return NULL;
}

/* Walks the notes in [p, p+size) looking for the GNU build-id. Notes are 4-byte aligned. */
static bool find_build_id(const uint8_t *p, size_t size, const uint8_t **id, size_t *len) {
    size_t off = 0;
    while (size - off >= sizeof(Elf64_Nhdr)) {
        Elf64_Nhdr nh;
        memcpy(&nh, p + off, sizeof(nh));
        off += sizeof(nh);
        uint64_t name_len = ((uint64_t)nh.n_namesz + 3) & ~(uint64_t)3;
        uint64_t desc_len = ((uint64_t)nh.n_descsz + 3) & ~(uint64_t)3;
        if (name_len > size - off || desc_len > size - off - name_len) return false;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(p + off, "GNU", 4) == 0 &&
            nh.n_descsz > 0) {
            *id = p + off + name_len;
            *len = nh.n_descsz;
            return true;
        }
        off += name_len + desc_len;
    }
    return false;
}

bool elf_build_id(const elf_image *img, const uint8_t **id, size_t *len) {
    for (size_t i = 0; img->phdrs && i < img->phnum; i++) {
        const Elf64_Phdr *ph = &img->phdrs[i];
        if (ph->p_type != PT_NOTE) continue;
        const uint8_t *p = elf_range(img, ph->p_offset, ph->p_filesz);
        if (p && find_build_id(p, ph->p_filesz, id, len)) return true;
    }
    /* Separate debug files keep the note as a section but may have no PT_NOTE. */
    for (size_t i = 0; img->shdrs && i < img->shnum; i++) {
        size_t size = 0;
        const uint8_t *p = img->shdrs[i].sh_type == SHT_NOTE ? section_data(img, i, &size) : NULL;
        if (p && find_build_id(p, size, id, len)) return true;
    }
    return false;
}

const char *elf_debuglink(const elf_image *img) {
    elf_section s;
    if (!elf_section_by_name(img, ".gnu_debuglink", &s)) return NULL;
    const char *name = elf_string((const char *)s.data, s.size, 0);
    return name && *name ? name : NULL;
}

bool elf_eh_frame_hdr(const elf_image *img, elf_section *out) {
    for (size_t i = 0; img->phdrs && i < img->phnum; i++) {
        const Elf64_Phdr *ph = &img->phdrs[i];
        if (ph->p_type != PT_GNU_EH_FRAME) continue;
        const uint8_t *p = elf_range(img, ph->p_offset, ph->p_filesz);
        if (!p || ph->p_filesz < 4) return false;
        *out = (elf_section){p, ph->p_filesz, ph->p_vaddr};
        return true;
    }
    return elf_section_by_name(img, ".eh_frame_hdr", out);
}

bool elf_eh_frame(const elf_image *img, elf_section *out) {
    if (elf_section_by_name(img, ".eh_frame", out)) return true;
    /* No section headers: .eh_frame_hdr says where .eh_frame starts (encoded as pcrel sdata4, the only
     * encoding linkers emit there); its size is then bounded by the end of its PT_LOAD segment. */
    elf_section hdr;
    if (!elf_eh_frame_hdr(img, &hdr) || hdr.size < 8 || hdr.data[0] != 1 || hdr.data[1] != 0x1b) return false;
    int32_t rel;
    memcpy(&rel, hdr.data + 4, 4);
    uint64_t vaddr = hdr.addr + 4 + (int64_t)rel;
    for (size_t i = 0; i < img->nloads; i++) {
        const elf_segment *s = &img->loads[i];
        if (vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz) continue;
        size_t size = s->filesz - (vaddr - s->vaddr);
        const uint8_t *p = elf_vaddr_data(img, vaddr, size);
        if (!p) return false;
        *out = (elf_section){p, size, vaddr};
        return true;
    }
    return false;
}

/* The first symbol table section of the given type with a valid string table, or false. */
static bool symbol_table(const elf_image *img, uint32_t type, const Elf64_Sym **syms, size_t *nsyms,
                         const char **strs, size_t *strs_size) {
    for (size_t i = 0; img->shdrs && i < img->shnum; i++) {
        const Elf64_Shdr *s = &img->shdrs[i];
        if (s->sh_type != type || s->sh_entsize != sizeof(Elf64_Sym)) continue;
        size_t size = 0, ssize = 0;
        const uint8_t *p = section_data(img, i, &size);
        const uint8_t *str = section_data(img, s->sh_link, &ssize);
        if (!p || !str || (s->sh_offset & 7) || size < sizeof(Elf64_Sym)) continue;
        *syms = (const Elf64_Sym *)p;
        *nsyms = size / sizeof(Elf64_Sym);
        *strs = (const char *)str;
        *strs_size = ssize;
        return true;
    }
    return false;
}

bool elf_has_symtab(const elf_image *img) {
    const Elf64_Sym *syms;
    const char *strs;
    size_t n, ssize;
    return symbol_table(img, SHT_SYMTAB, &syms, &n, &strs, &ssize) && n > 1;
}

static bool section_is_code(const elf_image *img, uint16_t shndx) {
    return img->shdrs && shndx < img->shnum && (img->shdrs[shndx].sh_flags & SHF_EXECINSTR);
}

bool elf_symbol_value(const elf_image *img, const char *name, uint64_t *vaddr) {
    const Elf64_Sym *syms;
    const char *strs;
    size_t n, ssize;
    for (int table = 0; table < 2; table++) {
        if (!symbol_table(img, table ? SHT_DYNSYM : SHT_SYMTAB, &syms, &n, &strs, &ssize)) continue;
        for (size_t i = 1; i < n; i++) {
            if (syms[i].st_shndx == SHN_UNDEF || syms[i].st_value == 0) continue;
            const char *s = elf_string(strs, ssize, syms[i].st_name);
            if (s && strcmp(s, name) == 0) {
                *vaddr = syms[i].st_value;
                return true;
            }
        }
    }
    return false;
}

size_t elf_for_each_function(const elf_image *img, elf_symbol_fn fn, void *ctx) {
    const Elf64_Sym *syms;
    const char *strs;
    size_t n, ssize, calls = 0;
    if (!symbol_table(img, SHT_SYMTAB, &syms, &n, &strs, &ssize) &&
        !symbol_table(img, SHT_DYNSYM, &syms, &n, &strs, &ssize))
        return 0;
    for (size_t i = 1; i < n; i++) {
        const Elf64_Sym *s = &syms[i];
        int type = ELF64_ST_TYPE(s->st_info);
        bool func = type == STT_FUNC || type == STT_GNU_IFUNC ||
                    (type == STT_NOTYPE && s->st_size > 0 && section_is_code(img, s->st_shndx));
        if (!func || s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || s->st_value == 0) continue;
        const char *name = elf_string(strs, ssize, s->st_name);
        if (!name || !*name) continue;
        int bind = ELF64_ST_BIND(s->st_info);
        fn(ctx, s->st_value, s->st_size, name,
           bind == STB_GLOBAL ? ELF_BIND_GLOBAL : bind == STB_WEAK ? ELF_BIND_WEAK : ELF_BIND_LOCAL);
        calls++;
    }
    return calls;
}
