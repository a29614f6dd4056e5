// A raw string whose delimiter never comes back.
const char *text()
{
  return R"sql( /* ERROR "unterminated raw string literal" */
    SELECT * FROM t WHERE a = ")";
}
#pragma omp barrier
