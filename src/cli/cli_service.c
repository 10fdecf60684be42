/*
 * cli_service.c — the one search service of a tavoliere process (the CLI
 * layer may hold process state; the library holds none).  Made at the
 * first search with one worker per core (2 at least, 8 at most) and freed
 * at exit.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

static tav_service *service;
static pthread_once_t service_once = PTHREAD_ONCE_INIT;

static void service_free(void)
{
    tav_service_free(service);
    service = NULL;
}

static void service_make(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = n < 2 ? 2 : n > 8 ? 8 : (int)n;
    service = tav_service_new(workers, 0);
    if (service)
        atexit(service_free);
}

tav_service *cli_service(void)
{
    pthread_once(&service_once, service_make);
    return service;
}
