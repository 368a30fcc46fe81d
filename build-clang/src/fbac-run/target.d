build-clang/src/fbac-run/target.o: src/fbac-run/target.c \
  src/fbac-run/target.h lib/macro.h

src/fbac-run/target.h:

lib/macro.h:
