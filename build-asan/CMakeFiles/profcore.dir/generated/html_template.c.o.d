CMakeFiles/profcore.dir/generated/html_template.c.o: \
 /work/main/build-asan/generated/html_template.c \
 /usr/include/stdc-predef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h
