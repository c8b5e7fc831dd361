/* [signal-safe] default_action: see default_action.h. */
#include "default_action.h"

#include <signal.h>
#include <string.h>

void default_action_restore(int signo) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
}

void default_action_raise(int signo) {
    default_action_restore(signo);
    raise(signo);
}
