C     Fixed form: c$omp, *$omp and !$omp in column 1, continuation in
C     column 6, labeled DO loops sharing a label, blanks in keywords.
      PROGRAM FIXED
      IMPLICIT NONE
      INTEGER I, J, N, S
      DOUBLE PRECISION A(10,10)
      N = 10
      S = 0
C$OMP PARALLEL DEFAULT(SHARED)
C$OMP+PRIVATE(I, J)
*$omp do schedule(static)
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = I + J
   10 CONTINUE
!$omp end do
c$omp do reduction(+:S)
      DO 20 I = 1, N
         S = S + I
   20 END DO
c$omp end do nowait
c$omp critical
      S = S + 1
c$omp end critical
!$omp barrier
C$OMP END PARALLEL
C$OMP PARALLEL DO
      DO 30 I = 1, N
         A(I,1) = 0
   30 CONTINUE
C$OMP END PARALLEL DO
c$    S = S + 0
      PRINT *, S, A(2,2)
      END
