! cancel do from Fortran, for pomprt/e2e/fortran_test.go
! (TestFortranCancel): the iteration i = 1, thread 0's first under a
! static schedule, cancels the loop. With OMP_CANCELLATION=true thread 0
! runs that one iteration only; without, its whole share, and every
! iteration passes the cancellation point.
program fortran_cancel
  use omp_lib
  implicit none
  integer, parameter :: n = 1000
  integer :: i, found, mine
  found = -1
  mine = 0
!$omp parallel shared(found, mine)
!$omp do schedule(static)
  do i = 1, n
    if (omp_get_thread_num() == 0) mine = mine + 1
    if (i == 1) then
      found = i
!$omp cancel do
    end if
!$omp cancellation point do
  end do
!$omp end do
!$omp end parallel
  print '(a,i0,a,i0)', 'found ', found, ' thread 0 ran ', mine
end program fortran_cancel
