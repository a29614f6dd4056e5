/* String and character literals with escapes, and with the L and u8
 * prefixes (u and U: hazard_literal_prefixes.cpp). */
#include <stdio.h>
#include <wchar.h>

void literals(int n)
{
  const char *a = "quote \" brace { paren ( backslash \\";
  const wchar_t *b = L"wide \"}\" string";
  const char *e = u8"utf-8 \u00e9 {{";
  char q = '\'', r = '"', s = '{', t = '\\';
  wchar_t w = L'}';
  const char *f = "a \
string continued { over two lines";
  #pragma omp parallel firstprivate(q, r, s, t) num_threads(2)
  {
    printf("%s %ls %c%c%c%c\n", a, b, q, r, s, t);
    printf("%s %d %s\n", e, (int)w, f);
    printf("\x7b\173 \"}\" '\n");
    printf("%c%c\n", '\x7d', '\175');
  }
  (void)n;
}
