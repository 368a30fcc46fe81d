build-clang/src/fbac/list-man-entry.o: src/fbac/list-man-entry.c \
  src/fbac/list-man.h lib/profile.h lib/arena.h lib/macro.h lib/diag.h \
  lib/fbac-limits.h lib/ops.h lib/yaml-tree.h src/fbac/roff.h

src/fbac/list-man.h:

lib/profile.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

src/fbac/roff.h:
