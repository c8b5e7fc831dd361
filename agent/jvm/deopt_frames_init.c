/*
 * deopt_frames_init: finds in the VM structure tables what signal/deopt_frames reads a deoptimisation in
 * progress with (deopt_frames.h), and installs it. Outside handlers, with the rest of walk_vm's layout.
 */
#include "deopt_frames_init.h"

#include "deopt_frames.h"
#include "thread_state_init.h"
#include "vmstructs.h"

bool deopt_frames_init(void) {
    deopt_frames_layout l = {0};
    uint64_t array_size;
    unsigned width;
    if (!thread_state_env_offset(&l.env_offset) ||
        !vmstructs_field("JavaThread", "_vframe_array_head", &l.array_head, &width) || width != 8 ||
        !vmstructs_field("vframeArray", "_frames", &l.frames, &width) || width != 4 ||
        !vmstructs_field_offset("vframeArray", "_caller", &l.caller) ||
        !vmstructs_field("vframeArrayElement", "_method", &l.element_method, &width) || width != 8 ||
        !vmstructs_field("vframeArrayElement", "_bci", &l.element_bci, &width) || width != 4 ||
        !vmstructs_type_size("vframeArray", &array_size) ||
        !vmstructs_type_size("vframeArrayElement", &l.element_size) || !l.element_size ||
        array_size < l.element_size)
        return false;
    /* vframeArrayElement _elements[1] is vframeArray's last member, and both are multiples of the
     * element's (pointer) alignment: no padding after it. */
    l.elements = array_size - l.element_size;
    deopt_frames_set_layout(&l);
    return true;
}
