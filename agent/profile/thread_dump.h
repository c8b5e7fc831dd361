/*
 * thread_dump: reads the thread list out of HotSpot's thread dump (the Thread.print diagnostic command):
 * one header line per thread, Java and JVM-internal alike,
 *   "C2 CompilerThread0" #7 daemon prio=9 os_prio=0 cpu=38.86ms elapsed=2.98s tid=0x00007f6e60105360 nid=0x188d ...
 *   "VM Thread" os_prio=0 cpu=1.59ms elapsed=3.08s tid=0x00007f6e600f43f0 nid=0x187f runnable
 * nid is the OS thread id, in hex up to JDK 18 and in decimal from JDK 19 on. It is the one place the JVM
 * gives the full names of threads JVMTI hides (compiler threads). Pure function of its input.
 */
#ifndef LIBPROF_THREAD_DUMP_H
#define LIBPROF_THREAD_DUMP_H

/* Calls found(tid, name, arg) for every thread header line of 'dump'. */
void thread_dump_parse(const char *dump, void (*found)(int tid, const char *name, void *arg), void *arg);

#endif
