! Lock routines: simple and nest locks, and omp_test_lock and
! omp_test_nest_lock where a statement can hold them (an assignment, a
! logical IF, a CALL); in an IF ... THEN they are left, with a warning.
program locks
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: lk
  integer(omp_nest_lock_kind) :: nl
  integer :: n, depth
  logical :: ok
  character(len=40) :: note
  call omp_init_lock(lk)
  call omp_init_nest_lock(nl)
  note = 'omp_test_lock(lk) in a string'
  n = 0
!$omp parallel shared(lk, nl, n)
  call OMP_Set_Nest_Lock(nl)
  call omp_set_nest_lock( nl )
  n = n + 1
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
!$omp end parallel
  depth = omp_test_nest_lock(nl) + omp_Test_Nest_Lock (nl)
  ok = omp_test_lock(lk) .and. note(1:3) == 'omp'
  if (omp_test_nest_lock(nl) > 0) depth = depth + 1
  call show(omp_test_nest_lock(nl), 'omp_test_nest_lock(nl)')
  if (omp_test_nest_lock(nl) > 0) then
    depth = depth + 1
  end if
  call omp_unset_lock(lk)
  call omp_destroy_lock(lk)
  call omp_destroy_nest_lock(nl)
  print *, n, depth, ok
contains
  subroutine show(i, s)
    integer, intent(in) :: i
    character(len=*), intent(in) :: s
    print *, i, s
  end subroutine
end program
