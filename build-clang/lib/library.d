build-clang/lib/library.o: lib/library.c lib/fbac-limits.h lib/profile.h \
  lib/arena.h lib/macro.h lib/diag.h lib/ops.h lib/yaml-tree.h

lib/fbac-limits.h:

lib/profile.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/ops.h:

lib/yaml-tree.h:
