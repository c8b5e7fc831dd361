#include "class_rewrite.h"

#include <string.h>

bool class_rewrite_hand_over(jvmtiEnv *jvmti, const uint8_t *out, size_t out_len, jint *new_class_data_len,
                             unsigned char **new_class_data) {
    unsigned char *copy = NULL;
    if (out_len > 0x7fffffff || (*jvmti)->Allocate(jvmti, (jlong)out_len, &copy) != JVMTI_ERROR_NONE) return false;
    memcpy(copy, out, out_len);
    *new_class_data = copy;
    *new_class_data_len = (jint)out_len;
    return true;
}
