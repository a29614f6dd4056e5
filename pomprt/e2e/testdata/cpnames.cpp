// Call paths of C++: a namespace, a template, a lambda and a member
// function, none inlined, around OpenMP; geo::skip is left out by the
// tests' filter (by its demangled name). Prints the calls it made.
#include <cstdio>

namespace geo {
template <typename T>
__attribute__((noinline)) T twice(T x) { return x + x; }

__attribute__((noinline)) long skip(long x) { return twice<long>(x) - x; }

struct Mesh {
	long n;
	__attribute__((noinline)) long sum() const
	{
		long s = 0;
#pragma omp parallel for reduction(+ : s)
		for (long i = 0; i < n; i++)
			s += skip(i);
		return s;
	}
};
} // namespace geo

int main()
{
	geo::Mesh m{1000};
	auto run = [&](int k) __attribute__((noinline)) { return m.sum() * k; };
	long r = run(1) + run(2);
	std::printf("r %ld skip %ld twice %ld sum %ld\n", r, 2 * m.n, 2 * m.n, 2L);
	return 0;
}
