#include <stdio.h>

void *lib_addr(void); /* in lib.c, when linked with it */

static int helper(int x) { /* @helper */
	return x * 3 + 1;
}

int compute(int n) { /* @compute */
	int s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}

int main(int argc, char **argv) { /* @main */
	int (*volatile c)(int) = compute;
	int (*volatile h)(int) = helper;
	printf("compute %p\n", (void *)c);
	printf("helper %p\n", (void *)h);
	printf("main %p\n", (void *)main);
#ifdef WITH_LIB
	printf("lib_fn %p\n", lib_addr());
#endif
	printf("maps\n");
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	while (fgets(line, sizeof line, f))
		fputs(line, stdout);
	fclose(f);
	return c(argc) > 0 ? 0 : 1;
}
