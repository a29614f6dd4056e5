/*
 * pomp_mpi_f.c — MPI calls made from Fortran, measured as the C ones
 * (pomp_mpi.c): the same regions ("MPI_Send"), messages and bytes.
 *
 * Open MPI's Fortran bindings call PMPI_* themselves, never MPI_*, so the
 * C wrappers do not see a Fortran program's calls (and a call is never
 * counted twice). Programs with `include 'mpif.h'` or `use mpi` call
 * mpi_send_ (libmpi_mpifh; gfortran's name; mpi_send__, mpi_send and
 * MPI_SEND are other compilers' spellings of the same entry), programs
 * with `use mpi_f08` call mpi_send_f08_ (libmpi_usempif08). Each wrapper
 * enters the call's region and calls the Fortran profiling entry of the
 * same binding (pmpi_send_, pmpi_send_f08_) with its arguments as they
 * came. Both bindings pass every argument by reference, handles as
 * integers (an mpi_f08 handle is a type holding one integer), so one
 * text serves both: this file makes the mpif.h wrappers, and
 * pomp_mpi_f08.c includes it with POMP_MPI_F08 defined to make the
 * mpi_f08 ones, in an object of their own so that a program linked
 * without libmpi_usempif08 never needs it. An mpi_f08 ierror is
 * optional: it comes as NULL and goes on as NULL.
 *
 * Counts read the call's integers and convert its handles with
 * PMPI_Type_f2c and PMPI_Comm_f2c, only when the runtime measures.
 * MPI_IN_PLACE is, in both bindings, the address of the common block
 * mpi_fortran_in_place_ that libmpi defines.
 */
#include "pomp_mpi.h"

#define STR(x) #x
#define XSTR(x) STR(x)

#ifdef POMP_MPI_F08
#define FN(lc) mpi_##lc##_f08_
#define PFN(lc) pmpi_##lc##_f08_
#define ALIASES(lc, UC)
#else
#define FN(lc) mpi_##lc##_
#define PFN(lc) pmpi_##lc##_
#define ALIAS(name, lc) extern __typeof__(FN(lc)) name __attribute__((alias(XSTR(FN(lc)))));
#define ALIASES(lc, UC) ALIAS(mpi_##lc##__, lc) ALIAS(mpi_##lc, lc) ALIAS(UC, lc)
#endif

typedef MPI_Fint F;

/* WRAP defines the wrapper of call w, lower-case lc (upper-case UC),
 * with parameters params that it passes on as args, and says what it
 * sent: messages, bytes. */
