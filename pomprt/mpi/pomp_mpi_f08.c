/*
 * pomp_mpi_f08.c — MPI calls made from Fortran through `use mpi_f08`
 * (mpi_send_f08_, ...): the wrappers of pomp_mpi_f.c, in an object of
 * their own.
 */
#define POMP_MPI_F08 1
#include "pomp_mpi_f.c"
