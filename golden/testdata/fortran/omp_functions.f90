! The runtime's functions declared by their type only, as older codes
! declare them (CloverLeaf's initialise.f90), and called only inside a
! construct: the construct's block uses omp_lib for them, or gfortran
! would take them for variables there.
subroutine report(g_out)
  implicit none
  integer, intent(in) :: g_out
  !$ integer :: omp_get_thread_num, omp_get_num_threads
  !$omp parallel
  !$ if (omp_get_thread_num() .eq. 0) then
  !$   write (g_out, '(a15,i5)') 'Thread Count: ', omp_get_num_threads()
  !$ end if
  !$omp end parallel
end subroutine
