/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system's own descriptions of a program, read from their text
 * formats: a freedesktop.org desktop entry (.desktop file) and a package's
 * stanza of the dpkg status file (/var/lib/dpkg/status). fbac new guesses
 * from them what a program does.
 */
#ifndef FBAC_DESKTOP_H
#define FBAC_DESKTOP_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

struct fbac_desktop {
	const char *name, *comment, *exec; /* NULL when absent */
	const char **categories;	   /* split at ';', empty ones left out */
	size_t n_categories;
	bool terminal;	/* Terminal=true */
	bool no_display; /* NoDisplay=true or Hidden=true */
};

/**
 * fbac_desktop_parse() - read the [Desktop Entry] group of a desktop entry
 * @buf: the file's text (need not end with a NUL)
 * @len: its length
 * @a: owns the strings of @ret
 * @ret: filled on success (zeroed first)
 *
 * Only the unlocalised keys of the [Desktop Entry] group are read; other
 * groups (actions), comments, blank lines and lines that are not KEY=VALUE
 * are skipped, as desktop environments skip them. A key given twice keeps
 * its first value. The escapes \s \n \t \r \\ are decoded.
 *
 * Return: 0; -ENOENT when there is no [Desktop Entry] group; -E2BIG for
 * more than FBAC_MAX_DESKTOP_CATEGORIES categories; -EINVAL for a NUL byte
 * in the text; -ENOMEM.
 */
int fbac_desktop_parse(const char *buf, size_t len, struct fbac_arena *a,
		       struct fbac_desktop *ret);

/**
 * fbac_desktop_exec_name() - the program an Exec= line starts
 * @exec: the Exec value
 * @buf: receives the first word's base name (quotes removed), after an
 *       "env" and its VAR=VALUE words
 * @size: of @buf
 *
 * Return: 0, -ENOENT when there is no word, -ENAMETOOLONG.
 */
int fbac_desktop_exec_name(const char *exec, char *buf, size_t size);

struct fbac_dpkg_package {
	const char *package, *section, *summary; /* summary: the Description's first line */
	const char *description;		 /* the long description, lines joined */
	bool installed;				 /* Status: ... installed */
};

/**
 * fbac_dpkg_find() - one package's stanza of a dpkg status file
 * @buf: the file's text (need not end with a NUL)
 * @len: its length
 * @package: the package's name (without ":ARCH")
 * @a: owns the strings of @ret
 * @ret: filled on success (zeroed first)
 *
 * Stanzas are separated by blank lines; fields are "Name: value" with
 * continuation lines starting with a space or tab. The first installed
 * stanza of the package wins, else the first one.
 *
 * Return: 0; -ENOENT when no stanza names @package; -EINVAL for a NUL byte
 * in the text; -ENOMEM.
 */
int fbac_dpkg_find(const char *buf, size_t len, const char *package,
		   struct fbac_arena *a, struct fbac_dpkg_package *ret);

#endif
