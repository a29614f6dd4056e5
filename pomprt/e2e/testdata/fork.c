/* fork, vfork + exec, system(), popen() and posix_spawn from an
 * instrumented program. The first argument names the case; what each
 * process does is counted so that a test knows its profile exactly:
 * tasks() runs TASKS tasks, crit() enters a critical section CRIT times.
 * A forked child may not start a team once its parent had one (the
 * pool threads of libgomp are gone), so children that fork after a team
 * run crit() only. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <omp.h>

extern char **environ;

enum { TASKS = 12, CRIT = 5 };

static long tasks(void)
{
  long n = 0;
  #pragma omp parallel
  #pragma omp single
  for (int i = 0; i < TASKS; i++) {
    #pragma omp task shared(n)
    {
      #pragma omp atomic
      n++;
    }
  }
  return n;
}

static long crit(void)
{
  long n = 0;
  for (int i = 0; i < CRIT; i++) {
    #pragma omp critical
    n++;
  }
  return n;
}

static int wait_for(pid_t pid)
{
  int st;
  if (waitpid(pid, &st, 0) != pid)
    return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "leaf")) { /* exec'd by spawn-self */
    printf("leaf %ld\n", tasks());
    return 0;
  }
  if (!strcmp(c, "fork-first")) { /* fork before any team; the child returns from main */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      printf("child %ld\n", tasks());
      return 0;
    }
    int st = wait_for(pid);
    printf("parent %ld, child %d\n", tasks(), st);
    return 0;
  }
  long n = tasks(); /* the parent has a team from now on */
  fflush(stdout);
  if (!strcmp(c, "fork")) { /* the child calls exit() */
    pid_t pid = fork();
    if (pid == 0) {
      printf("child %ld\n", crit());
      exit(0);
    }
    int st = wait_for(pid);
    printf("parent %ld %ld, child %d\n", n, crit(), st);
  } else if (!strcmp(c, "fork-daemon")) { /* the child outlives its parent */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
      while (getppid() == parent)
        usleep(1000);
      printf("child %ld\n", crit());
      exit(0);
    }
    printf("parent %ld\n", n);
  } else if (!strcmp(c, "fork-crash")) { /* the child crashes */
    pid_t pid = fork();
    if (pid == 0) {
      crit();
      *(volatile int *)0 = 1;
      _exit(1);
    }
    printf("parent %ld, child %d\n", n, wait_for(pid));
  } else if (!strcmp(c, "fork-in-parallel")) { /* thread 0 forks inside a region; the child exits from it */
    int st = -1;
    #pragma omp parallel shared(st)
    {
      #pragma omp masked
      {
        pid_t pid = fork();
        if (pid == 0) {
          printf("child %ld\n", crit());
          exit(0);
        }
        st = wait_for(pid);
      }
      #pragma omp barrier
    }
    printf("parent %ld, child %d\n", n, st);
  } else if (!strcmp(c, "vfork")) {
    pid_t pid = vfork();
    if (pid == 0) {
      execl("/bin/echo", "echo", "vfork child", (char *)0);
      _exit(127);
    }
    printf("parent %ld, child %d\n", n, wait_for(pid));
  } else if (!strcmp(c, "system")) {
    int st = system("echo system child");
    printf("parent %ld, child %d\n", n, WEXITSTATUS(st));
  } else if (!strcmp(c, "popen")) {
    char line[64] = "";
    FILE *f = popen("echo popen child", "r");
    if (!f || !fgets(line, sizeof line, f))
      return 1;
    printf("parent %ld, read %s", n, line);
    printf("child %d\n", WEXITSTATUS(pclose(f)));
  } else if (!strcmp(c, "spawn") || !strcmp(c, "spawn-self")) {
    pid_t pid;
    char *echo[] = {"echo", "spawn child", NULL};
    char *self[] = {argv[0], "leaf", NULL};
    char **av = c[5] ? self : echo;
    if (posix_spawn(&pid, c[5] ? "/proc/self/exe" : "/bin/echo", NULL, NULL, av, environ) != 0)
      return 1;
    printf("parent %ld, child %d\n", n, wait_for(pid));
  } else {
    fprintf(stderr, "usage: fork CASE\n");
    return 2;
  }
  return 0;
}
