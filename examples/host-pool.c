/* Hand ndpad a small pthreads pool: ndpad then starts no thread of its own. */
#include <ndpad.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    ndpad_task_fn task; /* the current job, read under the lock */
    void *task_context;
    size_t n, next, done;
    unsigned long job; /* which job: a worker that wakes late finds nothing to claim */
    int stop;
    int workers;
    pthread_t thread[8];
} pool;

/* Claims and runs tasks of the current job until none is left; called with the lock held. */
static void run_tasks(pool *p)
{
    while (p->next < p->n) {
        const size_t i = p->next++;
        ndpad_task_fn task = p->task;
        void *context = p->task_context;
        pthread_mutex_unlock(&p->lock);
        task(context, i);
        pthread_mutex_lock(&p->lock);
        if (++p->done == p->n) pthread_cond_signal(&p->finished);
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->job == seen && !p->stop) pthread_cond_wait(&p->work, &p->lock);
        if (p->stop) break;
        seen = p->job;
        run_tasks(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* ndpad_parallel_for_fn: the caller runs tasks too, and returns when all are done. One job
 * at a time (ndpad may call from several threads at once). */
static void parallel_for(void *pool_context, ndpad_task_fn task, void *task_context, size_t n)
{
    pool *p = pool_context;
    static pthread_mutex_t one_job = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&one_job);
    pthread_mutex_lock(&p->lock);
    p->task = task, p->task_context = task_context;
    p->n = n, p->next = 0, p->done = 0;
    p->job++;
    pthread_cond_broadcast(&p->work);
    run_tasks(p);
    while (p->done < p->n) pthread_cond_wait(&p->finished, &p->lock);
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&one_job);
}

static int pool_start(pool *p, int workers)
{
    *p = (pool){.lock = PTHREAD_MUTEX_INITIALIZER,
                .work = PTHREAD_COND_INITIALIZER,
                .finished = PTHREAD_COND_INITIALIZER};
    for (; p->workers < workers && p->workers < 8; p->workers++)
        if (pthread_create(&p->thread[p->workers], NULL, worker, p) != 0) return -1;
    return 0;
}

static void pool_stop(pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int k = 0; k < p->workers; k++) pthread_join(p->thread[k], NULL);
}

int main(void)
{
    /* a 1x64x256x256 fp32 feature map, reflect-padded by 3 on each spatial side */
    const int64_t shape[4] = {1, 64, 256, 256}, before[4] = {0, 0, 3, 3}, after[4] = {0, 0, 3, 3};
    const ndpad_problem problem = {.rank = 4, .mode = NDPAD_REFLECT, .elem_size = sizeof(float),
                                   .shape = shape, .pads_begin = before, .pads_end = after};
    float *in = malloc(sizeof(float) * 64 * 256 * 256);
    float *out = malloc(sizeof(float) * 64 * 262 * 262);
    if (in == NULL || out == NULL) return 1;
    for (size_t i = 0; i < (size_t)64 * 256 * 256; i++) in[i] = (float)(i % 1000);

    pool p;
    if (pool_start(&p, 1) != 0) return 1; /* the caller and one worker: 2 threads */
    const ndpad_thread_pool host = {.parallel_for = parallel_for, .context = &p, .threads = 2};

    /* a plan on the pool */
    ndpad_options options;
    ndpad_options_init(&options);
    options.thread_pool = &host;
    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create(&problem, &options, &plan);
    if (status == NDPAD_OK) status = ndpad_execute(plan, in, out);
    ndpad_plan_destroy(plan);

    /* one-shot calls (ndpad_pad, ndpad_onnx_pad) on this thread use the pool too */
    if (status == NDPAD_OK) status = ndpad_set_thread_pool(&host);
    if (status == NDPAD_OK) status = ndpad_pad(&problem, in, out);
    ndpad_set_thread_pool(NULL); /* back to ndpad's own threads */

    pool_stop(&p);
    if (status != NDPAD_OK) {
        fprintf(stderr, "%s: %s\n", ndpad_status_string(status), ndpad_last_error());
        return 1;
    }
    /* out[0][0][0][0] reflects in[0][0][3][3] */
    printf("out[0] = %g (in[3 * 256 + 3] = %g)\n", out[0], in[3 * 256 + 3]);
    const int ok = out[0] == in[3 * 256 + 3];
    free(in);
    free(out);
    return ok ? 0 : 1;
}
