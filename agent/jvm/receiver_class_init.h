/*
 * receiver_class_init: installs signal/receiver_class' layout (the way from an object to its class name)
 * from the VM structure tables and flags, outside handlers.
 */
#ifndef LIBPROF_RECEIVER_CLASS_INIT_H
#define LIBPROF_RECEIVER_CLASS_INIT_H

#include <stdbool.h>
#include <stddef.h>

/* false, with the reason in err, when this JVM does not describe its object headers and class names. */
bool receiver_class_init(char *err, size_t errlen);

#endif
