! Every construct gopari measures in free form: case, comments after
! directives, continuations with and without a leading !$omp&, !$ lines,
! end directives with nowait and copyprivate, named critical.
program free_constructs
  use omp_lib
  implicit none
  integer :: i, j, n, s, v, a(100), b(100)
  integer(omp_lock_kind) :: lk
  real :: x
  n = 100
  s = 0
!$ s = omp_get_max_threads() - omp_get_max_threads()
  call omp_init_lock(lk)
  !$OMP PARALLEL private(j, x) &   ! a comment after a continued directive
  !$omp   shared(a, b, n, s, lk) default(none)
  !$omp do schedule(dynamic, 4) &
  !$omp reduction(+: s)
  do i = 1, n
    a(i) = i
    s = s + i
  end do
  !$omp end do
  !$omp do
  do i = 1, n
    b(i) = a(i)
  end do
  !$omp end do nowait
  !$omp sections
  call omp_set_lock(lk)
  s = s + 1
  call omp_unset_lock(lk)
  !$omp section
  !$omp atomic
  s = s + 1
  !$omp end sections
  !$omp single
  x = 1.0
  !$omp end single copyprivate(x)
  !$omp critical (acc)
  s = s + 1
  !$omp end critical (acc)
  !$omp atomic capture
  j = s
  s = s + 1
  !$omp end atomic
  !$omp flush (s)
  !$omp barrier
  !$omp master
  s = s + 1
  !$omp end master
  !$omp masked filter(0)
  s = s + 1
  !$omp end masked
  !$omp workshare
  a = a + 1
  !$omp end workshare
  !$omp end parallel
  !$omp parallel do default(none) private(j) shared(a, n) lastprivate(v)
  do i = 1, n
    do j = 1, 2
      a(i) = a(i) + j
    end do
    v = i
  end do
  !$omp end parallel do
  !$omp parallel sections
  a(1) = 0
  !$omp section
  b(1) = 0
  !$omp end parallel sections
  !$omp parallel workshare
  b = a
  !$omp end parallel workshare
  !$omp simd
  do i = 1, n
    a(i) = a(i) * 2
  end do
  call omp_destroy_lock(lk)
  print *, s, v
end program
