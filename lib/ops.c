/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ops.h"

#include <errno.h>
#include <string.h>

#include "macro.h"

#define SPECIAL_RIGHTS                                                         \
	(FBAC_LL_FS_MAKE_FIFO | FBAC_LL_FS_MAKE_SOCK | FBAC_LL_FS_MAKE_SYM |      \
	 FBAC_LL_FS_MAKE_CHAR | FBAC_LL_FS_MAKE_BLOCK)

static const struct fbac_op_info ops[FBAC_OP_COUNT] = {
	[FBAC_OP_FILE_READ] = { "file_read", FBAC_KIND_PATH,
				FBAC_LL_FS_READ_FILE, true,
				"read the contents of files" },
	[FBAC_OP_FILE_WRITE] = { "file_write", FBAC_KIND_PATH,
				 FBAC_LL_FS_WRITE_FILE, true,
				 "write to files" },
	/* Landlock cannot tell O_APPEND from any other write. */
	[FBAC_OP_FILE_APPEND] = { "file_append", FBAC_KIND_PATH,
				  FBAC_LL_FS_WRITE_FILE, false,
				  "append to files" },
	[FBAC_OP_FILE_CREATE] = { "file_create", FBAC_KIND_PATH,
				  FBAC_LL_FS_MAKE_REG, true,
				  "create regular files" },
	[FBAC_OP_FILE_DELETE] = { "file_delete", FBAC_KIND_PATH,
				  FBAC_LL_FS_REMOVE_FILE, true,
				  "delete files" },
	/* A rename is a removal plus a creation, and REFER across dirs. */
	[FBAC_OP_FILE_RENAME] = { "file_rename", FBAC_KIND_PATH,
				  FBAC_LL_FS_REFER | FBAC_LL_FS_REMOVE_FILE |
					  FBAC_LL_FS_MAKE_REG |
					  FBAC_LL_FS_REMOVE_DIR |
					  FBAC_LL_FS_MAKE_DIR,
				  false, "rename files and directories" },
	[FBAC_OP_FILE_LINK] = { "file_link", FBAC_KIND_PATH,
				FBAC_LL_FS_REFER | FBAC_LL_FS_MAKE_REG, false,
				"create hard links" },
	[FBAC_OP_FILE_TRUNCATE] = { "file_truncate", FBAC_KIND_PATH,
				    FBAC_LL_FS_TRUNCATE, true,
				    "truncate files" },
	[FBAC_OP_FILE_EXECUTE] = { "file_execute", FBAC_KIND_PATH,
				   FBAC_LL_FS_EXECUTE, true,
				   "execute programs" },
	[FBAC_OP_FILE_GETATTR] = { "file_getattr", FBAC_KIND_PATH, 0, false,
				   "see file metadata (stat, access, readlink)" },
	[FBAC_OP_FILE_SETATTR] = { "file_setattr", FBAC_KIND_PATH, 0, false,
				   "change file metadata (chmod, chown, times, xattrs)" },
	[FBAC_OP_FILE_IOCTL] = { "file_ioctl", FBAC_KIND_PATH,
				 FBAC_LL_FS_IOCTL_DEV, true,
				 "issue ioctls on device files" },
	[FBAC_OP_DIR_READ] = { "dir_read", FBAC_KIND_PATH, FBAC_LL_FS_READ_DIR,
			       true, "list directories" },
	[FBAC_OP_DIR_MKDIR] = { "dir_mkdir", FBAC_KIND_PATH,
				FBAC_LL_FS_MAKE_DIR, true,
				"create directories" },
	[FBAC_OP_DIR_RMDIR] = { "dir_rmdir", FBAC_KIND_PATH,
				FBAC_LL_FS_REMOVE_DIR, true,
				"remove directories" },
	[FBAC_OP_SPECIAL_CREATE] = { "special_create", FBAC_KIND_PATH,
				     SPECIAL_RIGHTS, true,
				     "create symlinks, FIFOs, sockets and device nodes" },
	/* Landlock does not mediate connecting to a named socket. */
	[FBAC_OP_UNIX_CONNECT] = { "unix_connect", FBAC_KIND_PATH, 0, false,
				   "connect to unix sockets" },
	[FBAC_OP_UNIX_BIND] = { "unix_bind", FBAC_KIND_PATH,
				FBAC_LL_FS_MAKE_SOCK, false,
				"bind unix sockets" },
	[FBAC_OP_NETWORK_OUTGOING] = { "network_outgoing", FBAC_KIND_NET, 0,
				       false, "connect or send to hosts" },
	[FBAC_OP_NETWORK_INCOMING] = { "network_incoming", FBAC_KIND_NET, 0,
				       false, "accept connections on ports" },
	[FBAC_OP_IPC_SIGNAL] = { "ipc_signal", FBAC_KIND_SIGNAL, 0, false,
				 "signal processes outside the sandbox" },
};

const struct fbac_op_info *fbac_op_info(enum fbac_op op)
{
	return (unsigned)op < FBAC_OP_COUNT ? &ops[op] : NULL;
}

int fbac_op_from_name(const char *name, enum fbac_op *ret_op)
{
	for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
		if (streq(ops[i].name, name)) {
			*ret_op = (enum fbac_op)i;
			return 0;
		}
	return -ENOENT;
}

uint64_t fbac_ops_landlock_fs(uint32_t mask)
{
	uint64_t r = 0;

	/* Only the bits set: called for every path rule of every policy. */
	mask &= (uint32_t)((UINT64_C(1) << FBAC_OP_COUNT) - 1);
	for (; mask; mask &= mask - 1)
		r |= ops[__builtin_ctz(mask)].landlock_fs;
	return r;
}
