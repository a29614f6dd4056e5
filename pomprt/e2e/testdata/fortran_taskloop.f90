! Taskloops of known task counts: grainsize(10) over 100 iterations (10
! tasks), num_tasks(4) over 1000 iterations downwards, with a cycle, and
! grainsize(5) over 50 iterations of a labeled loop that a GO TO its
! label cycles (10 tasks).
program fortran_taskloop
  implicit none
  integer :: i
  integer(8) :: s, t, u
  s = 0
  t = 0
  u = 0
  !$omp parallel shared(s, t, u)
  !$omp single
  !$omp taskloop grainsize(10) reduction(+:s)
  do i = 1, 100
    s = s + i
  end do
  !$omp end taskloop
  !$omp taskloop num_tasks(4) reduction(+:t)
  do i = 1000, 1, -1
    if (mod(i, 7) == 0) cycle
    t = t + i
  end do
  !$omp taskloop grainsize(5) reduction(+:u)
  do 30 i = 1, 50
    if (mod(i, 5) == 0) goto 30
    u = u + i
30 continue
  !$omp end single
  !$omp end parallel
  print *, s, t, u
end program
