program error_missing_end
  integer :: s
  s = 0
  !$omp parallel
  s = 1
end program
