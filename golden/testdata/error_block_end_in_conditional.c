/* The block of a construct ends inside an #ifdef, and code follows it in
 * the same branch: the closing code cannot go after the #endif without
 * moving that code into the construct. */
int counter;

void tail(void)
{
  #pragma omp parallel
  {
    counter++;
#ifdef VERBOSE
    counter++;
  }
  counter = 0; /* ERROR "code follows the end of the block of '#pragma omp parallel' \(at 13:3\) inside the conditional group opened at 11:1" */
}
#else
  }
}
#endif
