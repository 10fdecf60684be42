/*
 * util.c — the core's clock and log, below everything else in the core.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "server/core/core.h"
#include "server/core/internal.h"

int64_t core_unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void core_vlog(const core *C, const char *fmt, va_list ap)
{
    if (C && C->cf.quiet)
        return;
    char line[600];
    vsnprintf(line, sizeof line, fmt, ap);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02dZ %s\n", tm.tm_year + 1900, tm.tm_mon + 1,
            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, line);
}

void core_log(const core *C, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    core_vlog(C, fmt, ap);
    va_end(ap);
}
