/*
 * [signal-safe] perf_sigtrap: the perf engine's second way to signal a sample. An event opened with
 * perf_event_attr.sigtrap sends SIGTRAP (si_code TRAP_PERF, si_perf_data = the value set at open) to the
 * thread it measured, from task work run as the thread returns to user space. F_SETSIG delivery instead goes
 * through an irq_work item, which raises a self-interrupt on the sampled CPU: on a virtual machine one more
 * exit to the hypervisor per sample (what each costs: docs/performance.md).
 *
 * Linux 6.15 or later only (engine_perf.c, sigtrap_refusal, says why).
 * SIGTRAP is the debugger's and the breakpoint's signal too: engine_perf uses it only where no debugger
 * traces the process, and this handler passes every SIGTRAP that is not one of our events' to what the
 * application set for SIGTRAP (sigtrap_guard.h: its handler, or the default action, so that a breakpoint
 * still ends the process with its core dump). Installed by engine_install_handler(SIGTRAP); when a session
 * ends it stays unless the application set a SIGTRAP action of its own meanwhile (sigtrap_guard_end): a
 * signal of an event being closed may still arrive after the session.
 */
#ifndef LIBPROF_PERF_SIGTRAP_H
#define LIBPROF_PERF_SIGTRAP_H

#include <signal.h>
#include <stdbool.h>

/* si_perf_data of our events' signals ("libpf"): tells them from another tool's sigtrap events. */
#define PERF_SIGTRAP_COOKIE 0x6c69627066ULL

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/* True for a SIGTRAP sent by one of our perf events. */
bool perf_sigtrap_is_ours(const siginfo_t *info);

/* SIGTRAP's handler: our events' signals to the sample handler, any other to the application's action. */
void perf_sigtrap_handler(int signo, siginfo_t *info, void *ucontext);

#endif
