/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading PT_INTERP, DT_NEEDED and DT_RUNPATH from an ELF image. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "elf.h"
#include "fbac-limits.h"

enum {
	PT_LOAD_ = 1,
	PT_DYNAMIC_ = 2,
	PT_INTERP_ = 3,
	DT_NULL_ = 0,
	DT_NEEDED_ = 1,
	DT_STRTAB_ = 5,
	DT_STRSZ_ = 10,
	DT_RPATH_ = 15,
	DT_RUNPATH_ = 29,
};

struct img {
	const uint8_t *p;
	size_t len;
	bool is_64, be;
};

/* An unsigned integer of n bytes at off, 0 when out of bounds (*ok false). */
static uint64_t get(const struct img *m, uint64_t off, unsigned n, bool *ok)
{
	uint64_t v = 0;

	if (off > m->len || n > m->len - off) {
		*ok = false;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned k = m->be ? i : n - 1 - i;

		v = (v << 8) | m->p[off + k];
	}
	return v;
}

/* A word: 4 or 8 bytes depending on the class. */
static uint64_t word(const struct img *m, uint64_t off, bool *ok)
{
	return get(m, off, m->is_64 ? 8 : 4, ok);
}

struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static struct phdr phdr_at(const struct img *m, uint64_t off, bool *ok)
{
	struct phdr h;

	h.type = (uint32_t)get(m, off, 4, ok);
	if (m->is_64) {
		h.offset = get(m, off + 8, 8, ok);
		h.vaddr = get(m, off + 16, 8, ok);
		h.filesz = get(m, off + 32, 8, ok);
	} else {
		h.offset = get(m, off + 4, 4, ok);
		h.vaddr = get(m, off + 8, 4, ok);
		h.filesz = get(m, off + 16, 4, ok);
	}
	return h;
}

/* The file offset of a virtual address, through the PT_LOAD segments. */
static int vaddr_to_off(const struct img *m, uint64_t phoff, unsigned phentsize,
			unsigned phnum, uint64_t vaddr, uint64_t *ret)
{
	for (unsigned i = 0; i < phnum; i++) {
		bool ok = true;
		struct phdr h = phdr_at(m, phoff + (uint64_t)i * phentsize, &ok);

		if (!ok)
			return -ENOEXEC;
		if (h.type != PT_LOAD_ || vaddr < h.vaddr ||
		    vaddr - h.vaddr >= h.filesz)
			continue;
		*ret = h.offset + (vaddr - h.vaddr);
		return 0;
	}
	return -ENOEXEC;
}

/* A NUL-terminated string at off within [lo, hi), copied into the arena. */
static int string_at(const struct img *m, uint64_t lo, uint64_t hi,
		     uint64_t off, struct fbac_arena *a, const char **ret)
{
	const uint8_t *nul;

	if (hi > m->len || off < lo || off >= hi)
		return -ENOEXEC;
	nul = memchr(m->p + off, 0, hi - off);
	if (!nul)
		return -ENOEXEC;
	*ret = fbac_arena_strndup(a, (const char *)m->p + off,
				  (size_t)(nul - (m->p + off)));
	return *ret ? 0 : -ENOMEM;
}

/* The undefined symbols of the first SHT_DYNSYM section. */
static int read_imports(const struct img *m, struct fbac_arena *a,
			struct fbac_elf_info *ret)
{
	bool ok = true;
	uint64_t shoff = m->is_64 ? get(m, 40, 8, &ok) : get(m, 32, 4, &ok);
	unsigned shentsize = (unsigned)get(m, m->is_64 ? 58 : 46, 2, &ok);
	unsigned shnum = (unsigned)get(m, m->is_64 ? 60 : 48, 2, &ok);
	unsigned symsize = m->is_64 ? 24 : 16;
	size_t cap = 0;

	if (!ok || shoff == 0 || shnum == 0)
		return 0;
	if (shentsize < (m->is_64 ? 64u : 40u) || shoff > m->len ||
	    (uint64_t)shnum * shentsize > m->len - shoff)
		return -ENOEXEC;
	for (unsigned i = 0; i < shnum; i++) {
		uint64_t sh = shoff + (uint64_t)i * shentsize, off, size, link;
		uint64_t str_off, str_size, lsh;

		if (get(m, sh + 4, 4, &ok) != 11 /* SHT_DYNSYM */)
			continue;
		off = m->is_64 ? get(m, sh + 24, 8, &ok) : get(m, sh + 16, 4, &ok);
		size = m->is_64 ? get(m, sh + 32, 8, &ok) : get(m, sh + 20, 4, &ok);
		link = get(m, sh + (m->is_64 ? 40 : 24), 4, &ok);
		if (!ok || link >= shnum || off > m->len || size > m->len - off)
			return -ENOEXEC;
		lsh = shoff + link * shentsize;
		str_off = m->is_64 ? get(m, lsh + 24, 8, &ok) : get(m, lsh + 16, 4, &ok);
		str_size = m->is_64 ? get(m, lsh + 32, 8, &ok) : get(m, lsh + 20, 4, &ok);
		if (!ok || str_off > m->len || str_size > m->len - str_off)
			return -ENOEXEC;
		for (uint64_t s = off; s + symsize <= off + size; s += symsize) {
			uint64_t name = get(m, s, 4, &ok);
			uint64_t shndx = get(m, s + (m->is_64 ? 6 : 14), 2, &ok);
			int r;

			if (!ok)
				return -ENOEXEC;
			if (shndx != 0 || name == 0)
				continue;
			if (ret->n_imports >= FBAC_MAX_ELF_IMPORTS)
				return -E2BIG;
			if (fbac_arena_grow(a, (void **)&ret->imports, &cap,
					    ret->n_imports + 1, sizeof(*ret->imports)) < 0)
				return -ENOMEM;
			if (name >= str_size)
				return -ENOEXEC;
			r = string_at(m, str_off, str_off + str_size, str_off + name,
				      a, &ret->imports[ret->n_imports]);
			if (r < 0)
				return r;
			ret->n_imports++;
		}
		return 0;
	}
	return 0;
}

