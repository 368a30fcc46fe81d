build-clang/src/fbac-run/filter.o: src/fbac-run/filter.c \
  src/fbac-run/filter.h src/common/cache.h lib/env.h lib/arena.h \
  lib/macro.h lib/checksum.h src/common/output.h lib/diag.h \
  lib/fbac-limits.h

src/fbac-run/filter.h:

src/common/cache.h:

lib/env.h:

lib/arena.h:

lib/macro.h:

lib/checksum.h:

src/common/output.h:

lib/diag.h:

lib/fbac-limits.h:
