/* MPI ping-pong of 8-byte messages between ranks 0 and 1: batches of
 * BATCH round trips, n in all (first argument), after a warm-up. Each
 * rank makes two MPI calls per round trip. Rank 0 prints the time per
 * round trip of the fastest batch: on a shared machine the fastest batch
 * is the one in which nothing else ran, the same for both builds. A
 * parallel region first, so that gopari instruments the program. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

enum { BATCH = 1000 };

int main(int argc, char **argv)
{
  int rank, provided;
  long n = argc > 1 ? atol(argv[1]) : 100000;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int threads = 0;
  #pragma omp parallel reduction(+: threads)
  threads++;
  double msg = rank, best = 1e30;
  for (long b = -n / BATCH / 10; b < n / BATCH; b++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < BATCH; i++) {
      if (rank == 0) {
        MPI_Send(&msg, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&msg, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(&msg, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&msg, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      }
    }
    double t = MPI_Wtime() - t0;
    if (b >= 0 && t < best)
      best = t;
  }
  if (rank == 0)
    printf("%.2f ns per round trip (fastest batch of %d; %d threads)\n", best / BATCH * 1e9, BATCH, threads);
  MPI_Finalize();
  return 0;
}
