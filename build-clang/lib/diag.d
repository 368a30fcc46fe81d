build-clang/lib/diag.o: lib/diag.c lib/diag.h lib/fbac-limits.h \
  lib/macro.h

lib/diag.h:

lib/fbac-limits.h:

lib/macro.h:
