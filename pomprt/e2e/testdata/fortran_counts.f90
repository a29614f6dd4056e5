! A Fortran program of known structure for gopari's end-to-end tests:
! fib(n) with two tasks per call of n >= 2; a do loop of 100 iterations
! with a named critical, an atomic and a lock in each; sections of three
! sections; a single. It prints what it computed, the same at every
! thread count.
module fib_mod
  implicit none
contains
  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    integer :: x, y
    if (n < 2) then
      r = n
      return
    end if
    !$omp task shared(x)
    x = fib(n - 1)
    !$omp end task
    !$omp task shared(y)
    y = fib(n - 2)
    !$omp end task
    !$omp taskwait
    r = x + y
  end function
end module

program fortran_counts
  use omp_lib
  use fib_mod
  implicit none
  integer :: i, f, crit, atom, locked, secs
  integer(omp_lock_kind) :: lk
  crit = 0
  atom = 0
  locked = 0
  secs = 0
  call omp_init_lock(lk)
  !$omp parallel shared(f, crit, atom, locked, secs, lk)
  !$omp single
  f = fib(15)
  !$omp end single
  !$omp do schedule(static, 5)
  do i = 1, 100
    !$omp critical (acc)
    crit = crit + i
    !$omp end critical (acc)
    !$omp atomic
    atom = atom + 1
    call omp_set_lock(lk)
    locked = locked + 2
    call omp_unset_lock(lk)
  end do
  !$omp end do
  !$omp sections
  !$omp section
  !$omp atomic
  secs = secs + 1
  !$omp section
  !$omp atomic
  secs = secs + 10
  !$omp section
  !$omp atomic
  secs = secs + 100
  !$omp end sections
  !$omp end parallel
  call omp_destroy_lock(lk)
  print *, f, crit, atom, locked, secs
end program
