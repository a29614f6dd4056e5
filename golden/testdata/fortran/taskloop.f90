! Taskloops: grainsize, num_tasks, a downward loop with cycle, a
! labeled CONTINUE, untied (removed), and loops left as written.
subroutine loops(n, a)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i, j
  !$omp parallel
  !$omp single
  !$omp taskloop grainsize(10)
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp end taskloop
  !$omp taskloop num_tasks(4) untied
  do i = n, 1, -1
    if (a(i) < 0) cycle
    a(i) = 0
  end do
  !$omp taskloop nogroup
  do 10 i = 1, n
    a(i) = 2
10 continue
  !$omp taskwait
  !$omp taskloop collapse(2)
  do j = 1, 2
    do i = 1, n
      a(i) = a(i) * j
    end do
  end do
  !$omp taskloop
  do 20 j = 1, 2
  do 20 i = 1, n
    a(i) = 3
20 continue
  !$omp taskloop simd
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp end single
  !$omp end parallel
end subroutine
