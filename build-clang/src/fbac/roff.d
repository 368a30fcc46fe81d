build-clang/src/fbac/roff.o: src/fbac/roff.c src/fbac/roff.h \
  lib/yaml-tree.h lib/arena.h lib/macro.h lib/diag.h lib/fbac-limits.h

src/fbac/roff.h:

lib/yaml-tree.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:
