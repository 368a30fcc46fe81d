build-clang/lib/path.o: lib/path.c lib/path.h lib/fbac-limits.h

lib/path.h:

lib/fbac-limits.h:
