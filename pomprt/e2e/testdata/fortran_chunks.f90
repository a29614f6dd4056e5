! Do loops whose chunks are known by construction (--chunks): 100
! iterations in chunks of 5 (dynamic), 34 iterations downwards in chunks
! of 4 (static: 9 chunks), one chunk per thread (static), 10 chunks of a
! combined parallel do.
program fortran_chunks
  implicit none
  integer :: i, s
  s = 0
  !$omp parallel shared(s)
  !$omp do schedule(dynamic, 5) reduction(+:s)
  do i = 1, 100
    s = s + i
  end do
  !$omp end do
  !$omp do schedule(static, 4) reduction(+:s)
  do i = 100, 1, -3
    s = s + i
  end do
  !$omp do schedule(static) reduction(+:s)
  do i = 1, 64
    s = s + 1
  end do
  !$omp end parallel
  !$omp parallel do schedule(static, 10) reduction(+:s)
  do i = 1, 100
    s = s + 1
  end do
  print *, s
end program
