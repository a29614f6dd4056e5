/* peak runs a command and prints, after it ends, the peak resident
 * memory of that command alone on stderr: "peak-rss N kB". The bench
 * driver starts exports through it: Linux counts in a child's peak the
 * memory of the process that forked it (the high-water mark survives
 * exec), and the driver holds tens of MiB; this program holds about one.
 * Usage: peak COMMAND [ARG ...]. Exits with the command's status. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: peak COMMAND [ARG ...]\n");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("peak: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  int st;
  struct rusage ru;
  if (wait4(pid, &st, 0, &ru) < 0) {
    perror("peak: wait4");
    return 2;
  }
  fprintf(stderr, "\npeak-rss %ld kB\n", ru.ru_maxrss);
  if (WIFEXITED(st))
    return WEXITSTATUS(st);
  return 128 + WTERMSIG(st);
}
