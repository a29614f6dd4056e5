/* How a rank's run ends in an MPI job of 2 ranks: by MPI_Abort, and
 * killed while blocked in an MPI call. The first argument names the case,
 * the second the milliseconds that rank 1 sleeps before it ends the job.
 *
 * Both ranks first run work() — a parallel region whose single creates
 * TASKS tasks — and meet in MPI_Bcast, which gives rank 1 rank 0's pid.
 * Then rank 0 blocks in one MPI call, which rank 1 never matches:
 *
 *   abort-recv     rank 0 in MPI_Recv; rank 1 sleeps and calls
 *                  MPI_Abort(3), after which mpirun ends rank 0 with
 *                  SIGTERM
 *   kill-finalize  rank 0 in MPI_Finalize, which waits for rank 1's;
 *                  rank 1 sleeps, sends rank 0 SIGTERM and waits in
 *                  MPI_Recv from rank 0, where mpirun ends it in turn
 *
 * Each rank writes what it measured with its own clock (CLOCK_REALTIME,
 * in ns) to rank-N.txt in the working directory: "call T" just before rank
 * 0's blocking call, "end T" just before rank 1 aborts or sends the
 * signal. Rank 0's call lasts at least end - call. */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TASKS = 10 };

static long work(void)
{
  long n = 0;
  #pragma omp parallel
  #pragma omp single
  for (int i = 0; i < TASKS; i++) {
    #pragma omp task shared(n)
    {
      #pragma omp atomic
      n++;
    }
  }
  return n;
}

static long long ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* note writes "what T" to this rank's file, at once. */
static void note(int rank, const char *what)
{
  char path[32];
  snprintf(path, sizeof path, "rank-%d.txt", rank);
  FILE *f = fopen(path, "a");
  if (!f)
    return;
  fprintf(f, "%s %lld\n", what, ns());
  fclose(f);
}

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  int ms = argc > 2 ? atoi(argv[2]) : 500;
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || (strcmp(c, "abort-recv") && strcmp(c, "kill-finalize"))) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np 2 mpiend abort-recv|kill-finalize [MS]\n");
    MPI_Finalize();
    return 2;
  }
  long n = work();
  int pid0 = (int)getpid();
  MPI_Bcast(&pid0, 1, MPI_INT, 0, MPI_COMM_WORLD);
  printf("rank %d: %ld tasks\n", rank, n);
  fflush(stdout);
  if (rank == 0) {
    int x;
    note(0, "call");
    if (!strcmp(c, "abort-recv"))
      MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Finalize();
    printf("rank 0 was not ended\n");
    return 1;
  }
  usleep(ms * 1000);
  note(1, "end");
  if (!strcmp(c, "abort-recv")) {
    MPI_Abort(MPI_COMM_WORLD, 3);
    printf("rank 1 was not ended\n");
    return 1;
  }
  kill(pid0, SIGTERM);
  int x;
  MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank 1 was not ended\n");
  return 1;
}
