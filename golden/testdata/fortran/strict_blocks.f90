! OpenMP 5.1's strictly structured blocks: a BLOCK construct as the body,
! with and without the end directive, nested in a construct of the same
! name that has one.
subroutine strict(n, s)
  implicit none
  integer, intent(in) :: n
  integer, intent(inout) :: s
  !$omp parallel shared(s)
  !$omp parallel shared(s)
  block
    integer :: k
    k = n
    !$omp atomic
    s = s + k
  end block
  !$omp critical (c)
  block
    s = s + 1
  end block
  !$omp end critical (c)
  !$omp single
  named: block
    s = s + 2
  end block named
  !$omp end parallel
end subroutine
