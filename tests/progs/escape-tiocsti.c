/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 23: TIOCSTI, typing into the controlling terminal. Whatever is
 * pushed into the terminal's input queue is read by the user's shell once
 * the sandboxed program exits: a command line typed there runs outside
 * the sandbox. Run under a pseudo-terminal (script -qc). The program pushes
 * one character with ioctl(TIOCSTI) on stdin and on /dev/tty, also with the
 * request number's upper 32 bits set (the kernel ignores them, a filter
 * comparing all 64 bits would not), and TIOCLINUX; then it reads its own
 * terminal to see whether the character arrived.
 */
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "escape-common.h"

static void check_arrived(const char *how, char c)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	char got[16];
	ssize_t n;

	if (poll(&p, 1, 200) == 1 && (n = read(STDIN_FILENO, got, sizeof(got))) > 0 &&
	    memchr(got, c, (size_t)n))
		esc_escape("%s: '%c' was typed into the terminal", how, c);
	else
		esc_say("%s: returned 0, but nothing arrived", how);
}

int main(void)
{
	struct termios t;
	char c = 'Q';
	long r;
	int tty;

	esc_init("tiocsti", "ioctl(TIOCSTI) and TIOCLINUX into the controlling terminal");
	if (!isatty(STDIN_FILENO))
		esc_setup_error("stdin is not a terminal (run under script -qc)");
	esc_control("stdin is a terminal");
	/* Raw mode, so that a single character can be read back. */
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}

	r = ioctl(STDIN_FILENO, TIOCSTI, &c);
	if (r == 0)
		check_arrived("TIOCSTI on stdin", c);
	else
		esc_say("TIOCSTI on stdin: %m (held)");

	c = 'W';
	r = syscall(SYS_ioctl, STDIN_FILENO, (unsigned long)TIOCSTI | (1UL << 32), &c);
	if (r == 0)
		check_arrived("TIOCSTI | 1<<32 on stdin", c);
	else
		esc_say("TIOCSTI | 1<<32 on stdin: %m (held)");

	tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (tty >= 0) {
		c = 'E';
		if (ioctl(tty, TIOCSTI, &c) == 0)
			check_arrived("TIOCSTI on /dev/tty", c);
		else
			esc_say("TIOCSTI on /dev/tty: %m (held)");
		close(tty);
	} else
		esc_say("open /dev/tty: %m");

	{
		char sub[2] = { 11, 0 }; /* TIOCL_GETKMSGREDIRECT, harmless */

		r = ioctl(STDIN_FILENO, TIOCLINUX, sub);
		esc_say("TIOCLINUX: %s", r == 0 ? "worked (not a VT: harmless)" :
						  strerror(errno));
	}
	return esc_finish();
}
