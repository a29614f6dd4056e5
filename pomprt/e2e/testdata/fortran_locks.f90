! Nest locks and the test routines from Fortran, for
! pomprt/e2e/fortran_test.go (TestFortranLocks): 100 iterations each set
! a nest lock twice and unset it twice; then the initial thread tests the
! nest lock twice (depth 2) and the simple lock once, and a second thread
! tests the nest lock once and fails, as the initial thread holds it.
program fortran_locks
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: lk
  integer(omp_nest_lock_kind) :: nl
  integer :: i, n, depth, got
  logical :: ok
  call omp_init_lock(lk)
  call omp_init_nest_lock(nl)
  n = 0
!$omp parallel do shared(nl, n)
  do i = 1, 100
    call omp_set_nest_lock(nl)
    call omp_set_nest_lock(nl)
    n = n + 1
    call omp_unset_nest_lock(nl)
    call omp_unset_nest_lock(nl)
  end do
!$omp end parallel do
  depth = omp_test_nest_lock(nl)
  depth = omp_test_nest_lock(nl)
  ok = omp_test_lock(lk)
  got = -1
!$omp parallel num_threads(2) shared(got, nl)
  if (omp_get_thread_num() == 1) got = omp_test_nest_lock(nl)
!$omp end parallel
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  call omp_unset_lock(lk)
  call omp_destroy_lock(lk)
  call omp_destroy_nest_lock(nl)
  print '(a,i0,a,i0,a,l1,a,i0)', 'n ', n, ' depth ', depth, ' ok ', ok, ' got ', got
end program fortran_locks
