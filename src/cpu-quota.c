/* The cgroup CPU quota (cpu-quota.h): cgroup v2's cpu.max, v1's cfs quota and period, along
 * the process's cgroup path up to the root of the mount, the smallest one winning (a child
 * cannot use more than any ancestor allows). */
#define _POSIX_C_SOURCE 200809L
#include "cpu-quota.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ndpad_cpu_quota_parse(const char *text)
{
    if (text == NULL) return 0;
    while (*text == ' ' || *text == '\t') text++;
    if (strncmp(text, "max", 3) == 0) return 0;
    char *end;
    const long long quota = strtoll(text, &end, 10);
    if (end == text || quota <= 0) return 0;
    const char *period_text = end;
    const long long period = strtoll(period_text, &end, 10);
    if (end == period_text || period <= 0) return 0;
    const long long cpus = quota / period + (quota % period != 0);
    if (cpus > 1 << 20) return 0; /* no real limit */
    return cpus > 0 ? (int)cpus : 1;
}

/* The first line of `path` into `buf` (newline dropped); false when unreadable. */
static bool read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return false;
    const bool ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok) buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* The quota of one cgroup directory `dir` (v2 when `v2`), 0 when none. */
static int quota_of(const char *dir, bool v2)
{
    char path[4096], line[128];
    if (v2) {
        if (snprintf(path, sizeof(path), "%s/cpu.max", dir) >= (int)sizeof(path)) return 0;
        return read_line(path, line, sizeof(line)) ? ndpad_cpu_quota_parse(line) : 0;
    }
    char quota[64], period[64];
    if (snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir) >= (int)sizeof(path) ||
        !read_line(path, quota, sizeof(quota)))
        return 0;
    if (snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir) >= (int)sizeof(path) ||
        !read_line(path, period, sizeof(period)))
        return 0;
    snprintf(line, sizeof(line), "%s %s", quota, period);
    return ndpad_cpu_quota_parse(line);
}

/* The smallest quota of `base`/`cgroup` and each of its ancestors up to `base`. */
static int smallest_along(const char *base, const char *cgroup, bool v2)
{
    char dir[4096];
    if (snprintf(dir, sizeof(dir), "%s%s", base, cgroup) >= (int)sizeof(dir)) return 0;
    const size_t base_len = strlen(base);
    int best = 0;
    for (;;) {
        const int q = quota_of(dir, v2);
        if (q > 0 && (best == 0 || q < best)) best = q;
        char *slash = strrchr(dir, '/');
        if (slash == NULL || (size_t)(slash - dir) < base_len) break;
        *slash = '\0';
    }
    return best;
}

int ndpad_cpu_quota(void)
{
    const char *root = getenv("NDPAD_CGROUP_ROOT");
    if (root == NULL || root[0] == '\0') root = "/sys/fs/cgroup";
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL) return 0;
    /* Lines "ID:CONTROLLERS:PATH": "0::PATH" is cgroup v2's; v1's cpu controller is the line
     * whose controllers include "cpu" (mounted as cpu,cpuacct or cpu). */
    char line[4096];
    int best = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *first = strchr(line, ':');
        char *second = first != NULL ? strchr(first + 1, ':') : NULL;
        if (second == NULL) continue;
        *first = *second = '\0';
        const char *controllers = first + 1, *cgroup = second + 1;
        if (strcmp(cgroup, "/") == 0) cgroup = "";
        int q = 0;
        if (strcmp(line, "0") == 0 && controllers[0] == '\0') {
            /* The unified hierarchy: at the root, or at root/unified on hybrid machines. */
            char unified[4096];
            q = smallest_along(root, cgroup, true);
            if (q == 0 &&
                snprintf(unified, sizeof(unified), "%s/unified", root) < (int)sizeof(unified))
                q = smallest_along(unified, cgroup, true);
        } else {
            char list[256];
            snprintf(list, sizeof(list), ",%s,", controllers);
            if (strstr(list, ",cpu,") == NULL) continue;
            char base[4096];
            if (snprintf(base, sizeof(base), "%s/%s", root, controllers) >= (int)sizeof(base))
                continue;
            q = smallest_along(base, cgroup, false);
            if (q == 0) {
                snprintf(base, sizeof(base), "%s/cpu", root);
                q = smallest_along(base, cgroup, false);
            }
        }
        if (q > 0 && (best == 0 || q < best)) best = q;
    }
    fclose(f);
    return best;
}
