/*
 * perf_transfer: the wire format between the agent and jprof's fdtransfer helper. A JVM that may not open
 * perf events itself (kernel.perf_event_paranoid, no CAP_PERFMON) asks the helper, which jprof started with
 * its own privileges before becoming the JVM's user, to open each event for it: one request per event over a
 * unix stream socket in the abstract namespace, answered by an error number and, on success, the event's
 * descriptor (SCM_RIGHTS). The helper serves only the process it was started for (the peer's credentials) and
 * only threads of that process. Header only: the agent (engines/perf_fdtransfer.c) and jprof
 * (attach/fdtransfer_helper.c) are built from the same definitions, so the attribute's size matches.
 */
#ifndef LIBPROF_PERF_TRANSFER_H
#define LIBPROF_PERF_TRANSFER_H

#include <linux/perf_event.h>
#include <stdint.h>

#define PERF_TRANSFER_MAGIC 0x4c504654u   /* "LPFT" */
#define PERF_TRANSFER_PREFIX "libprof-fdtransfer-"
/* The socket's name without the abstract namespace's leading NUL: PREFIX<jprof pid>-<random>. */
#define PERF_TRANSFER_NAME_MAX 64

typedef struct {
    uint32_t magic;
    int32_t tid;                  /* a thread of the requesting process, as the helper's /proc sees it */
    int32_t cpu;                  /* -1: wherever the thread runs; else that CPU only (target-cpu) */
    uint32_t reserved;
    struct perf_event_attr attr;  /* attr.size == sizeof(struct perf_event_attr) */
} perf_transfer_request;

typedef struct {
    uint32_t magic;
    int32_t error;                /* 0: the descriptor follows as SCM_RIGHTS; else perf_event_open's errno */
} perf_transfer_reply;

#endif
