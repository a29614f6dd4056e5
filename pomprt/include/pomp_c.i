enum { POMP_ABI_VERSION = 4 };
typedef unsigned long long POMP_Task_handle;
typedef unsigned long long POMP_Task_ctx;
typedef struct POMP_Task_info {
 POMP_Task_handle id;
 POMP_Task_ctx ctx;
} POMP_Task_info;
enum {
 POMP_PARALLEL = 1,
 POMP_FOR,
 POMP_SECTIONS,
 POMP_SINGLE,
 POMP_SCOPE,
 POMP_MASTER,
 POMP_CRITICAL,
 POMP_ATOMIC,
 POMP_FLUSH,
 POMP_BARRIER,
 POMP_TASKWAIT,
 POMP_TASKYIELD,
 POMP_TASK,
 POMP_TASKGROUP,
 POMP_TASKLOOP,
 POMP_ORDERED,
 POMP_SIMD,
 POMP_LOOP,
 POMP_CANCEL,
 POMP_CANCELLATION_POINT,
 POMP_USER,
 POMP_LOCK,
 POMP_MPI,
 POMP_KIND_COUNT
};
enum {
 POMP_FLAG_NOWAIT = 1 << 0,
 POMP_FLAG_BARRIER = 1 << 1,
 POMP_FLAG_IMPLICIT_BARRIER = 1 << 2,
 POMP_FLAG_COMBINED = 1 << 3,
 POMP_FLAG_UNTIED = 1 << 4,
 POMP_FLAG_TIED = 1 << 5,
 POMP_FLAG_CLEANUP = 1 << 6,
 POMP_FLAG_IF = 1 << 7,
 POMP_FLAG_FINAL = 1 << 8,
 POMP_FLAG_MERGEABLE = 1 << 9,
 POMP_FLAG_DEPEND = 1 << 10,
 POMP_FLAG_CHUNKS = 1 << 11
};
typedef struct POMP_Region {
 unsigned int id;
 unsigned short kind;
 unsigned short flags;
 int begin_line;
 int end_line;
 const char *file;
 const char *name;
 const char *sub_name;
 const char *clauses;
} POMP_Region;
typedef struct POMP_Unit {
 unsigned int abi_version;
 unsigned int n_regions;
 const char *file;
 POMP_Region *regions;
 struct POMP_Unit *next;
} POMP_Unit;
void POMP_Register_unit(POMP_Unit *unit);
enum {
 POMP_MODE_OFF = 0,
 POMP_MODE_IDS = 1,
 POMP_MODE_PROFILE = 2,
 POMP_MODE_RECORD = 3
};
typedef struct POMP_Thread {
 POMP_Task_handle current;
 unsigned long long next;
 void *rt_lean, *rt_stream;
} POMP_Thread;
extern __thread __attribute__((__tls_model__("initial-exec"))) POMP_Thread pomp_thread;
extern int pomp_mode;
extern int pomp_iterations;
POMP_Task_handle pomp_rt_thread_new(void);
POMP_Task_handle pomp_rt_task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx);
POMP_Task_handle pomp_rt_task_create_begin_iter(POMP_Region *r, POMP_Task_ctx *ctx, long long v, long long lb, long long step);
void pomp_rt_task_create_end(POMP_Region *r);
void pomp_rt_task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx);
void pomp_rt_task_end(POMP_Region *r);
void pomp_rt_enter(POMP_Region *r, int event);
void pomp_rt_exit(POMP_Region *r, int event);
enum {
 POMP_EV_CONSTRUCT = 0,
 POMP_EV_BODY,
 POMP_EV_BARRIER,
 POMP_EV_WAIT
};
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Task_handle POMP_Get_current_task(void) { return pomp_thread.current; }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Set_current_task(POMP_Task_handle task) { pomp_thread.current = task; }
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Task_handle POMP_New_task_id(void)
{
 POMP_Task_handle id = pomp_thread.next;
 if (__builtin_expect(!!((unsigned int)id == 0), 0))
  id = pomp_rt_thread_new();
 pomp_thread.next = id + 1;
 return id;
}
POMP_Task_info POMP_Parallel_fork(POMP_Region *r, POMP_Task_handle encountering);
void POMP_Parallel_begin(POMP_Region *r, POMP_Task_handle encountering, POMP_Task_info team);
void POMP_Parallel_end(POMP_Region *r);
void POMP_Parallel_join(POMP_Region *r, POMP_Task_handle encountering);
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Task_handle POMP_Task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx)
{
 if (pomp_mode >= POMP_MODE_PROFILE)
  return pomp_rt_task_create_begin(r, ctx);
 *ctx = 0;
 return pomp_mode == POMP_MODE_OFF ? 0 : POMP_New_task_id();
}
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Task_handle POMP_Task_create_begin_iter(POMP_Region *r, POMP_Task_ctx *ctx, long long v, long long lb, long long step)
{
 if (__builtin_expect(!!(pomp_iterations), 0))
  return pomp_rt_task_create_begin_iter(r, ctx, v, lb, step);
 return POMP_Task_create_begin(r, ctx);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Task_create_end(POMP_Region *r, POMP_Task_ctx ctx)
{
 if (__builtin_expect(!!(ctx & (3ull << 62)), 0))
  pomp_rt_task_create_end(r);
}
void pomp_rt_task_begin_new(void);
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
 int mode = pomp_mode;
 if (mode >= POMP_MODE_PROFILE)
  pomp_rt_task_begin(r, id, ctx);
 else if (mode != POMP_MODE_OFF) {
  if (__builtin_expect(!!(!id), 0))
   pomp_rt_task_begin_new();
  else
   pomp_thread.current = id;
 }
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Task_end(POMP_Region *r)
{
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_task_end(r);
}
enum {
 POMP_TL_DEFAULT = 0,
 POMP_TL_NUM_TASKS,
 POMP_TL_GRAINSIZE,
 POMP_TL_NUM_TASKS_STRICT,
 POMP_TL_GRAINSIZE_STRICT
};
enum { POMP_TL_LT = 1, POMP_TL_LE, POMP_TL_GT, POMP_TL_GE, POMP_TL_NE, POMP_TL_UNSIGNED = 8 };
typedef struct POMP_Taskloop_info {
 POMP_Task_handle id;
 POMP_Task_handle parent;
 unsigned long long ctx;
 unsigned long long count;
 POMP_Region *region;
 void *instance;
 unsigned long long seq;
 unsigned long long total;
 long long sched;
 int kind, levels;
 long long lb[2], step[2];
 unsigned long long inner;
} POMP_Taskloop_info;
void pomp_rt_taskloop_enter(POMP_Region *r, POMP_Task_handle encountering, POMP_Taskloop_info *tl);
void pomp_rt_taskloop_loop(POMP_Taskloop_info *tl, int level, long long lb, long long ub, long long step, int rel);
void pomp_rt_taskloop_schedule(POMP_Taskloop_info *tl, int kind, long long value);
void pomp_rt_taskloop_iteration(POMP_Taskloop_info *tl, long long v0, long long v1, int cxx);
void pomp_rt_taskloop_last(POMP_Taskloop_info *tl);
void pomp_rt_taskloop_end(POMP_Taskloop_info *tl);
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_enter_(POMP_Region *r, POMP_Task_handle encountering, POMP_Taskloop_info *tl)
{
 tl->id = 0;
 tl->parent = encountering;
 tl->ctx = 0;
 tl->count = 0;
 tl->region = r;
 tl->instance = 0;
 tl->seq = 0;
 tl->total = 0;
 tl->sched = 0;
 tl->kind = 0;
 tl->levels = 0;
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_taskloop_enter(r, encountering, tl);
}
typedef POMP_Taskloop_info POMP_Taskloop_task;
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_enter(POMP_Region *r, POMP_Task_handle encountering, POMP_Taskloop_task *tl)
{
 POMP_Taskloop_enter_(r, encountering, tl);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_loop(POMP_Taskloop_task *tl, int level, long long lb, long long ub, long long step, int rel)
{
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_taskloop_loop(tl, level, lb, ub, step, rel);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_schedule(POMP_Taskloop_task *tl, int kind, long long value)
{
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_taskloop_schedule(tl, kind, value);
}
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Taskloop_task *POMP_Taskloop_iteration2(POMP_Taskloop_task *tl, long long v0, long long v1)
{
 if (__builtin_expect(!!(tl->count == 0), 0))
  pomp_rt_taskloop_iteration(tl, v0, v1, 0);
 return tl;
}
static __inline__ __attribute__((__always_inline__, __unused__)) POMP_Taskloop_task *POMP_Taskloop_iteration(POMP_Taskloop_task *tl, long long v)
{
 return POMP_Taskloop_iteration2(tl, v, 0);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_iteration_end(POMP_Taskloop_task **tl)
{
 if (__builtin_expect(!!(--(*tl)->count == 0), 0))
  pomp_rt_taskloop_last(*tl);
}
typedef struct POMP_Chunk {
 long long next;
 long long bound;
 long long step;
 long long size;
 long long lbv, vstep;
 long long first, firstv;
 unsigned long long t0;
 POMP_Region *region;
 void *thread;
 int on;
 int counting;
 int strip;
 int timed;
} POMP_Chunk;
typedef struct POMP_Chunk_count {
 long long n, last, sum;
} POMP_Chunk_count;
void pomp_rt_chunk_init(POMP_Chunk *c);
void pomp_rt_chunk_begin(POMP_Chunk *c, long long first);
void pomp_rt_chunk_end(POMP_Chunk *c);
void pomp_rt_chunk_iteration(POMP_Chunk *c, long long x, long long v);
void pomp_rt_chunk_close(POMP_Chunk *c, long long n, long long last, long long sum);
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_init_(POMP_Chunk *c, POMP_Region *r, long long step, long long size, long long lbv, long long vstep, int counting)
{
 c->next = -1;
 c->bound = -1;
 c->step = step > 0 ? step : 1;
 c->size = size;
 c->lbv = lbv;
 c->vstep = vstep;
 c->first = -1;
 c->firstv = (-0x7fffffffffffffffLL - 1);
 c->region = r;
 c->on = 0;
 c->counting = counting;
 c->strip = 0;
 c->timed = 0;
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_chunk_init(c);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_init(POMP_Chunk *c, POMP_Region *r, long long step, long long size, long long lbv, long long vstep)
{
 POMP_Chunk_init_(c, r, step, size, lbv, vstep, 0);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_init_count(POMP_Chunk *c, POMP_Region *r, long long step, long long lbv, long long vstep)
{
 POMP_Chunk_init_(c, r, step, 0, lbv, vstep, 1);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_init_strip(POMP_Chunk *c, POMP_Region *r, long long lbv, long long vstep, int kind)
{
 POMP_Chunk_init_(c, r, 1, 0, lbv, vstep, 0);
 c->strip = kind;
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_iteration(POMP_Chunk *c, long long x, long long v)
{
 if (__builtin_expect(!!((x != c->next) | (x == c->bound)), 0) && c->on)
  pomp_rt_chunk_iteration(c, x, v);
 c->next = x + c->step;
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_close(POMP_Chunk *c)
{
 if (c->on)
  pomp_rt_chunk_close(c, 0, 0, 0);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_begin(POMP_Chunk *c, long long first)
{
 if (c->on)
  pomp_rt_chunk_begin(c, first);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_end(POMP_Chunk *c, long long last)
{
 c->next = last + 1;
 if (c->strip == 2 && c->on)
  pomp_rt_chunk_end(c);
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_count_iteration(POMP_Chunk_count *s, long long x)
{
 s->n++;
 s->last = x;
 s->sum += x;
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Chunk_close_count(POMP_Chunk *c, long long n, long long last, long long sum)
{
 if (c->on)
  pomp_rt_chunk_close(c, n, last, sum);
}
static __inline__ __attribute__((__always_inline__, __unused__)) long long POMP_Chunk_trip(int empty, long long range, long long step, int inclusive)
{
 if (empty || step <= 0)
  return 0;
 return inclusive ? range / step + 1 : (range + step - 1) / step;
}
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_For_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_For_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Sections_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Sections_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Section_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BODY); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Single_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Single_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Single_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_BODY); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Single_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BODY); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Scope_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Scope_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Master_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Master_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Critical_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Critical_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Critical_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_BODY); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Critical_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BODY); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Atomic_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Atomic_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Flush_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Flush_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Barrier_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Barrier_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Implicit_barrier_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_BARRIER); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Implicit_barrier_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BARRIER); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskwait_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskwait_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskyield_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskyield_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskgroup_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskgroup_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskgroup_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_BODY); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskgroup_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BODY); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Taskloop_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Ordered_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Ordered_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Ordered_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_BODY); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Ordered_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_BODY); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Simd_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Simd_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Loop_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Loop_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Cancel_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Cancel_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Cancellation_point_enter(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Cancellation_point_exit(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_User_region_begin(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_enter(r, POMP_EV_CONSTRUCT); } static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_User_region_end(POMP_Region *r) { if (pomp_mode >= POMP_MODE_PROFILE) pomp_rt_exit(r, POMP_EV_CONSTRUCT); }
void pomp_rt_section_begin(POMP_Region *r, int section);
static __inline__ __attribute__((__always_inline__, __unused__)) void POMP_Section_begin(POMP_Region *r, int section)
{
 if (pomp_mode >= POMP_MODE_PROFILE)
  pomp_rt_section_begin(r, section);
}
void POMP_Parallel_end_cleanup(POMP_Region **r);
void POMP_Body_end_cleanup(POMP_Region **r);
void POMP_Task_end_cleanup(POMP_Region **r);
void POMP_Init(void);
void POMP_On(void);
void POMP_Off(void);
void POMP_Init_lock(POMP_Region *r, void *lock);
void POMP_Init_lock_with_hint(POMP_Region *r, void *lock, int hint);
void POMP_Destroy_lock(POMP_Region *r, void *lock);
void POMP_Set_lock(POMP_Region *r, void *lock);
void POMP_Unset_lock(POMP_Region *r, void *lock);
int POMP_Test_lock(POMP_Region *r, void *lock);
void POMP_Init_nest_lock(POMP_Region *r, void *lock);
void POMP_Init_nest_lock_with_hint(POMP_Region *r, void *lock, int hint);
void POMP_Destroy_nest_lock(POMP_Region *r, void *lock);
void POMP_Set_nest_lock(POMP_Region *r, void *lock);
void POMP_Unset_nest_lock(POMP_Region *r, void *lock);
int POMP_Test_nest_lock(POMP_Region *r, void *lock);
