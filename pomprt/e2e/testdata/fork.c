/* fork, vfork + exec, system(), popen() and posix_spawn from an
 * instrumented program. The first argument names the case; what each
 * process does is counted so that a test knows its profile exactly:
 * tasks() runs TASKS tasks, crit() enters a critical section CRIT times.
 * With libgomp a forked child cannot start a team once its parent had
 * one (the pool's threads are gone, and the child waits for them), unless
 * the parent released them before the fork with omp_pause_resource_all;
 * so most children that fork after a team run crit() only, and "again"
 * pauses when told to. */
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

/* again: the child and the parent each run tasks() after the fork, and
 * the child forks a grandchild after its team, which runs tasks() too;
 * the parent has a team before the fork if before is set. With pause,
 * each process releases its OpenMP threads before it forks (as libgomp
 * needs). The grandchild calls exit(4), the child returns 3 from main. */
static int again(int before, int pause)
{
  long n = before ? tasks() : 0;
  fflush(stdout);
  if (pause)
    omp_pause_resource_all(omp_pause_soft);
  pid_t pid = fork();
  if (pid == 0) {
    long c = tasks();
    fflush(stdout);
    if (pause)
      omp_pause_resource_all(omp_pause_soft);
    pid_t g = fork();
    if (g == 0) {
      printf("grandchild %ld\n", tasks());
      exit(4);
    }
    int st = wait_for(g);
    printf("child %ld, grandchild %d\n", c, st);
    return 3;
  }
  int st = wait_for(pid);
  printf("parent %ld %ld, child %d\n", n, tasks(), st);
  return 0;
}

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "leaf")) { /* exec'd by spawn-self */
    printf("leaf %ld\n", tasks());
    return 0;
  }
  if (!strcmp(c, "again") || !strcmp(c, "again-first"))
    return again(c[5] == 0, argc > 2 && !strcmp(argv[2], "pause"));
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
