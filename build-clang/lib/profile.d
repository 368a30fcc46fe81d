build-clang/lib/profile.o: lib/profile.c lib/profile.h lib/arena.h \
  lib/macro.h lib/diag.h lib/fbac-limits.h lib/ops.h lib/yaml-tree.h \
  lib/path.h

lib/profile.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

lib/path.h:
