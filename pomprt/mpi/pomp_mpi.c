/*
 * pomp_mpi.c — libpomp_mpi.a: MPI calls measured as regions of kind
 * "mpi", through the standard PMPI profiling interface. Built with an MPI
 * compiler (mpicc) and linked before libpomp.a; gopari cc does that when
 * it links with an MPI compiler wrapper.
 *
 * Each wrapped call is one region, named after the call and registered
 * the first time the call is made. Its time is measured on the calling
 * thread, as a frame of that thread's stack like any construct, so that
 * calls from several threads at once (MPI_THREAD_MULTIPLE) are each
 * charged to their own thread, and a call made inside a parallel region
 * is excluded from the exclusive time of the construct around it. A call
 * still blocked when the run ends (a signal, exit() on another thread)
 * is closed then, keeping its visit and its time so far; MPI_Abort writes
 * the profile before the abort goes on (lifecycle.c).
 *
 * Messages and bytes count what a call sends, as the caller passed it:
 *   point-to-point sends (MPI_Send, MPI_Isend, ..., MPI_Sendrecv): one
 *     message of count x type size bytes;
 *   collectives: no messages; the bytes of the caller's send buffers:
 *     MPI_Bcast count x size at the root; MPI_Reduce, MPI_Allreduce,
 *     MPI_Scan, MPI_Exscan count x size; MPI_Gather(v), MPI_Allgather(v)
 *     sendcount x size; MPI_Scatter sendcount x size x ranks at the root,
 *     MPI_Scatterv the sum of sendcounts x size at the root;
 *     MPI_Alltoall sendcount x size x ranks, MPI_Alltoallv the sum of
 *     sendcounts x size; MPI_Reduce_scatter the sum of recvcounts x size,
 *     MPI_Reduce_scatter_block recvcount x size x ranks;
 *   receives, waits and tests: none.
 */
#include <pthread.h>
#include "pomp_mpi.h"

static const char *const names[W_COUNT] = {
#define X(n) "MPI_" #n,
    MPI_CALLS(X)
#undef X
};

static POMP_Region regions[W_COUNT];
static POMP_Unit units[W_COUNT];
static int registered[W_COUNT];
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

/* region returns the region of call w, registering it on first use, or
 * NULL when the runtime does not measure. */
