/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every user-controlled quantity has a hard limit, and they all live here.
 * A limit that is hit is an error naming it, never a silent truncation.
 */
#ifndef FBAC_LIMITS_H
#define FBAC_LIMITS_H

/* Profile files and YAML structure. */
#define FBAC_MAX_FILE_SIZE (1024 * 1024) /* bytes in one profile file */
#define FBAC_MAX_FILES 4096		 /* profile files in all layers */
#define FBAC_MAX_LOAD_THREADS 4		 /* threads parsing profiles at once */
#define FBAC_MAX_SANDBOX_SCAN 8192	 /* processes searched for a pty master */
#define FBAC_MAX_CACHE_SIZE (64 * 1024 * 1024) /* bytes of parsed-profile cache */
#define FBAC_MAX_DIR_DEPTH 8		 /* sub-directory depth of a layer */
#define FBAC_MAX_YAML_DEPTH 32		 /* nesting of YAML collections */
#define FBAC_MAX_YAML_NODES 200000	 /* nodes parsed from one file */
#define FBAC_MAX_YAML_VISITS 200000	 /* nodes visited incl. alias expansion */
#define FBAC_MAX_SCALAR 4096		 /* bytes in one scalar */
#define FBAC_MAX_HELD_FDS 256		 /* rule objects held open at launch */
#define FBAC_MAX_STACK_CACHES 64	 /* compiled stacks kept in the cache */
/* Bytes of a stack cache entry's key (its inputs, spelt out). */
#define FBAC_MAX_SCACHE_KEY (1024 * 1024)

/* The policy model. */
#define FBAC_MAX_FUNCTIONALITIES 4096 /* over all layers */
#define FBAC_MAX_APPLICATIONS 4096    /* over all layers */
#define FBAC_MAX_PARAMS 64	      /* parameters of one functionality */
#define FBAC_MAX_INCLUDE_DEPTH 32     /* nesting of includes */
#define FBAC_MAX_NAME 64	      /* functionality/application/param name */
#define FBAC_MAX_STRING 256	      /* a string parameter value */
#define FBAC_MAX_LIST 1024	      /* elements of one list value */
#define FBAC_MAX_RULES 65536	      /* compiled rules of one policy */
#define FBAC_MAX_EXPANSIONS 262144    /* rules produced while resolving */
#define FBAC_MAX_PORT_RULES 4096      /* expanded ports given to Landlock */
#define FBAC_MAX_LAYERS 16	      /* policy layers stacked on a program */
#define FBAC_MAX_EXECUTABLES 64	      /* executables of one application */
#define FBAC_MAX_FALLBACK_ARGS 8      /* options of one 'sandbox_fallback' */
#define FBAC_MAX_FALLBACK_ARG 256     /* bytes of one of them */
#define FBAC_MAX_DEFINES 256	      /* -D arguments on a command line */
#define FBAC_MAX_PATH 4096	      /* a path or pattern, with its NUL */
#define FBAC_MAX_PATH_DEPTH 256	      /* components of a path */
#define FBAC_MAX_VALUE_PIECES 64      /* texts and $references in one value */
#define FBAC_MAX_ENV_VARS 32	      /* built-in variables: $HOME, $XDG_* */
#define FBAC_MAX_DIAG 512	      /* one diagnostic message */
#define FBAC_MAX_PROBLEMS 50	      /* problems printed in one run */

/* What fbac new reads about a program (lib/elf.c, lib/desktop.c). */
#define FBAC_MAX_ELF_NEEDED 512	      /* DT_NEEDED entries of one executable */
#define FBAC_MAX_ELF_IMPORTS 65536    /* undefined dynamic symbols of one executable */
#define FBAC_MAX_ELF_SIZE (256 * 1024 * 1024) /* bytes of an executable read */
#define FBAC_MAX_DESKTOP_CATEGORIES 64 /* Categories of one desktop entry */
#define FBAC_MAX_INFO_FILE (64 * 1024 * 1024) /* bytes of dpkg status, a .list or .desktop */

/* fbac wrap. */
#define FBAC_MAX_WRAPPER_SIZE 16384    /* bytes of a wrapper script fbac reads back */
#define FBAC_MAX_DESKTOP_SIZE (256 * 1024) /* bytes of a .desktop entry copied */
#define FBAC_MAX_DESKTOP_FILES 4096    /* .desktop entries searched per directory */

