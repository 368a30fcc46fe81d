build-clang/src/common/output.o: src/common/output.c src/common/output.h \
  lib/diag.h lib/fbac-limits.h lib/macro.h

src/common/output.h:

lib/diag.h:

lib/fbac-limits.h:

lib/macro.h:
