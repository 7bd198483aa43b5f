/* Wisdom warnings: the last one is kept for ndpad_wisdom_warning() and each is passed to
 * the log callback. Stored wisdom never fails a call, so a warning is all a problem with
 * it produces. */
#include <pthread.h>
#include <stdio.h>

#include "wisdom.h"

static pthread_mutex_t warn_mutex = PTHREAD_MUTEX_INITIALIZER;

/* fork() while another thread holds the mutex would leave it locked forever in the child:
 * held across the fork, released on both sides. A leaf lock (nothing is taken under it,
 * and a save calls ndpad_wisdom_warn under the save lock): its handler is registered early
 * (priority 101) so that its prepare step runs after the wisdom table's (fork runs prepare
 * steps in reverse order). */
static void warn_mutex_prepare(void)
{
    pthread_mutex_lock(&warn_mutex);
}
static void warn_mutex_release(void)
{
    pthread_mutex_unlock(&warn_mutex);
}

__attribute__((constructor(101))) static void warn_mutex_watch_forks(void)
{
    (void)pthread_atfork(warn_mutex_prepare, warn_mutex_release, warn_mutex_release);
}
static char warning[512];
static ndpad_log_fn log_fn;
static void *log_user;

void ndpad_wisdom_warn(const char *text)
{
    pthread_mutex_lock(&warn_mutex);
    snprintf(warning, sizeof(warning), "%s", text);
    const ndpad_log_fn fn = log_fn;
    void *const user = log_user;
    pthread_mutex_unlock(&warn_mutex);
    if (fn != NULL) fn(text, user);
}

size_t ndpad_wisdom_warning(char *buf, size_t size)
{
    pthread_mutex_lock(&warn_mutex);
    const int n = snprintf(buf != NULL ? buf : NULL, buf != NULL ? size : 0, "%s", warning);
    pthread_mutex_unlock(&warn_mutex);
    return n > 0 ? (size_t)n : 0;
}

void ndpad_set_log_callback(ndpad_log_fn fn, void *user)
{
    pthread_mutex_lock(&warn_mutex);
    log_fn = fn;
    log_user = user;
    pthread_mutex_unlock(&warn_mutex);
}
