build-clang/lib/yaml-tree.o: lib/yaml-tree.c lib/yaml-tree.h lib/arena.h \
  lib/macro.h lib/diag.h lib/fbac-limits.h

lib/yaml-tree.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:
