! cancel and cancellation point for do, sections, parallel and
! taskgroup, and in a parallel do: each is entered and left just before
! its directive, and the cancellable do and sections keep their implicit
! barriers.
integer function search(v, n, key)
  implicit none
  integer, intent(in) :: n, key, v(n)
  integer :: found, i
  found = -1
!$omp parallel shared(found)
!$omp do
  do i = 1, n
    if (v(i) == key) then
      found = i
!$omp cancel do
    end if
!$omp cancellation point do
  end do
!$omp end do
!$omp sections
!$omp section
  if (found < 0) then
!$omp cancel sections if(n > 0)
  end if
!$omp section
!$omp cancellation point sections
  print *, 'second'
!$omp end sections
  if (found >= 0) then
!$omp cancel parallel
  end if
!$omp cancellation point parallel
!$omp single
!$omp taskgroup
  do i = 1, n
!$omp task firstprivate(i)
    if (v(i) == -key) then
!$omp cancel taskgroup
    end if
!$omp cancellation point taskgroup
    print *, i
!$omp end task
  end do
!$omp end taskgroup
!$omp end single
!$omp end parallel
!$omp parallel do
  do i = 1, n
    if (v(i) == key) then
!$omp cancel do
    end if
  end do
  search = found
end function
