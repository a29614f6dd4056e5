/* top -> mid -> leaf, and a parallel region in top: the program of the
   call-path views' tests, which build its profile by hand. */
#include <stdio.h>

volatile double sink;

void leaf(int n) { /* @leaf */
	for (int i = 0; i < n; i++)
		sink += i;
}

void mid(int n) { /* @mid */
	leaf(n);
	leaf(n);
}

void top(int n) { /* @top */
	mid(n);
#pragma omp parallel
	leaf(n);
}

int main(void) { /* @main */
	void (*volatile t)(int) = top, (*volatile m)(int) = mid, (*volatile l)(int) = leaf;
	t(10);
	printf("top %p\nmid %p\nleaf %p\nmain %p\n", (void *)t, (void *)m, (void *)l, (void *)main);
	printf("maps\n");
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	while (fgets(line, sizeof line, f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}
