int f(void)
{
  return 0; /* ERROR "unterminated comment" */ /* this comment never ends
}