static POMP_Region *region(int w)
{
	if (pomp_mode < POMP_MODE_PROFILE)
		return NULL;
	if (!__atomic_load_n(&registered[w], __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&reg_mu);
		if (!registered[w]) {
			regions[w].kind = POMP_MPI;
			regions[w].name = names[w];
			regions[w].file = "MPI";
			regions[w].clauses = "";
			units[w].abi_version = POMP_ABI_VERSION;
			units[w].n_regions = 1;
			units[w].file = "MPI";
			units[w].regions = &regions[w];
			POMP_Register_unit(&units[w]);
			__atomic_store_n(&registered[w], 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&reg_mu);
	}
	return &regions[w];
}

static mcall enter(int w)
{
	mcall c = {region(w), NULL, -1};
	if (c.r) {
		pomp_rt_enter(c.r, POMP_EV_CONSTRUCT);
		c.t = pomp_self();
		c.prev = pomp_call_begin(c.t);
	}
	return c;
}

/* leave ends call c, unless the end of the run has closed it meanwhile:
 * a run ended by a signal (or MPI_Abort on another thread) while the
 * call was blocked keeps the call's time up to then (lifecycle.c). */
static void leave(mcall c, uint64_t messages, uint64_t bytes)
{
	if (!c.r || !pomp_call_end(c.t, c.prev))
		return;
	pomp_rt_exit(c.r, POMP_EV_CONSTRUCT);
	if (messages | bytes) {
		pomp_stat *s = pomp_stat_at(c.t, c.r->id);
		s->mpi_messages += messages;
		s->mpi_bytes += bytes;
	}
}

/* bytes returns count elements of type t in bytes. */
static uint64_t bytes(int count, MPI_Datatype t)
{
	int size = 0;
	if (count <= 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

static int comm_size(MPI_Comm c)
{
	int n = 0;
	PMPI_Comm_size(c, &n);
	return n;
}

static int is_root(int root, MPI_Comm c)
{
	int me = -1;
	PMPI_Comm_rank(c, &me);
	return me == root;
}

static uint64_t sum(const int counts[], int n, MPI_Datatype t)
{
	uint64_t b = 0;
	for (int i = 0; counts && i < n; i++)
		b += bytes(counts[i], t);
	return b;
}

/* ---------------------------------------------------------------------
 * Start and end.
 */
int MPI_Init(int *argc, char ***argv)
{
	mcall r = enter(W_Init);
	int rc = PMPI_Init(argc, argv);
	leave(r, 0, 0);
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	mcall r = enter(W_Init_thread);
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	leave(r, 0, 0);
	return rc;
}

int MPI_Finalize(void)
{
	mcall r = enter(W_Finalize);
	int rc = PMPI_Finalize();
	leave(r, 0, 0);
	return rc;
}

/* MPI_Abort writes the profile of the run so far, with exit "MPI_Abort",
 * before the abort goes on: Open MPI's ends the process without exit(),
 * and has the launcher kill the other ranks. The call itself is visited
 * once, its time cut at the profile. */
int MPI_Abort(MPI_Comm c, int code)
{
	mcall r = enter(W_Abort);
	(void)r;
	pomp_end_run_as("MPI_Abort");
	return PMPI_Abort(c, code);
}

/* ---------------------------------------------------------------------
 * Point to point.
 */
#define SEND(name, ...)                                                                                     \
	int MPI_##name(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c __VA_ARGS__)

#define SEND_BODY(name, ...)                                                                                \
	{                                                                                                   \
		mcall r = enter(W_##name);                                                           \
		int rc = PMPI_##name(buf, count, t, dest, tag, c __VA_ARGS__);                              \
		leave(r, 1, bytes(count, t));                                                               \
		return rc;                                                                                  \
	}

SEND(Send) SEND_BODY(Send)
SEND(Ssend) SEND_BODY(Ssend)
SEND(Bsend) SEND_BODY(Bsend)
SEND(Rsend) SEND_BODY(Rsend)
SEND(Isend, , MPI_Request *q) SEND_BODY(Isend, , q)
SEND(Issend, , MPI_Request *q) SEND_BODY(Issend, , q)
SEND(Ibsend, , MPI_Request *q) SEND_BODY(Ibsend, , q)
SEND(Irsend, , MPI_Request *q) SEND_BODY(Irsend, , q)

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
	mcall r = enter(W_Recv);
	int rc = PMPI_Recv(buf, count, t, src, tag, c, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *q)
{
	mcall r = enter(W_Irecv);
	int rc = PMPI_Irecv(buf, count, t, src, tag, c, q);
	leave(r, 0, 0);
	return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *status)
{
	mcall r = enter(W_Sendrecv);
	int rc = PMPI_Sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, src, rtag, c, status);
	leave(r, 1, bytes(scount, st));
	return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm c,
                         MPI_Status *status)
{
	mcall r = enter(W_Sendrecv_replace);
	int rc = PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag, c, status);
	leave(r, 1, bytes(count, t));
	return rc;
}

int MPI_Probe(int src, int tag, MPI_Comm c, MPI_Status *st)
{
	mcall r = enter(W_Probe);
	int rc = PMPI_Probe(src, tag, c, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
	mcall r = enter(W_Iprobe);
	int rc = PMPI_Iprobe(src, tag, c, flag, st);
	leave(r, 0, 0);
	return rc;
}

/* ---------------------------------------------------------------------
 * Completion.
 */
int MPI_Wait(MPI_Request *q, MPI_Status *st)
{
	mcall r = enter(W_Wait);
	int rc = PMPI_Wait(q, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Waitall(int n, MPI_Request q[], MPI_Status st[])
{
	mcall r = enter(W_Waitall);
	int rc = PMPI_Waitall(n, q, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Waitany(int n, MPI_Request q[], int *index, MPI_Status *st)
{
	mcall r = enter(W_Waitany);
	int rc = PMPI_Waitany(n, q, index, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Waitsome(int n, MPI_Request q[], int *outcount, int indices[], MPI_Status st[])
{
	mcall r = enter(W_Waitsome);
	int rc = PMPI_Waitsome(n, q, outcount, indices, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Test(MPI_Request *q, int *flag, MPI_Status *st)
{
	mcall r = enter(W_Test);
	int rc = PMPI_Test(q, flag, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Testall(int n, MPI_Request q[], int *flag, MPI_Status st[])
{
	mcall r = enter(W_Testall);
	int rc = PMPI_Testall(n, q, flag, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Testany(int n, MPI_Request q[], int *index, int *flag, MPI_Status *st)
{
	mcall r = enter(W_Testany);
	int rc = PMPI_Testany(n, q, index, flag, st);
	leave(r, 0, 0);
	return rc;
}

int MPI_Testsome(int n, MPI_Request q[], int *outcount, int indices[], MPI_Status st[])
{
	mcall r = enter(W_Testsome);
	int rc = PMPI_Testsome(n, q, outcount, indices, st);
	leave(r, 0, 0);
	return rc;
}

/* ---------------------------------------------------------------------
 * Collectives.
 */
int MPI_Barrier(MPI_Comm c)
{
	mcall r = enter(W_Barrier);
	int rc = PMPI_Barrier(c);
	leave(r, 0, 0);
	return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
	mcall r = enter(W_Bcast);
	int rc = PMPI_Bcast(buf, count, t, root, c);
	leave(r, 0, r.r && is_root(root, c) ? bytes(count, t) : 0);
	return rc;
}

int MPI_Reduce(const void *s, void *d, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
	mcall r = enter(W_Reduce);
	int rc = PMPI_Reduce(s, d, count, t, op, root, c);
	leave(r, 0, bytes(count, t));
	return rc;
}

int MPI_Allreduce(const void *s, void *d, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
	mcall r = enter(W_Allreduce);
	int rc = PMPI_Allreduce(s, d, count, t, op, c);
	leave(r, 0, bytes(count, t));
	return rc;
}

int MPI_Scan(const void *s, void *d, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
	mcall r = enter(W_Scan);
	int rc = PMPI_Scan(s, d, count, t, op, c);
	leave(r, 0, bytes(count, t));
	return rc;
}

int MPI_Exscan(const void *s, void *d, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
	mcall r = enter(W_Exscan);
	int rc = PMPI_Exscan(s, d, count, t, op, c);
	leave(r, 0, bytes(count, t));
	return rc;
}

int MPI_Gather(const void *s, int scount, MPI_Datatype st, void *d, int rcount, MPI_Datatype rt, int root, MPI_Comm c)
{
	mcall r = enter(W_Gather);
	int rc = PMPI_Gather(s, scount, st, d, rcount, rt, root, c);
	leave(r, 0, s == MPI_IN_PLACE ? 0 : bytes(scount, st));
	return rc;
}

int MPI_Gatherv(const void *s, int scount, MPI_Datatype st, void *d, const int rcounts[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm c)
{
	mcall r = enter(W_Gatherv);
	int rc = PMPI_Gatherv(s, scount, st, d, rcounts, displs, rt, root, c);
	leave(r, 0, s == MPI_IN_PLACE ? 0 : bytes(scount, st));
	return rc;
}

int MPI_Allgather(const void *s, int scount, MPI_Datatype st, void *d, int rcount, MPI_Datatype rt, MPI_Comm c)
{
	mcall r = enter(W_Allgather);
	int rc = PMPI_Allgather(s, scount, st, d, rcount, rt, c);
	leave(r, 0, s == MPI_IN_PLACE ? 0 : bytes(scount, st));
	return rc;
}

int MPI_Allgatherv(const void *s, int scount, MPI_Datatype st, void *d, const int rcounts[], const int displs[],
                   MPI_Datatype rt, MPI_Comm c)
{
	mcall r = enter(W_Allgatherv);
	int rc = PMPI_Allgatherv(s, scount, st, d, rcounts, displs, rt, c);
	leave(r, 0, s == MPI_IN_PLACE ? 0 : bytes(scount, st));
	return rc;
}

int MPI_Scatter(const void *s, int scount, MPI_Datatype st, void *d, int rcount, MPI_Datatype rt, int root, MPI_Comm c)
{
	mcall r = enter(W_Scatter);
	int rc = PMPI_Scatter(s, scount, st, d, rcount, rt, root, c);
	leave(r, 0, r.r && is_root(root, c) ? bytes(scount, st) * (uint64_t)comm_size(c) : 0);
	return rc;
}

int MPI_Scatterv(const void *s, const int scounts[], const int displs[], MPI_Datatype st, void *d, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm c)
{
	mcall r = enter(W_Scatterv);
	int rc = PMPI_Scatterv(s, scounts, displs, st, d, rcount, rt, root, c);
	leave(r, 0, r.r && is_root(root, c) ? sum(scounts, comm_size(c), st) : 0);
	return rc;
}

int MPI_Alltoall(const void *s, int scount, MPI_Datatype st, void *d, int rcount, MPI_Datatype rt, MPI_Comm c)
{
	mcall r = enter(W_Alltoall);
	int rc = PMPI_Alltoall(s, scount, st, d, rcount, rt, c);
	leave(r, 0, r.r ? bytes(scount, st) * (uint64_t)comm_size(c) : 0);
	return rc;
}

int MPI_Alltoallv(const void *s, const int scounts[], const int sdispls[], MPI_Datatype st, void *d,
                  const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm c)
{
	mcall r = enter(W_Alltoallv);
	int rc = PMPI_Alltoallv(s, scounts, sdispls, st, d, rcounts, rdispls, rt, c);
	leave(r, 0, r.r ? sum(scounts, comm_size(c), st) : 0);
	return rc;
}

int MPI_Reduce_scatter(const void *s, void *d, const int rcounts[], MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
	mcall r = enter(W_Reduce_scatter);
	int rc = PMPI_Reduce_scatter(s, d, rcounts, t, op, c);
	leave(r, 0, r.r ? sum(rcounts, comm_size(c), t) : 0);
	return rc;
}

int MPI_Reduce_scatter_block(const void *s, void *d, int rcount, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
	mcall r = enter(W_Reduce_scatter_block);
	int rc = PMPI_Reduce_scatter_block(s, d, rcount, t, op, c);
	leave(r, 0, r.r ? bytes(rcount, t) * (uint64_t)comm_size(c) : 0);
	return rc;
}

/* ---------------------------------------------------------------------
 * For the Fortran wrappers (pomp_mpi_f.c).
 */
mcall pomp_mpi_enter(int w)
{
	return enter(w);
}

void pomp_mpi_leave(mcall c, uint64_t messages, uint64_t b)
{
	leave(c, messages, b);
}

uint64_t pomp_mpi_bytes(int count, MPI_Datatype t)
{
	return bytes(count, t);
}

int pomp_mpi_is_root(int root, MPI_Comm c)
{
	return is_root(root, c);
}

int pomp_mpi_comm_size(MPI_Comm c)
{
	return comm_size(c);
}
