! MPI from Fortran, for pomprt/e2e/fortran_mpi_test.go: built three ways,
! with include 'mpif.h' (the default), -DUSE_MPI (use mpi) and -DUSE_F08
! (use mpi_f08), and run as 2 ranks. Per rank, for ROUNDS rounds: one
! MPI_Isend of N integers to the other rank, MPI_Recv, MPI_Wait; one
! MPI_Send of N integers (rank 0 first, then rank 1); MPI_Allreduce of
! one double precision; MPI_Barrier. Then MPI_Bcast of 4 integers from
! rank 0, and MPI_Gather of 2 integers to rank 0, which gathers in place.
program fortran_mpi
#if defined(USE_F08)
  use mpi_f08
#elif defined(USE_MPI)
  use mpi
#endif
  implicit none
#if !defined(USE_F08) && !defined(USE_MPI)
  include 'mpif.h'
#endif
#if defined(USE_F08)
  type(MPI_Request) :: req
  type(MPI_Status) :: st
#else
  integer :: req, st(MPI_STATUS_SIZE)
#endif
  integer, parameter :: rounds = 3, n = 10
  integer :: ierr, rank, size, other, round, i
  integer :: out(n), in(n), b(4), g(4)
  double precision :: s, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  other = 1 - rank
  total = 0
  do round = 1, rounds
    s = 0
!$omp parallel do reduction(+:s)
    do i = 1, n
      out(i) = rank * 100 + round * 10 + i
      s = s + out(i)
    end do
!$omp end parallel do
    call MPI_Isend(out, n, MPI_INTEGER, other, 1, MPI_COMM_WORLD, req, ierr)
    call MPI_Recv(in, n, MPI_INTEGER, other, 1, MPI_COMM_WORLD, st, ierr)
    call MPI_Wait(req, st, ierr)
    if (rank == 0) then
      call MPI_Send(out, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD, ierr)
      call MPI_Recv(in, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD, st, ierr)
    else
      call MPI_Recv(in, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD, st, ierr)
      call MPI_Send(out, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD, ierr)
    end if
    s = s + sum(in)
    call MPI_Allreduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a,f0.1)', 'round ', round, ': ', total
  end do
  b = 0
  if (rank == 0) b = [1, 2, 3, 4]
  call MPI_Bcast(b, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  g = 0
  g(2*rank+1:2*rank+2) = [rank + sum(b), rank]
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 2, MPI_INTEGER, g, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    print '(a,4(1x,i0))', 'gathered', g
  else
    call MPI_Gather(g(2*rank+1), 2, MPI_INTEGER, g, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program fortran_mpi
