/* A hybrid MPI + OpenMP ring: each rank sums its share of a series with
 * a parallel loop, passes a token around the ring from inside a parallel
 * region (one message per thread, MPI_THREAD_MULTIPLE) and reduces the
 * sums. Rank 0 prints the result.
 *
 *   mpicc:  gopari cc mpicc -fopenmp -O2 ring.c -o ring
 *   CMake:  see CMakeLists.txt
 *   run:    mpirun -np 4 ./ring; gopari report */
#include <mpi.h>
#include <stdio.h>
#include <omp.h>

int main(int argc, char **argv)
{
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double sum = 0;
  #pragma omp parallel for reduction(+: sum) schedule(static)
  for (long i = rank; i < 4000000; i += size)
    sum += 1.0 / ((2.0 * i + 1) * (i % 2 ? -1 : 1));
  long tokens = 0;
  #pragma omp parallel reduction(+: tokens)
  {
    int t = omp_get_thread_num(), token = rank, got;
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, t, &got, 1, MPI_INT, (rank + size - 1) % size, t,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    tokens += got;
  }
  double pi = 0;
  long all = 0;
  MPI_Reduce(&sum, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&tokens, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pi ~ %.6f, %ld tokens\n", 4 * pi, all);
  MPI_Finalize();
  return 0;
}
