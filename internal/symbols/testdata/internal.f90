! Internal procedures, which gfortran names by local symbols (inner.0):
! one in a module procedure, one in the main program.
module m
contains
  subroutine outer(x)
    real :: x
    call inner(x)
  contains
    subroutine inner(y)
      real :: y
      y = y * 2.0
    end subroutine inner
  end subroutine outer
end module m

program prog
  use m
  real :: a
  a = 1.0
  call outer(a)
  call pinner(a)
  print *, a
contains
  subroutine pinner(z)
    real :: z
    z = z + 1.0
  end subroutine pinner
end program prog
