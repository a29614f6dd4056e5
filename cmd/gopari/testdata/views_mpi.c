/* An MPI job of two ranks for the test that renders one job through
 * every view (TestViewsAgree): each rank runs a parallel region of
 * OMP_NUM_THREADS threads in which thread 0 acquires a lock 10 times and
 * thread 1 7 times, rank 1 works twice as long as rank 0, a combined
 * parallel for, and the ranks exchange messages and reduce a sum. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

static volatile double sink;

static void spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	omp_lock_t lock;
	omp_init_lock(&lock);
	double sum = 0;
#pragma omp parallel
	{
		spin((rank + 1) * 300000L * (omp_get_thread_num() + 1));
		int n = omp_get_thread_num() == 0 ? 10 : omp_get_thread_num() == 1 ? 7 : 0;
		for (int i = 0; i < n; i++) {
			omp_set_lock(&lock);
			sum += 1;
			omp_unset_lock(&lock);
		}
#pragma omp for schedule(static)
		for (int i = 0; i < 1000; i++)
			spin(100);
	}
	omp_destroy_lock(&lock);
#pragma omp parallel for schedule(static)
	for (int i = 0; i < 100; i++)
		spin(1000);
	int token = rank, got = -1;
	MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
	             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	double all = 0;
	MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("sum %.0f token %d\n", all, got);
	MPI_Finalize();
	return 0;
}