/* Learning a policy (fbac learn, fbac-run --learn). */
#define FBAC_MAX_LOG_LINE 16384	     /* bytes in one line of a --log file */
#define FBAC_MAX_LEARN_OBS 65536     /* distinct accesses learnt from */
#define FBAC_MAX_LEARN_LOGS 64	     /* log files given to fbac learn */
#define FBAC_MAX_LEARN_VALUES 20     /* values tried for one parameter */
#define FBAC_MAX_LEARN_CARVE 16	     /* rules carved out of one functionality */

/* fbac new and the inference from a command line (src/fbac/, src/common/). */
#define FBAC_MAX_DRAFT_ITEMS 32	 /* functionalities a drafted policy grants */
#define FBAC_MAX_ANSWER_ITEMS 32 /* values of one parameter fbac new asks for */
#define FBAC_MAX_INFER_NAMES 4	 /* names inferred for one parameter */
#define FBAC_MAX_INFER_PATHS 64	 /* paths inferred from one command line */
#define FBAC_MAX_INFER_PORTS 16	 /* ports inferred from one command line */
/* Named transitions of an exported AppArmor profile (AppArmor takes ~14). */
#define FBAC_MAX_AA_TARGETS 12

/* fbac-run: launch and supervision. */
/* EXECUTE rules listed per stack entry at launch, and the directory levels
 * listed for them: beyond, what is not listed is not granted (fail closed). */
#define FBAC_MAX_EXPAND_RULES 4096
#define FBAC_MAX_EXPAND_DEPTH 16
/* Entries of one directory listed for the program's narrow read rules: past
 * it none are, and what is read there is opened by the supervisor. */
#define FBAC_MAX_NARROW_LISTED 64
#define FBAC_MAX_SEND (4u << 20) /* bytes of one send fbac-run copies */
#define FBAC_MAX_CONTROL 4096	 /* bytes of ancillary data of one send */
#define FBAC_MAX_IOV 1024 /* iovecs of one send, messages of one sendmmsg */
#define FBAC_MAX_INTERP_DEPTH 4	 /* nested #! interpreters: the kernel's */
#define FBAC_MAX_DENIAL_LINES 64 /* printed per run; the rest are counted */
#define FBAC_MAX_DENIALS_REMEMBERED 512 /* distinct denials, for dedup */
/* Path verdicts remembered per run (lib/vcache.c), and the longest path
 * kept: a longer one is decided again each time. */
#define FBAC_VCACHE_SLOTS 512
#define FBAC_VCACHE_PATH 192
/* Directories held open (O_PATH) and watched, names looked up in them
 * with no walk (src/fbac-run/landlock-watch.c). */
#define FBAC_MAX_KNOWN_DIRS 64
/* Fast-path checks a run makes by walking before it watches instead: an
 * inotify instance costs 4-14 ms at exit here (bench-interleave of a
 * program that makes one against one that does not), which the watch
 * saves back (about 1-1.5 us a call) only after some 10,000 calls. */
#define FBAC_WATCH_AFTER 32768
/* Nested runs registered with one supervisor at once (a bit each in a
 * 32-bit mask); past it a nested run falls back to its own layers. */
#define FBAC_MAX_NESTED 32
/* Bytes of the stack a nested run hands over (a sealed memfd): a stack
 * as the stack cache holds it, which is far smaller than this. */
#define FBAC_MAX_NEST_STACK (16 * 1024 * 1024)
/* Processes whose nested runs are remembered, and the parent chain walked
 * to find them: past the depth, a process is under every registration. */
#define FBAC_MAX_NEST_CACHE 512
#define FBAC_MAX_NEST_DEPTH 64

/* Denials: hints and the per-user log. */
#define FBAC_MAX_HINT_TRIES 16      /* -D hints tried for one denial */
#define FBAC_MAX_HINT_VALUE 1024    /* bytes of one -D value suggested */
#define FBAC_MAX_DENIAL_LOG (4 * 1024 * 1024) /* bytes of the per-user denial log before it rotates, and logged by one run */

#endif
