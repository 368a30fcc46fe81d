build-clang/lib/ops.o: lib/ops.c lib/ops.h lib/macro.h

lib/ops.h:

lib/macro.h:
