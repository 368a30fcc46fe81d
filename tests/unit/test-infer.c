/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/infer.c: the pure half of inferring parameter values from a
 * program (dpkg file lists, arguments that name paths, editor files).
 */
#include <errno.h>
#include <string.h>

#include "infer.h"
#include "tap.h"

static const char list[] = "/.\n/etc\n/etc/firefox-esr\n/etc/firefox-esr/firefox-esr.js\n"
			   "/usr/lib/firefox-esr\n/usr/lib/firefox-esr/omni.ja\n"
			   "/usr/share/doc/firefox-esr/README.gz\n/usr/share/firefox-esr\n"
			   "/usr/bin/firefox";

static void test_list(void)
{
	static const char *const names[] = { "firefox", "firefox-esr" };
	static const char *const bad[] = { "lib/firefox-esr" };
	char out[64];

	ok(fbac_infer_list_has(list, strlen(list), "/usr/bin/firefox"),
	   "the last line, without a newline, is found");
	ok(fbac_infer_list_has(list, strlen(list), "/etc"), "a first line");
	ok(!fbac_infer_list_has(list, strlen(list), "/usr/bin/fire"),
	   "a prefix of a line is not a line");
	ok(!fbac_infer_list_has(list, strlen(list), "/usr/lib/firefox-esr/omni"),
	   "nor is a prefix of a deeper line");
	ok(!fbac_infer_list_has(list, strlen(list), "firefox"),
	   "nor the end of a line");
	ok(!fbac_infer_list_has(list, strlen(list), ""), "nor nothing");
	is_int(fbac_infer_list_child(list, strlen(list), "/usr/lib", names, 2,
				     out, sizeof(out)), 0, "child of /usr/lib");
	is_str(out, "firefox-esr", "by the package's name");
	is_int(fbac_infer_list_child(list, strlen(list), "/etc", names, 2, out,
				     sizeof(out)), 0, "child of /etc");
	is_str(out, "firefox-esr", "its folder, not the file below it");
	is_int(fbac_infer_list_child(list, strlen(list), "/usr/share/doc",
				     names, 2, out, sizeof(out)), -ENOENT,
	       "a folder dpkg does not list itself is not taken");
	is_int(fbac_infer_list_child(list, strlen(list), "/usr/lib", names, 1,
				     out, sizeof(out)), -ENOENT,
	       "nor another name's folder (no first child taken)");
	is_int(fbac_infer_list_child(list, strlen(list), "/usr/lib", names, 2,
				     out, 4), -ENAMETOOLONG, "a name too long for out");
	is_int(fbac_infer_list_child(list, strlen(list), "/usr", bad, 1, out,
				     sizeof(out)), -ENOENT, "a name with a '/' is refused");
	{
		static const char wget[] = "/.\n/etc\n/etc/wgetrc\n/usr/bin/wget";
		static const char nail[] = "/etc\n/etc/s-nail.rc\n/usr/bin/s-nail";
		static const char *const w[] = { "wget" }, *const sn[] = { "s-nail" };

		is_int(fbac_infer_list_child(wget, strlen(wget), "/etc", w, 1,
					     out, sizeof(out)), 0,
		       "a settings file of /etc named after the program");
		is_str(out, "wgetrc", "NAMErc");
		is_int(fbac_infer_list_child(nail, strlen(nail), "/etc", sn, 1,
					     out, sizeof(out)), 0, "NAME.rc");
		is_str(out, "s-nail.rc", "NAME.rc, whole");
		is_int(fbac_infer_list_child(wget, strlen(wget), "/usr/lib", w,
					     1, out, sizeof(out)), -ENOENT,
		       "only under /etc");
	}
	{
		static const char conf[] = "/etc/x.conf\n/etc/yrc\n/etc/x";
		static const char *const xy[] = { "x", "y" }, *const yx[] = {
			"y", "x"
		};
		static const char nl[] = "/etc/a\nb\n/etc/ab";
		static const char *const a_nl_b[] = { "a\nb" };

		is_int(fbac_infer_list_child(conf, strlen(conf), "/etc", xy, 2,
					     out, sizeof(out)),
		       0, "the candidates in their order");
		is_str(out, "x", "a folder or file named as the program first");
		is_int(fbac_infer_list_child(conf, strlen(conf) - 7, "/etc", xy,
					     2, out, sizeof(out)),
		       0, "then NAMErc, for every name");
		is_str(out, "yrc", "before NAME.conf of the first name");
		is_int(fbac_infer_list_child(conf, strlen(conf) - 15, "/etc",
					     yx, 2, out, sizeof(out)),
		       0, "NAME.conf last");
		is_str(out, "x.conf", "NAME.conf, whole");
		/* As a search of the whole list finds it, across two lines. */
		is_int(fbac_infer_list_child(nl, strlen(nl), "/etc", a_nl_b, 1,
					     out, sizeof(out)),
		       0, "a name with a newline");
		is_str(out, "a\nb", "found as before, across the lines");
	}
}

static void short_name(const char *in, const char *want)
{
	char out[64];

	is_int(fbac_infer_short_name(in, out, sizeof(out)), 0, in);
	is_str(out, want, in);
}

static void test_short_name(void)
{
	char out[3];

	short_name("vim.basic", "vim");
	short_name("python3.11", "python3");
	short_name("convert-im6.q16", "convert");
	short_name("firefox-esr", "firefox-esr");
	short_name(".hidden", ".hidden");
	is_int(fbac_infer_short_name("firefox", out, sizeof(out)),
	       -ENAMETOOLONG, "too long for out");
}

static void arg(const char *in, const char *want)
{
	const char *got = fbac_infer_arg_path(in);

	if (!want)
		ok(!got, "'%s' names no path (%s)", in, got ? got : "NULL");
	else
		is_str(got ? got : "(null)", want, in);
}

static void test_args(void)
{
	arg("notes.txt", "notes.txt");
	arg("/tmp/a b", "/tmp/a b");
	arg("--output=out.png", "out.png");
	arg("-o", NULL);
	arg("--verbose", NULL);
	arg("--x=", NULL);
	arg("-", NULL);
	arg("--", NULL);
	arg("", NULL);
	arg("http://127.0.0.1:8000/x", NULL);
	arg("user@example.org", NULL);
	arg("host:dir/file", NULL);
	arg("./a:b", "./a:b");
	arg("/srv/a@b", "/srv/a@b");
	ok(fbac_infer_looks_like_file("out.png"), "out.png is a new file");
	ok(fbac_infer_looks_like_file("dir/x"), "dir/x is");
	ok(!fbac_infer_looks_like_file("clone"), "clone is a word");
	ok(!fbac_infer_looks_like_file(".x"), ".x alone is not");
}

static void test_url_ports(void)
{
	is_int(fbac_infer_url_port("http://127.0.0.1:8000/x"), 8000, "http");
	is_int(fbac_infer_url_port("mta=smtp://127.0.0.1:2525"), 2525,
	       "inside an option value");
	is_int(fbac_infer_url_port("ssh://git@host:2222/repo"), 2222,
	       "after a user");
	is_int(fbac_infer_url_port("http://[::1]:8080/"), 8080, "IPv6");
	is_int(fbac_infer_url_port("https://example.org/a:b"), -ENOENT,
	       "a colon in the path is no port");
	is_int(fbac_infer_url_port("http://h:/"), -ENOENT, "no digits");
	is_int(fbac_infer_url_port("http://h:99999/"), -ENOENT, "too large");
	is_int(fbac_infer_url_port("http://h:0/"), -ENOENT, "zero");
	is_int(fbac_infer_url_port("http://h:80x/"), -ENOENT, "not a number");
	is_int(fbac_infer_url_port("notes.txt"), -ENOENT, "no URL");
	is_int(fbac_infer_url_port("http://[::1/"), -ENOENT, "a broken IPv6");
}

static void test_files(void)
{
	char out[FBAC_INFER_FILE_VALUES][4096];

	is_int(fbac_infer_file_values("/h/doc/notes.txt", out,
				      FBAC_INFER_FILE_VALUES),
	       FBAC_INFER_FILE_VALUES, "ten values for a file");
	is_str(out[0], "/h/doc/notes.txt", "the file");
	is_str(out[1], "/h/doc/.notes.txt.swp", "its swap and lock file");
	is_str(out[4], "/h/doc/.notes.txt.swx", "vim's other swap files");
	is_str(out[5], "/h/doc/notes.txt~", "its backup");
	is_str(out[6], "/h/doc/4913", "vim's write test");
	is_str(out[7], "/h/doc/notes.txt-journal", "sqlite's journal");
	is_str(out[9], "/h/doc/notes.txt-shm", "and its shared memory");
	is_int(fbac_infer_file_values("/h/x", out, 3), -EINVAL,
	       "too little room");
	is_int(fbac_infer_file_values("x", out, FBAC_INFER_FILE_VALUES),
	       -EINVAL, "not a path");
}

static void test_escape(void)
{
	char out[16];

	is_int(fbac_infer_escape("/a/$b", out, sizeof(out)), 0, "a dollar");
	is_str(out, "/a/$$b", "is doubled");
	is_int(fbac_infer_escape("/a,b", out, sizeof(out)), -EINVAL,
	       "a comma would split a list");
	is_int(fbac_infer_escape("/a\nb", out, sizeof(out)), -EINVAL,
	       "a newline is refused");
	is_int(fbac_infer_escape("/0123456789abcdef", out, sizeof(out)),
	       -ENAMETOOLONG, "too long");
	is_int(fbac_infer_escape("/0123456789abc$", out, sizeof(out)),
	       -ENAMETOOLONG, "too long once doubled");
}

static void test_cwd(void)
{
	ok(fbac_infer_cwd_ok("/home/u/src/p", "/home/u"), "a project folder");
	ok(!fbac_infer_cwd_ok("/home/u", "/home/u"), "not home");
	ok(!fbac_infer_cwd_ok("/home", "/home/u"), "not above home");
	ok(!fbac_infer_cwd_ok("/", "/home/u"), "not /");
	ok(fbac_infer_cwd_ok("/tmp/w", "/home/u"), "elsewhere");
}

int main(void)
{
	plan_no_plan();
	test_list();
	test_short_name();
	test_args();
	test_url_ports();
	test_files();
	test_escape();
	test_cwd();
	return done_testing();
}
