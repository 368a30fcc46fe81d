/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for what fbac new reads from the system: every input
 * goes through the ELF reader (lib/elf.c), the desktop entry parser and
 * the dpkg status reader (lib/desktop.c), and what they return through the
 * wizard's tables (lib/wizard.c). Each must succeed or refuse, without
 * crashing, leaking or reading out of bounds. `make fuzz` runs it; seeds
 * come from tests/fuzz/corpus/wizard/ (a tiny ELF, a desktop entry, a
 * dpkg stanza).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "desktop.h"
#include "elf.h"
#include "wizard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_wizard w = { .arena = a };
	struct fbac_elf_info e;
	struct fbac_desktop d;
	struct fbac_dpkg_package p;
	char name[256];

	if (!a)
		return 0;
	if (fbac_elf_parse(data, size, a, &e) == 0) {
		for (size_t i = 0; i < e.n_needed; i++)
			if (fbac_wizard_library(e.needed[i]))
				fbac_wizard_add(&w, fbac_wizard_library(e.needed[i]), 1, e.needed[i]);
		for (size_t i = 0; i < e.n_imports; i++)
			(void)fbac_wizard_import(e.imports[i]);
	}
	if (fbac_desktop_parse((const char *)data, size, a, &d) == 0) {
		for (size_t i = 0; i < d.n_categories; i++)
			if (fbac_wizard_category(d.categories[i]))
				fbac_wizard_add(&w, fbac_wizard_category(d.categories[i]),
						2, d.categories[i]);
		if (d.exec)
			(void)fbac_desktop_exec_name(d.exec, name, sizeof(name));
		if (d.comment)
			(void)fbac_wizard_keyword(d.comment, NULL);
	}
	if (fbac_dpkg_find((const char *)data, size, "w3m", a, &p) == 0) {
		if (p.section)
			(void)fbac_wizard_section(p.section);
		if (p.summary)
			(void)fbac_wizard_keyword(p.summary, NULL);
	}
	(void)fbac_wizard_best(&w, NULL, NULL);
	fbac_arena_free(a);
	return 0;
}
