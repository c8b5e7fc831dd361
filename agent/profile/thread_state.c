/*
 * thread_state: parsing a list of thread states, for the agent's state= option (jfrconv's --state reads
 * the names a recording holds, which may be the JDK's own).
 */
#include "thread_state.h"

#include <string.h>
#include <strings.h>

unsigned thread_state_parse_list(const char *list) {
    unsigned mask = 0;
    while (list && *list) {
        size_t n = strcspn(list, ",;");
        const char *name = list;
        if (n > 6 && strncasecmp(name, "STATE_", 6) == 0) name += 6, n -= 6;
        unsigned matched = 0;
        for (int s = 0; s < THREAD_STATE_COUNT && n; s++) {
            if (strncasecmp(thread_state_jfr_name(s) + 6, name, n) == 0) matched |= 1u << s;
        }
        if (!matched) return 0;
        mask |= matched;
        list = name + n + (name[n] ? 1 : 0);
    }
    return mask;
}
