! Call paths in Fortran (gopari cc --functions gfortran): the twin of
! cpdeep.c. top -> mid -> leaf with known spins, measured by the
! program's own clock, in the main program and in a parallel region;
! prints what it measured (ns) per procedure, inclusive, for the test to
! compare with the call-path profile.
module fcp
  implicit none
  integer(8) :: top_ns = 0, mid_ns = 0, leaf_ns = 0
  integer(8) :: sink = 0
contains
  integer(8) function ns()
    integer(8) :: count, rate
    call system_clock(count, rate)
    ns = count * (1000000000_8 / rate)
  end function

  ! spin busy-waits for d ns, reading the clock itself: no call in the
  ! loop.
  subroutine spin(d)
    integer(8), intent(in) :: d
    integer(8) :: t0, t, rate
    call system_clock(t0, rate)
    t = t0
    do while ((t - t0) * (1000000000_8 / rate) < d)
      sink = sink + 1
      call system_clock(t)
    end do
  end subroutine

  subroutine leaf()
    integer(8) :: t0
    t0 = ns()
    call spin(2000000_8)
    leaf_ns = leaf_ns + (ns() - t0)
  end subroutine

  subroutine mid()
    integer(8) :: t0
    t0 = ns()
    call spin(1000000_8)
    call leaf()
    call leaf()
    mid_ns = mid_ns + (ns() - t0)
  end subroutine

  subroutine top()
    integer(8) :: t0
    t0 = ns()
    call spin(3000000_8)
    call mid()
    top_ns = top_ns + (ns() - t0)
  end subroutine
end module

program fortran_cpdeep
  use fcp
  implicit none
  integer :: i
  do i = 1, 4
    call top()
  end do
  !$omp parallel
  !$omp do
  do i = 1, 8
    call spin(100000_8)
  end do
  !$omp end do
  !$omp end parallel
  print '(a, i0, a, i0, a, i0)', 'top ', top_ns, ' mid ', mid_ns, ' leaf ', leaf_ns
end program
