/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an ELF executable asks of the dynamic loader, read from its bytes
 * (never by running it): the interpreter (PT_INTERP), the libraries it
 * names (DT_NEEDED) and its own search path (DT_RUNPATH, DT_RPATH).
 * 32- and 64-bit, either byte order. fbac new reads these to guess what a
 * program does (a program linking libX11 draws windows).
 */
#ifndef FBAC_ELF_H
#define FBAC_ELF_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

struct fbac_elf_info {
	const char *interp;  /* NULL: statically linked or not an executable */
	const char **needed; /* in the order of the dynamic section */
	size_t n_needed;
	const char *runpath; /* DT_RUNPATH, else DT_RPATH; NULL when neither */
	/* The functions and objects it takes from its libraries (undefined
	 * symbols of the .dynsym section), in table order. */
	const char **imports;
	size_t n_imports;
	bool is_64, big_endian;
};

/**
 * fbac_elf_parse() - read the loader's inputs from an ELF image
 * @buf: the file's bytes
 * @len: their number
 * @a: owns the strings of @ret
 * @ret: filled on success (zeroed first)
 *
 * Every offset and size is checked against @len; a name runs to its NUL
 * within the string table. A file without a dynamic section succeeds with
 * no libraries; one without section headers, with no imports.
 *
 * Return: 0; -ENOEXEC when @buf is not an ELF file or is inconsistent
 * (an offset out of bounds, a string without its NUL); -E2BIG for more
 * than FBAC_MAX_ELF_NEEDED libraries or FBAC_MAX_ELF_IMPORTS imports;
 * -ENOMEM.
 */
int fbac_elf_parse(const void *buf, size_t len, struct fbac_arena *a,
		   struct fbac_elf_info *ret);

#endif
