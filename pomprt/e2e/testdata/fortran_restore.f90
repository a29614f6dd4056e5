! Tasks whose children outlive them, run while their creator waits in a
! taskgroup or a barrier: the creator's identity must be restored after
! each wait, so that the tasks it creates next are its own.
program fortran_restore
  implicit none
  integer :: i, s
  s = 0
  !$omp parallel shared(s)
  !$omp single
  !$omp taskgroup
  do i = 1, 20
    !$omp task shared(s)
    !$omp task shared(s)
    !$omp atomic
    s = s + 1
    !$omp end task
    !$omp end task
  end do
  !$omp end taskgroup
  !$omp task shared(s)
  !$omp atomic
  s = s + 100
  !$omp end task
  !$omp end single
  !$omp single
  do i = 1, 20
    !$omp task shared(s)
    !$omp task shared(s)
    !$omp atomic
    s = s + 1
    !$omp end task
    !$omp end task
  end do
  !$omp end single nowait
  !$omp barrier
  !$omp master
  !$omp task shared(s)
  !$omp atomic
  s = s + 1000
  !$omp end task
  !$omp end master
  !$omp end parallel
  print *, s
end program