#define WRAP(w, lc, UC, params, args, ...)                                                                  \
	void PFN(lc) params;                                                                                \
	void FN(lc) params;                                                                                 \
	void FN(lc) params                                                                                  \
	{                                                                                                   \
		mcall r = pomp_mpi_enter(W_##w);                                                            \
		PFN(lc) args;                                                                               \
		pomp_mpi_leave(r, __VA_ARGS__);                                                              \
	}                                                                                                   \
	ALIASES(lc, UC)

extern char mpi_fortran_in_place_ __attribute__((weak));

/* in_place says whether a send buffer is MPI_IN_PLACE. */
static int in_place(const void *buf)
{
	return &mpi_fortran_in_place_ && buf == (const void *)&mpi_fortran_in_place_;
}

/* size is count elements of Fortran type t in bytes, 0 when the runtime
 * does not measure (r). */
static uint64_t size(mcall r, const F *count, const F *t)
{
	return r.r ? pomp_mpi_bytes(*count, PMPI_Type_f2c(*t)) : 0;
}

/* ranks is the size of Fortran communicator c, 0 when the runtime does
 * not measure. */
static uint64_t ranks(mcall r, const F *c)
{
	return r.r ? (uint64_t)pomp_mpi_comm_size(PMPI_Comm_f2c(*c)) : 0;
}

/* at_root says whether the caller is the root of c, when measured. */
static int at_root(mcall r, const F *root, const F *c)
{
	return r.r && pomp_mpi_is_root(*root, PMPI_Comm_f2c(*c));
}

/* sum is the bytes of counts[0..ranks) elements of type t. */
static uint64_t sum(mcall r, const F counts[], const F *c, const F *t)
{
	uint64_t n = ranks(r, c), b = 0;
	for (uint64_t i = 0; i < n; i++)
		b += size(r, &counts[i], t);
	return b;
}

/* ---------------------------------------------------------------------
 * Start and end.
 */
WRAP(Init, init, MPI_INIT, (F *e), (e), 0, 0)
WRAP(Init_thread, init_thread, MPI_INIT_THREAD, (F *req, F *prov, F *e), (req, prov, e), 0, 0)
WRAP(Finalize, finalize, MPI_FINALIZE, (F *e), (e), 0, 0)

/* MPI_Abort writes the profile first, as the C wrapper does. */
void PFN(abort)(F *c, F *code, F *e);
void FN(abort)(F *c, F *code, F *e);
void FN(abort)(F *c, F *code, F *e)
{
	mcall r = pomp_mpi_enter(W_Abort);
	(void)r;
	pomp_end_run_as("MPI_Abort");
	PFN(abort)(c, code, e);
}
ALIASES(abort, MPI_ABORT)

/* ---------------------------------------------------------------------
 * Point to point.
 */
#define SEND(w, lc, UC)                                                                                     \
	WRAP(w, lc, UC, (void *buf, F *n, F *t, F *dest, F *tag, F *c, F *e), (buf, n, t, dest, tag, c, e), \
	     1, size(r, n, t))
#define ISEND(w, lc, UC)                                                                                    \
	WRAP(w, lc, UC, (void *buf, F *n, F *t, F *dest, F *tag, F *c, F *q, F *e),                         \
	     (buf, n, t, dest, tag, c, q, e), 1, size(r, n, t))

SEND(Send, send, MPI_SEND)
SEND(Ssend, ssend, MPI_SSEND)
SEND(Bsend, bsend, MPI_BSEND)
SEND(Rsend, rsend, MPI_RSEND)
ISEND(Isend, isend, MPI_ISEND)
ISEND(Issend, issend, MPI_ISSEND)
ISEND(Ibsend, ibsend, MPI_IBSEND)
ISEND(Irsend, irsend, MPI_IRSEND)

WRAP(Recv, recv, MPI_RECV, (void *buf, F *n, F *t, F *src, F *tag, F *c, F *st, F *e),
     (buf, n, t, src, tag, c, st, e), 0, 0)
WRAP(Irecv, irecv, MPI_IRECV, (void *buf, F *n, F *t, F *src, F *tag, F *c, F *q, F *e),
     (buf, n, t, src, tag, c, q, e), 0, 0)
WRAP(Sendrecv, sendrecv, MPI_SENDRECV,
     (void *sb, F *sn, F *st, F *dest, F *stag, void *rb, F *rn, F *rt, F *src, F *rtag, F *c, F *s, F *e),
     (sb, sn, st, dest, stag, rb, rn, rt, src, rtag, c, s, e), 1, size(r, sn, st))
WRAP(Sendrecv_replace, sendrecv_replace, MPI_SENDRECV_REPLACE,
     (void *buf, F *n, F *t, F *dest, F *stag, F *src, F *rtag, F *c, F *s, F *e),
     (buf, n, t, dest, stag, src, rtag, c, s, e), 1, size(r, n, t))
WRAP(Probe, probe, MPI_PROBE, (F *src, F *tag, F *c, F *s, F *e), (src, tag, c, s, e), 0, 0)
WRAP(Iprobe, iprobe, MPI_IPROBE, (F *src, F *tag, F *c, F *flag, F *s, F *e), (src, tag, c, flag, s, e), 0, 0)

/* ---------------------------------------------------------------------
 * Completion.
 */
WRAP(Wait, wait, MPI_WAIT, (F *q, F *s, F *e), (q, s, e), 0, 0)
WRAP(Waitall, waitall, MPI_WAITALL, (F *n, F *q, F *s, F *e), (n, q, s, e), 0, 0)
WRAP(Waitany, waitany, MPI_WAITANY, (F *n, F *q, F *i, F *s, F *e), (n, q, i, s, e), 0, 0)
WRAP(Waitsome, waitsome, MPI_WAITSOME, (F *n, F *q, F *out, F *is, F *s, F *e), (n, q, out, is, s, e), 0, 0)
WRAP(Test, test, MPI_TEST, (F *q, F *flag, F *s, F *e), (q, flag, s, e), 0, 0)
WRAP(Testall, testall, MPI_TESTALL, (F *n, F *q, F *flag, F *s, F *e), (n, q, flag, s, e), 0, 0)
WRAP(Testany, testany, MPI_TESTANY, (F *n, F *q, F *i, F *flag, F *s, F *e), (n, q, i, flag, s, e), 0, 0)
WRAP(Testsome, testsome, MPI_TESTSOME, (F *n, F *q, F *out, F *is, F *s, F *e), (n, q, out, is, s, e), 0, 0)

/* ---------------------------------------------------------------------
 * Collectives: the bytes of the caller's send buffers, as in C.
 */
WRAP(Barrier, barrier, MPI_BARRIER, (F *c, F *e), (c, e), 0, 0)
WRAP(Bcast, bcast, MPI_BCAST, (void *buf, F *n, F *t, F *rt, F *c, F *e), (buf, n, t, rt, c, e), 0,
     at_root(r, rt, c) ? size(r, n, t) : 0)

#define REDUCE(w, lc, UC)                                                                                   \
	WRAP(w, lc, UC, (void *s, void *d, F *n, F *t, F *op, F *c, F *e), (s, d, n, t, op, c, e), 0,       \
	     size(r, n, t))
WRAP(Reduce, reduce, MPI_REDUCE, (void *s, void *d, F *n, F *t, F *op, F *rt, F *c, F *e),
     (s, d, n, t, op, rt, c, e), 0, size(r, n, t))
REDUCE(Allreduce, allreduce, MPI_ALLREDUCE)
REDUCE(Scan, scan, MPI_SCAN)
REDUCE(Exscan, exscan, MPI_EXSCAN)

WRAP(Gather, gather, MPI_GATHER, (void *s, F *sn, F *st, void *d, F *rn, F *rt, F *root, F *c, F *e),
     (s, sn, st, d, rn, rt, root, c, e), 0, in_place(s) ? 0 : size(r, sn, st))
WRAP(Gatherv, gatherv, MPI_GATHERV,
     (void *s, F *sn, F *st, void *d, F *rns, F *ds, F *rt, F *root, F *c, F *e),
     (s, sn, st, d, rns, ds, rt, root, c, e), 0, in_place(s) ? 0 : size(r, sn, st))
WRAP(Allgather, allgather, MPI_ALLGATHER, (void *s, F *sn, F *st, void *d, F *rn, F *rt, F *c, F *e),
     (s, sn, st, d, rn, rt, c, e), 0, in_place(s) ? 0 : size(r, sn, st))
WRAP(Allgatherv, allgatherv, MPI_ALLGATHERV, (void *s, F *sn, F *st, void *d, F *rns, F *ds, F *rt, F *c, F *e),
     (s, sn, st, d, rns, ds, rt, c, e), 0, in_place(s) ? 0 : size(r, sn, st))
WRAP(Scatter, scatter, MPI_SCATTER, (void *s, F *sn, F *st, void *d, F *rn, F *rt, F *rr, F *c, F *e),
     (s, sn, st, d, rn, rt, rr, c, e), 0, at_root(r, rr, c) ? size(r, sn, st) * ranks(r, c) : 0)
WRAP(Scatterv, scatterv, MPI_SCATTERV,
     (void *s, F *sns, F *ds, F *st, void *d, F *rn, F *rt, F *rr, F *c, F *e),
     (s, sns, ds, st, d, rn, rt, rr, c, e), 0, at_root(r, rr, c) ? sum(r, sns, c, st) : 0)
WRAP(Alltoall, alltoall, MPI_ALLTOALL, (void *s, F *sn, F *st, void *d, F *rn, F *rt, F *c, F *e),
     (s, sn, st, d, rn, rt, c, e), 0, size(r, sn, st) * ranks(r, c))
WRAP(Alltoallv, alltoallv, MPI_ALLTOALLV,
     (void *s, F *sns, F *sds, F *st, void *d, F *rns, F *rds, F *rt, F *c, F *e),
     (s, sns, sds, st, d, rns, rds, rt, c, e), 0, sum(r, sns, c, st))
WRAP(Reduce_scatter, reduce_scatter, MPI_REDUCE_SCATTER, (void *s, void *d, F *rns, F *t, F *op, F *c, F *e),
     (s, d, rns, t, op, c, e), 0, sum(r, rns, c, t))
WRAP(Reduce_scatter_block, reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK,
     (void *s, void *d, F *rn, F *t, F *op, F *c, F *e), (s, d, rn, t, op, c, e), 0, size(r, rn, t) * ranks(r, c))
