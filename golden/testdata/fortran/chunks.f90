! --chunks: counted loops (no schedule, static), hooked loops (a chunk
! size, dynamic, guided, runtime), a negative step, a labeled loop, a
! combined parallel do, and loops that get no chunk grains.
subroutine chunks(n, a, k)
  implicit none
  integer, intent(in) :: n, k
  real, intent(inout) :: a(n, n)
  integer :: i, j
  !$omp parallel private(j)
  !$omp do
  do i = 1, n
    a(i, 1) = 0
  end do
  !$omp do schedule(static, 4)
  do i = n, 1, -2
    a(i, 2) = 1
  end do
  !$omp do schedule(nonmonotonic: dynamic, k + 1)
  do 10 i = 1, n
    a(i, 3) = 2
10 continue
  !$omp do schedule(guided)
  do i = 1, n
    a(i, 4) = 3
  end do
  !$omp do schedule(runtime)
  do i = 1, n
    a(i, 5) = 4
  end do
  !$omp do collapse(2)
  do j = 1, n
    do i = 1, n
      a(i, j) = a(i, j) + 1
    end do
  end do
  !$omp end parallel
  !$omp parallel do schedule(dynamic)
  do i = 1, n
    a(i, 6) = 5
  end do
end subroutine
