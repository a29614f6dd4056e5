static int lib_fn(int x) { /* @lib_fn */
	return x + 7;
}

void *lib_addr(void) {
	int (*volatile f)(int) = lib_fn;
	return (void *)f;
}
