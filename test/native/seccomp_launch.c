/*
 * seccomp_launch: runs a command under a seccomp filter that kills the process on process_vm_readv, as a
 * systemd unit's SystemCallFilter does with its default action. Every other system call is
 * allowed. "seccomp_launch --selftest" checks that the filter really kills: a child under it calls
 * process_vm_readv and must die of SIGSYS (exit 0 when it did).
 * Usage: seccomp_launch --selftest | seccomp_launch program [args...]
 */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int install_filter(void) {
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof(code) / sizeof(code[0])), code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        perror("seccomp_launch: PR_SET_NO_NEW_PRIVS");
        return -1;
    }
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        perror("seccomp_launch: seccomp");
        return -1;
    }
    return 0;
}

static int selftest(void) {
    pid_t child = fork();
    if (child == 0) {
        long word = 0, target = 42;
        struct iovec local = {&word, sizeof(word)}, remote = {&target, sizeof(target)};
        if (install_filter() != 0) _exit(2);
        syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, &remote, 1UL, 0UL);
        _exit(3);   /* still alive: the filter did not kill */
    }
    int status;
    if (child < 0 || waitpid(child, &status, 0) != child) return 1;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
        printf("seccomp_launch: process_vm_readv killed the child with SIGSYS\n");
        return 0;
    }
    printf("seccomp_launch: the child was not killed by SIGSYS (status 0x%x)\n", status);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s --selftest | program [args...]\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "--selftest") == 0) return selftest();
    if (install_filter() != 0) return 2;
    execvp(argv[1], argv + 1);
    perror("seccomp_launch: exec");
    return 127;
}
