#include "cpu_load.h"

#include <stdio.h>
#include <string.h>

bool cpu_load_read(cpu_load_reading *out) {
    memset(out, 0, sizeof(*out));
    char line[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return false;
    bool ok = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    /* The command name may hold spaces and parentheses: fields are counted from the last ')'. */
    char *p = ok ? strrchr(line, ')') : NULL;
    unsigned long long utime, stime;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return false;
    f = fopen("/proc/stat", "r");
    if (!f) return false;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]);
    fclose(f);
    if (n < 4) return false;
    uint64_t total = 0;
    for (int i = 0; i < 8; i++) total += v[i];
    out->process_user = utime;
    out->process_system = stime;
    out->machine_total = total;
    out->machine_busy = total - v[3] - v[4];   /* all but idle and iowait */
    out->valid = true;
    return true;
}

static float fraction(uint64_t part, uint64_t whole) {
    float f = (float)part / (float)whole;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

bool cpu_load_between(const cpu_load_reading *before, const cpu_load_reading *after, float *jvm_user,
                      float *jvm_system, float *machine_total) {
    if (!before->valid || !after->valid || after->machine_total <= before->machine_total) return false;
    uint64_t total = after->machine_total - before->machine_total;
    uint64_t user = after->process_user >= before->process_user ? after->process_user - before->process_user : 0;
    uint64_t sys = after->process_system >= before->process_system ? after->process_system - before->process_system : 0;
    uint64_t busy = after->machine_busy >= before->machine_busy ? after->machine_busy - before->machine_busy : 0;
    *jvm_user = fraction(user, total);
    *jvm_system = fraction(sys, total);
    *machine_total = fraction(busy, total);
    return true;
}
