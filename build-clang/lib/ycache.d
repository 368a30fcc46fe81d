build-clang/lib/ycache.o: lib/ycache.c lib/ycache.h lib/yaml-tree.h \
  lib/arena.h lib/macro.h lib/diag.h lib/fbac-limits.h lib/blob.h

lib/ycache.h:

lib/yaml-tree.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:

lib/blob.h:
