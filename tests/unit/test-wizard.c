/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new's pure parts: lib/elf.c (the loader's inputs of an ELF image),
 * lib/desktop.c (desktop entries, the dpkg status file) and lib/wizard.c
 * (what evidence points to which functionality, and the tally).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "desktop.h"
#include "elf.h"
#include "fbac-limits.h"
#include "tap.h"
#include "wizard.h"

/* A minimal dynamically linked ELF executable, 64-bit, either byte order. */
static void put(uint8_t *p, uint64_t v, unsigned n, bool be)
{
	for (unsigned i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static size_t make_elf(uint8_t *b, bool be)
{
	static const char interp[] = "/lib64/ld-linux-x86-64.so.2";
	static const char strtab[] = "\0libfoo.so.1\0libX11.so.6\0/opt/foo/lib";
	const uint64_t base = 0x400000, dyn = 264, str = 360;
	const uint64_t total = str + sizeof(strtab);
	uint64_t d[][2] = { { 1, 1 }, { 1, 13 }, { 29, 25 }, { 5, base + str },
			    { 10, sizeof(strtab) }, { 0, 0 } };

	memset(b, 0, 512);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;
	b[5] = be ? 2 : 1;
	b[6] = 1;
	put(b + 16, 2, 2, be);
	put(b + 18, 62, 2, be);
	put(b + 32, 64, 8, be); /* e_phoff */
	put(b + 52, 64, 2, be);
	put(b + 54, 56, 2, be);
	put(b + 56, 3, 2, be);
	/* PT_INTERP, PT_DYNAMIC, PT_LOAD */
	put(b + 64, 3, 4, be);
	put(b + 64 + 8, 232, 8, be);
	put(b + 64 + 32, sizeof(interp), 8, be);
	put(b + 120, 2, 4, be);
	put(b + 120 + 8, dyn, 8, be);
	put(b + 120 + 16, base + dyn, 8, be);
	put(b + 120 + 32, sizeof(d), 8, be);
	put(b + 176, 1, 4, be);
	put(b + 176 + 8, 0, 8, be);
	put(b + 176 + 16, base, 8, be);
	put(b + 176 + 32, total, 8, be);
	memcpy(b + 232, interp, sizeof(interp));
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		put(b + dyn + 16 * i, d[i][0], 8, be);
		put(b + dyn + 16 * i + 8, d[i][1], 8, be);
	}
	memcpy(b + str, strtab, sizeof(strtab));
	return total;
}

static void test_elf_made(bool be)
{
	uint8_t b[512], c[512];
	size_t n = make_elf(b, be);
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_elf_info e;
	unsigned refused = 0;

	is_int(fbac_elf_parse(b, n, a, &e), 0, be ? "big-endian ELF parses" : "little-endian ELF parses");
	is_str(e.interp, "/lib64/ld-linux-x86-64.so.2", "its interpreter");
	is_int((long long)e.n_needed, 2, "two libraries");
	if (e.n_needed == 2) {
		is_str(e.needed[0], "libfoo.so.1", "the first, in order");
		is_str(e.needed[1], "libX11.so.6", "the second");
	}
	is_str(e.runpath, "/opt/foo/lib", "DT_RUNPATH");
	ok(e.big_endian == be && e.is_64, "class and byte order");
	/* Every truncation is refused or read within bounds (ASan checks). */
	for (size_t k = 0; k < n; k++) {
		uint8_t *t = malloc(k ? k : 1);

		memcpy(t, b, k);
		refused += fbac_elf_parse(t, k, a, &e) < 0;
		free(t);
	}
	ok(refused >= 300, "truncations are refused (%u of %zu)", refused, n);
	/* A string table without its final NUL is refused. */
	memcpy(c, b, n);
	is_int(fbac_elf_parse(c, n - 1, a, &e), -ENOEXEC, "a name cut short is refused");
	/* Every byte changed: never a crash. */
	for (size_t k = 0; k < n; k++) {
		memcpy(c, b, n);
		c[k] ^= 0xff;
		(void)fbac_elf_parse(c, n, a, &e);
	}
	ok(true, "every byte flipped: no crash");
	fbac_arena_free(a);
}

static void test_elf_real(void)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_elf_info e;
	int fd = open("/proc/self/exe", O_RDONLY);
	struct stat st;
	char *buf;
	bool libc = false, malloc_seen = false;

	fstat(fd, &st);
	buf = malloc((size_t)st.st_size);
	ok(read(fd, buf, (size_t)st.st_size) == st.st_size, "read this test");
	close(fd);
	is_int(fbac_elf_parse(buf, (size_t)st.st_size, a, &e), 0, "this test's own ELF parses");
	for (size_t i = 0; i < e.n_needed; i++)
		libc |= strcmp(e.needed[i], "libc.so.6") == 0;
	for (size_t i = 0; i < e.n_imports; i++)
		malloc_seen |= strcmp(e.imports[i], "malloc") == 0;
	ok(libc, "it links libc.so.6");
	ok(malloc_seen, "it imports malloc");
	ok(e.interp && strstr(e.interp, "/ld-"), "its interpreter is a loader");
	is_int(fbac_elf_parse("#!/bin/sh\n", 10, a, &e), -ENOEXEC, "a script is not ELF");
	free(buf);
	fbac_arena_free(a);
}

static void test_desktop(void)
{
	static const char text[] =
		"# comment\n[Desktop Entry]\nName=Fire Fox\nName[fr]=Renard\n"
		"Comment = A web\\sbrowser\nExec=env MOZ=1 \"/usr/bin/firefox-esr\" %u\r\n"
		"Categories=Network;WebBrowser;;\nTerminal=false\nName=Second\n"
		"[Desktop Action new]\nCategories=Game\nExec=other\n";
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_desktop d;
	char name[64];

	is_int(fbac_desktop_parse(text, sizeof(text) - 1, a, &d), 0, "desktop entry parses");
	is_str(d.name, "Fire Fox", "the first Name, not a localised one");
	is_str(d.comment, "A web browser", "\\s decoded, spaces around = dropped");
	is_int((long long)d.n_categories, 2, "two categories, the empty one left out");
	if (d.n_categories == 2)
		is_str(d.categories[1], "WebBrowser", "in order");
	ok(!d.terminal, "Terminal=false");
	is_int(fbac_desktop_exec_name(d.exec, name, sizeof(name)), 0, "Exec has a program");
	is_str(name, "firefox-esr", "after env and its variables, quotes removed, base name");
	is_int(fbac_desktop_exec_name("  ", name, sizeof(name)), -ENOENT, "empty Exec");
	is_int(fbac_desktop_exec_name("/usr/bin/averyveryverylongname", name, 8),
	       -ENAMETOOLONG, "a name longer than the buffer");
	is_int(fbac_desktop_parse("[Other]\nName=x\n", 15, a, &d), -ENOENT, "no [Desktop Entry]");
	is_int(fbac_desktop_parse("[Desktop Entry]\0", 16, a, &d), -EINVAL, "a NUL byte");
	{
		char many[4096] = "[Desktop Entry]\nCategories=";

		for (int i = 0; i <= FBAC_MAX_DESKTOP_CATEGORIES; i++)
			strcat(many, "A;");
		is_int(fbac_desktop_parse(many, strlen(many), a, &d), -E2BIG,
		       "more than FBAC_MAX_DESKTOP_CATEGORIES categories");
	}
	fbac_arena_free(a);
}

static void test_dpkg(void)
{
	static const char text[] =
		"Package: w3m\nStatus: deinstall ok config-files\nSection: old\n\n"
		"Package: bc\nStatus: install ok installed\nSection: math\n"
		"Description: GNU bc arbitrary precision calculator language\n"
		" GNU bc is an interactive algebraic language\n .\n with arbitrary precision.\n\n"
		"Package: w3m\nStatus: install ok installed\nSection: web\n"
		"Description: WWW browsable pager\n";
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_dpkg_package p;

	is_int(fbac_dpkg_find(text, sizeof(text) - 1, "bc", a, &p), 0, "bc found");
	is_str(p.section, "math", "its section");
	is_str(p.summary, "GNU bc arbitrary precision calculator language", "its summary");
	is_str(p.description,
	       "GNU bc arbitrary precision calculator language GNU bc is an interactive algebraic language with arbitrary precision.",
	       "the long description joined, paragraph marks dropped");
	ok(p.installed, "installed");
	is_int(fbac_dpkg_find(text, sizeof(text) - 1, "w3m", a, &p), 0, "w3m found");
	is_str(p.section, "web", "the installed stanza wins over a removed one");
	is_int(fbac_dpkg_find(text, sizeof(text) - 1, "w3", a, &p), -ENOENT, "a prefix is not a name");
	is_int(fbac_dpkg_find("Package: x\n", 11, "x", a, &p), 0, "a stanza at the end without a blank line");
	ok(!p.installed && !p.section, "with nothing else");
	fbac_arena_free(a);
}

static bool only_web(const char *f, void *ctx)
{
	(void)ctx;
	return strcmp(f, "Web_Browser") == 0;
}

static void test_mapping(void)
{
	const char *w = NULL;
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_wizard t = { .arena = a };
	const struct fbac_wizard_vote *v;

	is_str(fbac_wizard_category("WebBrowser"), "Web_Browser", "WebBrowser");
	is_str(fbac_wizard_category("TextEditor"), "File_Editor", "TextEditor");
	is_str(fbac_wizard_category("Viewer"), "Document_Viewer", "Viewer");
	is_str(fbac_wizard_category("ArcadeGame"), "Game", "ArcadeGame");
	ok(!fbac_wizard_category("Utility"), "Utility says nothing");
	ok(!fbac_wizard_category("Development"), "Development is too wide to say (Python has it)");
	is_str(fbac_wizard_library("libX11.so.6"), "Graphical_Application", "libX11");
	is_str(fbac_wizard_library("/usr/lib/x86_64-linux-gnu/libgtk-3.so.0"),
	       "Graphical_Application", "GTK, by path");
	is_str(fbac_wizard_library("libQt5Widgets.so.5"), "Graphical_Application", "Qt");
	is_str(fbac_wizard_library("libwayland-client.so.0"), "Graphical_Application", "Wayland");
	is_str(fbac_wizard_library("libpulse.so.0"), "Audio_Playback", "PulseAudio");
	is_str(fbac_wizard_library("libasound.so.2"), "Audio_Playback", "ALSA");
	ok(!fbac_wizard_library("libGLU.so.1") && !fbac_wizard_library("libgcrypt.so.20") &&
		   !fbac_wizard_library("libc.so.6"),
	   "libGLU, libgcrypt, libc say nothing");
	is_str(fbac_wizard_import("popen"), "Spawn_Shell", "popen runs a shell");
	is_str(fbac_wizard_import("execvp"), "Executable_Search", "execvp searches PATH");
	ok(!fbac_wizard_import("execve"), "execve does not");
	is_str(fbac_wizard_interpreter("/bin/sh"), "Shell_Scripts", "a shell script");
	is_str(fbac_wizard_interpreter("/usr/bin/python3.11"), "Python_Interpreter", "python3.11");
	is_str(fbac_wizard_interpreter("perl"), "Perl_Interpreter", "perl");
	ok(!fbac_wizard_interpreter("/usr/bin/pythonista") && !fbac_wizard_interpreter("/bin/zsh"),
	   "pythonista, zsh say nothing");
	is_str(fbac_wizard_section("contrib/games"), "Game", "a section in an area");
	ok(!fbac_wizard_section("utils"), "utils says nothing");
	is_str(fbac_wizard_keyword("A small Text Editor for X", &w), "File_Editor", "a phrase, any case");
	is_str(w, "text editor", "the phrase that matched");
	is_str(fbac_wizard_keyword("Several games", NULL), "Game", "a plural");
	ok(!fbac_wizard_keyword("editorial tools", NULL), "a word is whole");
	ok(!fbac_wizard_keyword("GNU core utilities", NULL), "nothing");
	is_str(fbac_wizard_keyword("GNU version of the tar archiving utility", NULL),
	       "Archive_Manager", "tar's description");
	is_str(fbac_wizard_keyword("retrieves files from the web", NULL), "Download_Manager",
	       "wget's description");

	is_int(fbac_wizard_add(&t, "Game", FBAC_WIZARD_SECTION, "s"), 0, "a vote");
	fbac_wizard_add(&t, "Web_Browser", FBAC_WIZARD_KEYWORD, "k");
	fbac_wizard_add(&t, "Web_Browser", FBAC_WIZARD_KEYWORD, "k");
	v = fbac_wizard_best(&t, NULL, NULL);
	is_str(v ? v->functionality : NULL, "Game", "the same reason counts once");
	fbac_wizard_add(&t, "Web_Browser", FBAC_WIZARD_KEYWORD, "k2");
	v = fbac_wizard_best(&t, NULL, NULL);
	is_str(v ? v->functionality : NULL, "Web_Browser", "two reasons outweigh one");
	is_int(v ? (long long)v->n_reasons : 0, 2, "with both reasons");
	fbac_wizard_add(&t, "Game", FBAC_WIZARD_KEYWORD, "k3");
	fbac_wizard_add(&t, "Web_Browser", FBAC_WIZARD_SECTION - FBAC_WIZARD_KEYWORD, "k4");
	v = fbac_wizard_best(&t, NULL, NULL);
	is_str(v ? v->functionality : NULL, "Game", "a tie goes to the first");
	v = fbac_wizard_best(&t, only_web, NULL);
	is_str(v ? v->functionality : NULL, "Web_Browser", "only accepted ones");
	fbac_arena_free(a);
}

int main(void)
{
	plan_no_plan();
	test_elf_made(false);
	test_elf_made(true);
	test_elf_real();
	test_desktop();
	test_dpkg();
	test_mapping();
	return done_testing();
}
