! fib(n) with two tasks per non-leaf call, created inside single: the
! Fortran twin of fib.c, for the task identity checks.
module fortran_fib_mod
  implicit none
contains
  recursive integer(8) function fib(n) result(r)
    integer, intent(in) :: n
    integer(8) :: x, y
    if (n < 2) then
      r = n
      return
    end if
    !$omp task shared(x) firstprivate(n)
    x = fib(n - 1)
    !$omp end task
    !$omp task shared(y) firstprivate(n)
    y = fib(n - 2)
    !$omp end task
    !$omp taskwait
    r = x + y
  end function
end module

program fortran_fib
  use fortran_fib_mod
  implicit none
  integer :: n
  integer(8) :: r
  character(len=16) :: arg
  n = 22
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  r = 0
  !$omp parallel shared(r, n)
  !$omp single
  r = fib(n)
  !$omp end single
  !$omp end parallel
  print '(a, i0, a, i0)', 'fib(', n, ') = ', r
end program
