/*
 * pomp_mpi.h — what the C wrappers (pomp_mpi.c) share with the Fortran
 * ones (pomp_mpi_f.c): the list of measured calls, and entering and
 * leaving a call's region, so that a call made from Fortran is the same
 * region, with the same counts, as from C.
 */
#ifndef POMP_MPI_H
#define POMP_MPI_H

#include <mpi.h>
#include "../rt.h"

#define MPI_CALLS(X)                                                                                        \
	X(Init) X(Init_thread) X(Finalize) X(Abort) X(Send) X(Ssend) X(Bsend) X(Rsend) X(Isend) X(Issend) X(Ibsend)     \
	X(Irsend) X(Recv) X(Irecv) X(Sendrecv) X(Sendrecv_replace) X(Probe) X(Iprobe) X(Wait) X(Waitall)       \
	X(Waitany) X(Waitsome) X(Test) X(Testall) X(Testany) X(Testsome) X(Barrier) X(Bcast) X(Reduce)         \
	X(Allreduce) X(Gather) X(Gatherv) X(Scatter) X(Scatterv) X(Allgather) X(Allgatherv) X(Alltoall)        \
	X(Alltoallv) X(Reduce_scatter) X(Reduce_scatter_block) X(Scan) X(Exscan)

enum {
#define X(n) W_##n,
	MPI_CALLS(X)
#undef X
	W_COUNT
};

/* A call in progress: its region (NULL when the runtime does not
 * measure), its thread, and the call it is made in (pomp_call_begin). */
typedef struct {
	POMP_Region *r;
	pomp_thr *t;
	int prev;
} mcall;

/* pomp_mpi_enter begins call w; pomp_mpi_leave ends it, adding messages
 * and bytes sent; pomp_mpi_bytes is count elements of type t in bytes;
 * pomp_mpi_is_root says whether the caller is root in c;
 * pomp_mpi_comm_size is c's size. */
mcall pomp_mpi_enter(int w);
void pomp_mpi_leave(mcall c, uint64_t messages, uint64_t bytes);
uint64_t pomp_mpi_bytes(int count, MPI_Datatype t);
int pomp_mpi_is_root(int root, MPI_Comm c);
int pomp_mpi_comm_size(MPI_Comm c);

#endif
