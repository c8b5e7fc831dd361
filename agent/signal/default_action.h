/*
 * [signal-safe] default_action: a signal that is not ours, arriving where nothing handled it before our
 * handler, gets the action it would have had without us. Used by the fault handler's chain (safe_fault) and
 * by SIGTRAP's handler (perf_sigtrap).
 */
#ifndef LIBPROF_DEFAULT_ACTION_H
#define LIBPROF_DEFAULT_ACTION_H

/* Sets signo's disposition back to SIG_DFL. */
void default_action_restore(int signo);

/* SIG_DFL again, and signo raised: blocked while the handler runs, it acts as the handler returns (for a
 * fault or a trap, the process ends as it would have, with its core dump). */
void default_action_raise(int signo);

#endif
