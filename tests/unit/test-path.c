/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/path.c: normalisation of absolute paths and the glob patterns of the
 * profile language (docs/profile-language.md, "Patterns").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"
#include "tap.h"

static void normalize_ok(const char *in, const char *want)
{
	char out[FBAC_MAX_PATH];
	const char *why = NULL;
	int r = fbac_path_normalize(in, out, sizeof(out), &why);

	if (!is_int(r, 0, "normalize succeeds")) {
		diag("input '%s': %s", in, why ? why : "?");
		return;
	}
	is_str(out, want, in);
	ok(fbac_path_is_normal(out), "result of '%s' is normal", in);
}

static void normalize_fails(const char *in, int err, const char *why_part)
{
	char out[FBAC_MAX_PATH];
	const char *why = NULL;
	int r = fbac_path_normalize(in, out, sizeof(out), &why);

	is_int(r, err, in[0] ? in : "(empty)");
	ok(why && strstr(why, why_part), "reason for '%.40s' mentions '%s' (%s)",
	   in, why_part, why ? why : "NULL");
}

static void test_normalize(void)
{
	char out[FBAC_MAX_PATH], small[8];
	const char *why = NULL;
	char *big;
	size_t o;

	normalize_ok("/", "/");
	normalize_ok("//", "/");
	normalize_ok("///", "/");
	normalize_ok("/.", "/");
	normalize_ok("/./", "/");
	normalize_ok("/./.", "/");
	normalize_ok("/a", "/a");
	normalize_ok("/a/b", "/a/b");
	normalize_ok("/a/b/", "/a/b");
	normalize_ok("/a/b//", "/a/b");
	normalize_ok("//a//b//", "/a/b");
	normalize_ok("/a/./b", "/a/b");
	normalize_ok("/a/./b/.", "/a/b");
	normalize_ok("/./a", "/a");
	normalize_ok("/a/.b", "/a/.b");
	normalize_ok("/a/..b", "/a/..b");
	normalize_ok("/a/b..", "/a/b..");
	normalize_ok("/...", "/...");
	normalize_ok("/a/*/b/**", "/a/*/b/**");
	normalize_ok("/home/u/.ssh/", "/home/u/.ssh");

	normalize_fails("", -EINVAL, "absolute");
	normalize_fails("a", -EINVAL, "absolute");
	normalize_fails("a/b", -EINVAL, "absolute");
	normalize_fails("./a", -EINVAL, "absolute");
	normalize_fails("~/a", -EINVAL, "absolute");
	normalize_fails("/..", -EINVAL, "..");
	normalize_fails("/a/..", -EINVAL, "..");
	normalize_fails("/a/../b", -EINVAL, "..");
	normalize_fails("/a/b/../../c", -EINVAL, "..");
	normalize_fails("/a/./../b", -EINVAL, "..");

	/* Too long: more bytes than FBAC_MAX_PATH. */
	big = malloc(2 * FBAC_MAX_PATH);
	if (!big)
		abort();
	o = 0;
	while (o < FBAC_MAX_PATH + 10) {
		memcpy(big + o, "/abcdefgh", 9);
		o += 9;
	}
	big[o] = 0;
	is_int(fbac_path_normalize(big, out, sizeof(out), &why), -ENAMETOOLONG,
	       "a path longer than FBAC_MAX_PATH is refused");
	ok(why && strstr(why, "long"), "reason says too long");

	/* Exactly at the limit of the output buffer. */
	is_int(fbac_path_normalize("/abcdef", small, sizeof(small), &why), 0,
	       "a path that just fits the output buffer");
	is_str(small, "/abcdef", "...and is copied whole");
	is_int(fbac_path_normalize("/abcdefg", small, sizeof(small), &why),
	       -ENAMETOOLONG, "one byte more does not fit");
	is_int(fbac_path_normalize("/a/./b//", small, 5, &why), 0,
	       "what counts is the normalised length");
	is_str(small, "/a/b", "...which fits");

	/* Too deep: more than FBAC_MAX_PATH_DEPTH components. */
	o = 0;
	for (int i = 0; i < FBAC_MAX_PATH_DEPTH; i++) {
		big[o++] = '/';
		big[o++] = 'x';
	}
	big[o] = 0;
	is_int(fbac_path_normalize(big, out, sizeof(out), &why), 0,
	       "FBAC_MAX_PATH_DEPTH components are allowed");
	big[o++] = '/';
	big[o++] = 'x';
	big[o] = 0;
	is_int(fbac_path_normalize(big, out, sizeof(out), &why), -ENAMETOOLONG,
	       "one component more is refused");
	/* '.' components do not count towards the depth. */
	o = 0;
	for (int i = 0; i < FBAC_MAX_PATH_DEPTH + 20; i++) {
		memcpy(big + o, "/.", 2);
		o += 2;
	}
	memcpy(big + o, "/x", 3);
	is_int(fbac_path_normalize(big, out, sizeof(out), &why), 0,
	       "'.' components are not counted as depth");
	is_str(out, "/x", "...and vanish");
	free(big);
}

static void test_is_normal(void)
{
	static const char *const yes[] = {
		"/", "/a", "/a/b", "/.a", "/a/.b", "/...", "/a/*", "/a/**",
	};
	static const char *const no[] = {
		"", "a", "a/b", "//", "/a/", "/a//b", "/.", "/./a", "/a/.",
		"/a/./b", "/..", "/a/..", "/a/../b",
	};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ok(fbac_path_is_normal(yes[i]), "'%s' is normal", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ok(!fbac_path_is_normal(no[i]), "'%s' is not normal", no[i]);
}

static void test_wildcard(void)
{
	ok(!fbac_has_wildcard("/a/b"), "no wildcard in /a/b");
	ok(fbac_has_wildcard("/a/*"), "'*' is a wildcard");
	ok(fbac_has_wildcard("/a/b?"), "'?' is a wildcard");
	ok(fbac_has_wildcard("/**"), "'**' is a wildcard");
}

static void test_pattern_check(void)
{
	static const char *const good[] = {
		"/",	 "/a",	    "/a/*",	"/a/*/b", "/a/**", "/**",
		"/**/b", "/a/**/b", "/a/?",	"/a/*.c", "/a/**/*.c",
		"/a/b*c/**",
	};
	static const char *const bad[] = {
		"/a**",	  "/**a",   "/a/**b", "/a/b**", "/a/b**/c", "/a/x**y",
		"/***",	  "/a/***", "/**.c",  "/a/**c/d",
		/* the redundant '**' + '/' + '**' (fbac-profile(5)) */
		"/a/**/**", "/**/**", "/a/**/**/b",
	};
	const char *why;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		why = NULL;
		is_int(fbac_pattern_check(good[i], &why), 0, good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		is_int(fbac_pattern_check(bad[i], &why), -EINVAL, bad[i]);
		ok(why && strstr(why, "**"), "reason for '%s' names '**' (%s)",
		   bad[i], why ? why : "NULL");
	}
}

static void test_prefix_len(void)
{
	static const struct {
		const char *pattern;
		size_t len;
	} cases[] = {
		{ "/", 1 },	     { "/a", 2 },	  { "/a/b", 4 },
		{ "/a/b/x*", 4 },    { "/*", 1 },	  { "/**", 1 },
		{ "/x*", 1 },	     { "/a/**", 2 },	  { "/a?/b", 1 },
		{ "/a/b*c/d", 2 },   { "/a/b/c/**/d", 6 }, { "/a/b/?", 4 },
		{ "/usr/lib/*.so", 8 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(fbac_pattern_prefix_len(cases[i].pattern), cases[i].len,
		       cases[i].pattern);
}

static void test_match(void)
{
	static const struct {
		const char *pattern, *path;
		bool match;
	} cases[] = {
		/* literal */
		{ "/", "/", true },
		{ "/", "/a", false },
		{ "/a", "/a", true },
		{ "/a", "/b", false },
		{ "/a", "/a/b", false },
		{ "/a/b", "/a", false },
		{ "/a/b", "/a/bc", false },
		/* '*': any run within one component */
		{ "/a/*", "/a/b", true },
		{ "/a/*", "/a", false },
		{ "/a/*", "/a/b/c", false },
		{ "/a*", "/a", true },
		{ "/a*", "/abc", true },
		{ "/a*", "/b", false },
		{ "/a/*.txt", "/a/x.txt", true },
		{ "/a/*.txt", "/a/.txt", true },
		{ "/a/*.txt", "/a/x/y.txt", false },
		{ "/a/*.txt", "/a/x.txt.bak", false },
		{ "/a/*b*", "/a/abc", true },
		{ "/a/*b*", "/a/ac", false },
		{ "/a/*x", "/a/xxx", true },
		{ "/a/*ab", "/a/aab", true },
		{ "/a/*ab", "/a/aba", false },
		{ "/*/b", "/a/b", true },
		{ "/*/b", "/a/c/b", false },
		{ "/a/*", "/a/*", true },
		/* '?': one character, never '/' */
		{ "/a/?", "/a/b", true },
		{ "/a/?", "/a/bc", false },
		{ "/a/?", "/a", false },
		{ "/a/??", "/a/xy", true },
		{ "/a/??", "/a/x", false },
		{ "/a/b?d", "/a/bcd", true },
		{ "/a/b?d", "/a/b/d", false },
		/* '**': zero or more whole components */
		{ "/a/**", "/a", true },
		{ "/a/**", "/a/b", true },
		{ "/a/**", "/a/b/c/d", true },
		{ "/a/**", "/ab", false },
		{ "/a/**", "/b/a", false },
		{ "/a/**", "/", false },
		{ "/a/**/b", "/a/b", true },
		{ "/a/**/b", "/a/x/b", true },
		{ "/a/**/b", "/a/x/y/b", true },
		{ "/a/**/b", "/a/b/b", true },
		{ "/a/**/b", "/a/x/y/c", false },
		{ "/a/**/b", "/a/b/c", false },
		{ "/a/**/b", "/a/xb", false },
		{ "/a/**/b/c", "/a/b/x/b/c", true },
		{ "/a/**/b/**/c", "/a/b/c", true },
		{ "/a/**/b/**/c", "/a/x/b/y/z/c", true },
		{ "/a/**/b/**/c", "/a/x/c/b", false },
		{ "/a/**/*.c", "/a/main.c", true },
		{ "/a/**/*.c", "/a/x/y/main.c", true },
		{ "/a/**/*.c", "/a/x/y/main.h", false },
		{ "/a/*/**", "/a", false },
		{ "/a/*/**", "/a/b", true },
		{ "/a/*/**", "/a/b/c", true },
		{ "/**", "/", true },
		{ "/**", "/anything/at/all", true },
		{ "/**/b", "/b", true },
		{ "/**/b", "/x/y/b", true },
		{ "/**/b", "/x/y/bb", false },
		/* hidden files are not special */
		{ "/**", "/.hidden", true },
		{ "/home/*", "/home/.ssh", true },
		{ "/home/**", "/home/u/.ssh/id_rsa", true },
		{ "/home/.*", "/home/.ssh", true },
		{ "/home/.*", "/home/ssh", false },
		{ "/home/u/*/x", "/home/u/.cache/x", true },
		{ "/home/u/?ssh", "/home/u/.ssh", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(fbac_pattern_match(cases[i].pattern, cases[i].path) ==
			   cases[i].match,
		   "'%s' %s '%s'", cases[i].pattern,
		   cases[i].match ? "matches" : "does not match", cases[i].path);
}

static void test_match_deep(void)
{
	/* A long '**' search must stay linear-ish and correct. */
	char path[FBAC_MAX_PATH];
	size_t o = 0;

	for (int i = 0; i < 200; i++) {
		memcpy(path + o, "/a", 2);
		o += 2;
	}
	memcpy(path + o, "/b", 3);
	ok(fbac_pattern_match("/**/a/**/a/**/a/**/b", path),
	   "several '**' over 200 components");
	ok(!fbac_pattern_match("/**/a/**/a/**/a/**/c", path),
	   "and a miss at the end");
	ok(fbac_pattern_match("/a/**", path), "'/a/**' reaches 201 components");
}

static void test_is_under(void)
{
	static const struct {
		const char *path, *dir;
		bool under;
	} cases[] = {
		{ "/a", "/a", true },	     { "/a/b", "/a", true },
		{ "/a/b/c", "/a", true },    { "/a/b/c", "/a/b", true },
		{ "/ab", "/a", false },	     { "/a", "/a/b", false },
		{ "/a/bc", "/a/b", false },  { "/b", "/a", false },
		{ "/x", "/", true },	     { "/", "/", true },
		{ "/home/u/.sshx", "/home/u/.ssh", false },
		{ "/home/u/.ssh/id", "/home/u/.ssh", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(fbac_path_is_under(cases[i].path, cases[i].dir) ==
			   cases[i].under,
		   "'%s' is %sunder '%s'", cases[i].path,
		   cases[i].under ? "" : "not ", cases[i].dir);
}

static void test_depth(void)
{
	is_int(fbac_path_depth("/", 1), 0, "'/' has depth 0");
	is_int(fbac_path_depth("/a", 2), 1, "'/a' has depth 1");
	is_int(fbac_path_depth("/a/b", 4), 2, "'/a/b' has depth 2");
	is_int(fbac_path_depth("/a/b/c", 4), 2, "a prefix of '/a/b/c'");
}

int main(void)
{
	plan_no_plan();
	test_normalize();
	test_is_normal();
	test_wildcard();
	test_pattern_check();
	test_prefix_len();
	test_match();
	test_match_deep();
	test_is_under();
	test_depth();
	return done_testing();
}
