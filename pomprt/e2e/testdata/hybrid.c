/* A hybrid MPI + OpenMP program whose MPI calls and OpenMP visits are
 * known by construction. Each of ROUNDS rounds, on every rank:
 *   - a parallel loop and a parallel region whose single thread makes
 *     TASKS tasks;
 *   - MPI_Allreduce of one long and an MPI_Sendrecv of RING ints with the
 *     ring neighbours, from the initial thread;
 *   - a parallel region of NT threads (first argument) in which thread t
 *     sends t + 1 ints to the next rank (MPI_Isend, tag t), receives the
 *     previous rank's (MPI_Recv) and waits for its send (MPI_Wait): MPI
 *     calls from several threads at once (MPI_THREAD_MULTIPLE);
 *   - MPI_Barrier.
 * Rank 0 prints what it gathered; nothing depends on timing. With a
 * second argument "die", rank 1 kills itself after the first round. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

enum { ROUNDS = 3, TASKS = 8, N = 1000, RING = 16 };

int main(int argc, char **argv)
{
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "no MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nt = argc > 1 ? atoi(argv[1]) : 2;
  int die = argc > 2 && !strcmp(argv[2], "die");
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  long check = 0;
  for (int round = 0; round < ROUNDS; round++) {
    long sum = 0, tasks = 0, total = 0;
    #pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < N; i++)
      sum += (long)(rank + 1) * i;
    #pragma omp parallel
    #pragma omp single
    for (int k = 0; k < TASKS; k++) {
      #pragma omp task shared(tasks)
      {
        #pragma omp atomic
        tasks++;
      }
    }
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int out[RING], in[RING];
    for (int i = 0; i < RING; i++)
      out[i] = rank * 100 + i;
    MPI_Sendrecv(out, RING, MPI_INT, next, 99, in, RING, MPI_INT, prev, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long got = 0;
    #pragma omp parallel num_threads(nt) reduction(+: got)
    {
      int t = omp_get_thread_num(), msg[64], back[64];
      for (int i = 0; i <= t; i++)
        msg[i] = rank + t + i;
      MPI_Request q;
      MPI_Isend(msg, t + 1, MPI_INT, next, t, MPI_COMM_WORLD, &q);
      MPI_Recv(back, t + 1, MPI_INT, prev, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      for (int i = 0; i <= t; i++)
        got += back[i];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check += total + tasks + in[RING - 1] + got;
    if (die && rank == 1)
      raise(SIGKILL);
  }
  long all[64] = {0};
  MPI_Gather(&check, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size && r < 64; r++)
      printf("rank %d: %ld\n", r, all[r]);
  }
  MPI_Finalize();
  return 0;
}
