/*
 * lock_park: java.util.concurrent locks for lock profiling. A thread that waits for such a lock parks in
 * LockSupport.park(blocker) / parkNanos(blocker, n) / parkUntil(blocker, t), each of which calls the private
 * LockSupport.setBlocker(thread, blocker) before parking and setBlocker(thread, null) once unparked. JVMTI
 * has no event for parking, and MethodEntry events would slow every method down; instead the class file
 * rewriter (classfile.h) makes setBlocker start with a call to the helper's parkEdge(), so each park costs
 * two native calls and nothing else runs slower. At the first call the thread's parkBlocker field is still
 * null (a park begins), at the second it holds the blocker (the park ends): the time between them is the
 * wait, the blocker's class the leaf (FRAME_CLASS_PARK). Parks without a blocker (park()) are not seen, and
 * only parks on locks are recorded (ReentrantLock, ReentrantReadWriteLock, Semaphore: lock_blocker), not
 * waits for work or events (an idle pool's queue, Condition.await, CountDownLatch.await).
 * Outside signal handlers; used by engine_lock and engine_instrument's ClassFileLoadHook.
 */
#ifndef LIBPROF_LOCK_PARK_H
#define LIBPROF_LOCK_PARK_H

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rewrites LockSupport and retransforms it: parks on a lock are recorded from now on, picked and weighed by
 * lock_sample.h (the lock engine resets it). 0, or -1 with the reason (then monitors are still recorded). */
int lock_park_start(char *err, size_t errlen);
/* Stops recording and gives LockSupport its original code back. */
void lock_park_stop(void);

/* VMDeath: stopping then leaves LockSupport as it is (retransforming would only slow the exit down). */
void lock_park_vm_death(void);

/* The ClassFileLoadHook's part: true when it handled the class (LockSupport while active). */
bool lock_park_class_file_load_hook(jvmtiEnv *jvmti, const char *name, jint class_data_len,
                                    const unsigned char *class_data, jint *new_class_data_len,
                                    unsigned char **new_class_data);

#endif
