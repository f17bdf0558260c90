apps/CMakeFiles/advect.dir/advect.c.o: /work/main/apps/advect.c \
 /usr/include/stdc-predef.h
