/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pure half of inferring parameter values from a program (fbac-run
 * --as TYPE PROGRAM): reading a dpkg file list, telling which arguments
 * name paths, the files an editor keeps beside the one it edits, and
 * writing a path as a value of the profile language. The file system is
 * read by the caller (src/common/infer.c).
 */
#ifndef FBAC_INFER_H
#define FBAC_INFER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the dpkg file list buf (one absolute path a line) has a line
 * equal to path.
 */
bool fbac_infer_list_has(const char *buf, size_t len, const char *path);

/*
 * The first of names (n of them) for which buf lists dir/NAME, copied to
 * out: the folder of the program's own in dir ("/usr/lib/firefox-esr"
 * for the names firefox, firefox-esr; never another package's folder
 * that happens to be listed, such as /usr/lib/mime); under /etc, failing
 * a folder, a file NAMErc, NAME.rc or NAME.conf. Return: 0, -ENOENT,
 * or -ENAMETOOLONG.
 */
int fbac_infer_list_child(const char *buf, size_t len, const char *dir,
			  const char *const *names, size_t n, char *out,
			  size_t size);

/*
 * The program's short name from an executable's file name: the name
 * without the alternative or version suffix Debian gives it
 * ("vim.basic" -> "vim", "python3.11" -> "python3", "convert-im6.q16"
 * -> "convert"). Return: 0 or -ENAMETOOLONG.
 */
int fbac_infer_short_name(const char *base, char *out, size_t size);

/*
 * The path an argument names, if it may name one: arg itself, or VALUE
 * of "--option=VALUE". Options ("-x", "--x"), URLs ("scheme://..."),
 * mail addresses and remote paths ("host:path", "user@host") name none.
 * Return: a pointer into arg, or NULL.
 */
const char *fbac_infer_arg_path(const char *arg);

/*
 * The port a URL in arg names ("http://127.0.0.1:8000/x", also inside
 * "mta=smtp://host:2525"), or of "ssh://host:2222". Return: the port
 * (1..65535), or -ENOENT when arg names none.
 */
int fbac_infer_url_port(const char *arg);

/*
 * Whether a path that does not exist yet may be taken for a file the
 * program is to create (its text has a '/' or a '.' other than at the
 * start: "out.png", "build/x"; not "clone" or "-").
 */
bool fbac_infer_looks_like_file(const char *arg);

/*
 * The values that grant the file path (normalised, absolute) and what an
 * editor keeps beside it: its hidden swap and lock files (Vim's and
 * nano's DIR/.NAME.swp, .swo, .swn, .swx), its backup (DIR/NAME~),
 * Vim's write test (DIR/4913) and SQLite's journals (NAME-journal,
 * NAME-wal, NAME-shm); no wildcards (a path parameter takes none). Each written into out[i] (n >= FBAC_INFER_FILE_VALUES entries).
 * Return: the number written, -EINVAL (n too small or path not absolute)
 * or -ENAMETOOLONG.
 */
#define FBAC_INFER_FILE_VALUES 10
int fbac_infer_file_values(const char *path, char out[][4096], size_t n);

/*
 * Write s as a value of the profile language into out: '$' doubled.
 * Return: 0, -EINVAL when s has a ',' (which would split a -D list) or
 * a control character, or -ENAMETOOLONG.
 */
int fbac_infer_escape(const char *s, char *out, size_t size);

/*
 * Whether the working directory cwd may be granted as the folder a tool
 * works in: not "/", not home nor a directory above it (granting those
 * would grant all of the user's files).
 */
bool fbac_infer_cwd_ok(const char *cwd, const char *home);

#endif
