/*
 * compile_task_init: installs signal/compile_task's layout (the compile_method functions in libjvm, the way
 * from a compiler thread to the method it compiles), outside handlers.
 */
#ifndef LIBPROF_COMPILE_TASK_INIT_H
#define LIBPROF_COMPILE_TASK_INIT_H

#include <stdbool.h>
#include <stddef.h>

/* false, with the reason in err, when this JVM does not describe its compile tasks or its libjvm has no
 * symbols for compile_method. Needs the native map (native_map_refresh) of libjvm. */
bool compile_task_init(char *err, size_t errlen);

#endif
