#include <cstdio>

namespace geo {
template <typename T> T twice(T x) { /* @twice */
	return x + x;
}

struct Widget {
	static int make(int v) { /* @make */
		return v * 2;
	}
};
} // namespace geo

int main() { /* @main */
	auto lam = +[](int x) { return x - 1; }; /* @lambda */
	int (*volatile t)(int) = geo::twice<int>;
	double (*volatile td)(double) = geo::twice<double>;
	int (*volatile m)(int) = geo::Widget::make;
	int (*volatile l)(int) = lam;
	std::printf("twice %p\n", (void *)t);
	std::printf("twiced %p\n", (void *)td);
	std::printf("make %p\n", (void *)m);
	std::printf("lambda %p\n", (void *)l);
	std::printf("maps\n");
	FILE *f = std::fopen("/proc/self/maps", "r");
	char line[4096];
	while (std::fgets(line, sizeof line, f))
		std::fputs(line, stdout);
	std::fclose(f);
	return t(1) + m(1) + l(1) + (int)td(1.0) > 0 ? 0 : 1;
}
