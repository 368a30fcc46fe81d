/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The privilege vocabulary: operation names, their bits, and what the
 * kernel (Landlock) can enforce of each. One table, used by the parser,
 * the compiler, the explainer and the launcher.
 */
#ifndef FBAC_OPS_H
#define FBAC_OPS_H

#include <stdbool.h>
#include <stdint.h>

enum fbac_op {
	FBAC_OP_FILE_READ,
	FBAC_OP_FILE_WRITE,
	FBAC_OP_FILE_APPEND,
	FBAC_OP_FILE_CREATE,
	FBAC_OP_FILE_DELETE,
	FBAC_OP_FILE_RENAME,
	FBAC_OP_FILE_LINK,
	FBAC_OP_FILE_TRUNCATE,
	FBAC_OP_FILE_EXECUTE,
	FBAC_OP_FILE_GETATTR,
	FBAC_OP_FILE_SETATTR,
	FBAC_OP_FILE_IOCTL,
	FBAC_OP_DIR_READ,
	FBAC_OP_DIR_MKDIR,
	FBAC_OP_DIR_RMDIR,
	FBAC_OP_SPECIAL_CREATE,
	FBAC_OP_UNIX_CONNECT,
	FBAC_OP_UNIX_BIND,
	FBAC_OP_NETWORK_OUTGOING,
	FBAC_OP_NETWORK_INCOMING,
	FBAC_OP_IPC_SIGNAL,
	FBAC_OP_COUNT
};

#define FBAC_OP_BIT(op) (UINT32_C(1) << (op))
#define FBAC_PATH_OPS (FBAC_OP_BIT(FBAC_OP_NETWORK_OUTGOING) - 1)

enum fbac_op_kind {
	FBAC_KIND_PATH,
	FBAC_KIND_NET,
	FBAC_KIND_SIGNAL,
};

/* Landlock access rights (uapi values, defined here because the build
 * host's headers may predate them). */
#define FBAC_LL_FS_EXECUTE (1ULL << 0)
#define FBAC_LL_FS_WRITE_FILE (1ULL << 1)
#define FBAC_LL_FS_READ_FILE (1ULL << 2)
#define FBAC_LL_FS_READ_DIR (1ULL << 3)
#define FBAC_LL_FS_REMOVE_DIR (1ULL << 4)
#define FBAC_LL_FS_REMOVE_FILE (1ULL << 5)
#define FBAC_LL_FS_MAKE_CHAR (1ULL << 6)
#define FBAC_LL_FS_MAKE_DIR (1ULL << 7)
#define FBAC_LL_FS_MAKE_REG (1ULL << 8)
#define FBAC_LL_FS_MAKE_SOCK (1ULL << 9)
#define FBAC_LL_FS_MAKE_FIFO (1ULL << 10)
#define FBAC_LL_FS_MAKE_BLOCK (1ULL << 11)
#define FBAC_LL_FS_MAKE_SYM (1ULL << 12)
#define FBAC_LL_FS_REFER (1ULL << 13)	  /* ABI 2 */
#define FBAC_LL_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define FBAC_LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define FBAC_LL_FS_ALL ((1ULL << 16) - 1)
/* Rights that only make sense on directories (Landlock refuses them on files). */
#define FBAC_LL_FS_DIR_ONLY                                                    \
	(FBAC_LL_FS_READ_DIR | FBAC_LL_FS_REMOVE_DIR | FBAC_LL_FS_REMOVE_FILE |   \
	 FBAC_LL_FS_MAKE_CHAR | FBAC_LL_FS_MAKE_DIR | FBAC_LL_FS_MAKE_REG |      \
	 FBAC_LL_FS_MAKE_SOCK | FBAC_LL_FS_MAKE_FIFO | FBAC_LL_FS_MAKE_BLOCK |   \
	 FBAC_LL_FS_MAKE_SYM | FBAC_LL_FS_REFER)
#define FBAC_LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define FBAC_LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */
#define FBAC_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define FBAC_LL_SCOPE_SIGNAL (1ULL << 1)	/* ABI 6 */

struct fbac_op_info {
	const char *name;
	enum fbac_op_kind kind;
	/* Landlock filesystem rights that allow the operation (0: none). */
	uint64_t landlock_fs;
	/* Whether those rights allow exactly this operation and no other. */
	bool landlock_exact;
	const char *summary;
};

/* The name, bit, kind and Landlock rights of an operation. */
const struct fbac_op_info *fbac_op_info(enum fbac_op op);
/* Return: 0 and *ret_op, or -ENOENT for an unknown name. */
int fbac_op_from_name(const char *name, enum fbac_op *ret_op);
/* The Landlock filesystem rights of every operation in mask. */
uint64_t fbac_ops_landlock_fs(uint32_t mask);

#endif