int fbac_elf_parse(const void *buf, size_t len, struct fbac_arena *a,
		   struct fbac_elf_info *ret)
{
	struct img m = { buf, len, false, false };
	uint64_t phoff, dyn_off = 0, dyn_size = 0, strtab = 0, strsz = 0;
	uint64_t runpath = UINT64_MAX, rpath = UINT64_MAX;
	unsigned phentsize, phnum, dynent;
	bool ok = true, have_dyn = false, have_strtab = false;
	size_t n_needed = 0, k = 0;
	int r;

	*ret = (struct fbac_elf_info){ 0 };
	if (len < 16 || memcmp(buf, "\177ELF", 4) != 0)
		return -ENOEXEC;
	if (m.p[4] != 1 && m.p[4] != 2)
		return -ENOEXEC;
	if (m.p[5] != 1 && m.p[5] != 2)
		return -ENOEXEC;
	m.is_64 = m.p[4] == 2;
	m.be = m.p[5] == 2;
	phoff = m.is_64 ? get(&m, 32, 8, &ok) : get(&m, 28, 4, &ok);
	phentsize = (unsigned)get(&m, m.is_64 ? 54 : 42, 2, &ok);
	phnum = (unsigned)get(&m, m.is_64 ? 56 : 44, 2, &ok);
	if (!ok || phentsize < (m.is_64 ? 56u : 32u))
		return -ENOEXEC;
	if (phoff > len || (uint64_t)phnum * phentsize > len - phoff)
		return -ENOEXEC;
	for (unsigned i = 0; i < phnum; i++) {
		struct phdr h = phdr_at(&m, phoff + (uint64_t)i * phentsize, &ok);

		if (!ok)
			return -ENOEXEC;
		if (h.type == PT_INTERP_ && !ret->interp) {
			if (h.offset > len || h.filesz > len - h.offset)
				return -ENOEXEC;
			r = string_at(&m, h.offset, h.offset + h.filesz,
				      h.offset, a, &ret->interp);
			if (r < 0)
				return r;
		} else if (h.type == PT_DYNAMIC_ && !have_dyn) {
			if (h.offset > len || h.filesz > len - h.offset)
				return -ENOEXEC;
			dyn_off = h.offset;
			dyn_size = h.filesz;
			have_dyn = true;
		}
	}
	ret->is_64 = m.is_64;
	ret->big_endian = m.be;
	if ((r = read_imports(&m, a, ret)) < 0)
		return r;
	if (!have_dyn)
		return 0;
	dynent = m.is_64 ? 16 : 8;
	/* First pass: the string table and how many libraries. */
	for (uint64_t off = dyn_off; off + dynent <= dyn_off + dyn_size;
	     off += dynent) {
		uint64_t tag = word(&m, off, &ok), val;

		val = word(&m, off + dynent / 2, &ok);
		if (!ok)
			return -ENOEXEC;
		if (tag == DT_NULL_)
			break;
		if (tag == DT_STRTAB_) {
			strtab = val;
			have_strtab = true;
		} else if (tag == DT_STRSZ_) {
			strsz = val;
		} else if (tag == DT_NEEDED_) {
			if (++n_needed > FBAC_MAX_ELF_NEEDED)
				return -E2BIG;
		} else if (tag == DT_RUNPATH_) {
			runpath = val;
		} else if (tag == DT_RPATH_) {
			rpath = val;
		}
	}
	if (!have_strtab)
		return n_needed || runpath != UINT64_MAX || rpath != UINT64_MAX ?
			       -ENOEXEC : 0;
	if ((r = vaddr_to_off(&m, phoff, phentsize, phnum, strtab, &strtab)) < 0)
		return r;
	if (strtab > len || strsz > len - strtab)
		return -ENOEXEC;
	if (runpath == UINT64_MAX)
		runpath = rpath;
	if (runpath != UINT64_MAX) {
		if (runpath > strsz)
			return -ENOEXEC;
		r = string_at(&m, strtab, strtab + strsz, strtab + runpath, a,
			      &ret->runpath);
		if (r < 0)
			return r;
	}
	if (n_needed == 0)
		return 0;
	ret->needed = fbac_arena_array(a, n_needed, sizeof(*ret->needed));
	if (!ret->needed)
		return -ENOMEM;
	for (uint64_t off = dyn_off; k < n_needed; off += dynent) {
		uint64_t tag = word(&m, off, &ok), val;

		val = word(&m, off + dynent / 2, &ok);
		if (!ok)
			return -ENOEXEC;
		if (tag != DT_NEEDED_)
			continue;
		if (val > strsz)
			return -ENOEXEC;
		r = string_at(&m, strtab, strtab + strsz, strtab + val, a,
			      &ret->needed[k++]);
		if (r < 0)
			return r;
	}
	ret->n_needed = n_needed;
	return 0;
}
