build-clang/lib/arena.o: lib/arena.c lib/arena.h lib/macro.h

lib/arena.h:

lib/macro.h:
