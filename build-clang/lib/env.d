build-clang/lib/env.o: lib/env.c lib/env.h lib/arena.h lib/macro.h \
  lib/fbac-limits.h lib/path.h

lib/env.h:

lib/arena.h:

lib/macro.h:

lib/fbac-limits.h:

lib/path.h:
