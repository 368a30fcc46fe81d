build-clang/src/common/cache.o: src/common/cache.c src/common/cache.h \
  lib/env.h lib/arena.h lib/macro.h

src/common/cache.h:

lib/env.h:

lib/arena.h:

lib/macro.h:
