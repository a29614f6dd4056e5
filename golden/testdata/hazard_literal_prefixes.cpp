// String and character literals with every encoding prefix.
#include <cstdio>

void prefixes(int n)
{
  const wchar_t *w = L"wide }";
  const char16_t *c16 = u"utf-16 }";
  const char32_t *c32 = U"utf-32 {";
  const char *c8 = reinterpret_cast<const char *>(u8"utf-8 {{");
  wchar_t wc = L'}';
  char16_t x = u'{';
  char32_t y = U'(';
  char z = '"';
  #pragma omp parallel for if(n > int(u'{'))
  for (int i = 0; i < n; i++)
    std::printf("%ls %p %p %s %d %d %d %c\n", w, (const void *)c16, (const void *)c32, c8,
                int(wc), int(x), int(y), z);
}
