! Tasks, taskwait, taskgroup, taskyield and user regions in a module
! with internal procedures: the handles are declared in blocks, never in
! the user's specification part.
module tasks_mod
  implicit none
contains
  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    integer :: x, y
    if (n < 2) then
      r = n
      return
    end if
    !$omp task shared(x) untied
    x = fib(n - 1)
    !$omp end task
    !$omp task shared(y) if(n > 5) final(n < 3) mergeable
    y = fib(n - 2)
    !$omp end task
    !$omp taskwait
    r = x + y
  end function

  subroutine run(n, r)
    integer, intent(in) :: n
    integer, intent(out) :: r
    !$pomp inst begin(run)
    !$omp parallel
    !$omp single
    !$omp taskgroup
    !$omp task shared(r)
    r = helper(n)
    !$omp end task
    !$omp taskyield
    !$omp end taskgroup
    !$omp end single
    !$omp end parallel
    !$pomp inst end(run)
  contains
    integer function helper(k)
      integer, intent(in) :: k
      helper = fib(k)
    end function
  end subroutine
end module
