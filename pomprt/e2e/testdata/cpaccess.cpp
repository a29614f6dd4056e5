// cpaccess.cpp: a mesh of tiny accessors in LULESH's style, for gopari
// filter's proposal and the rebuild with it. Every function is out of
// line, so that the hooks a function calls are in its own body.
//
//   x, xd, e, size, volume: 2*10^5 to 4*10^5 calls of a few ns each, the
//     functions a filter should leave out. GCC's name of x
//     (mesh::Domain::x) is held by xd too, which is left out as well;
//   ex: called once, measured, and long (a loop of 4*10^6 adds: far more
//     than 0.1% of the run); GCC's name of e (mesh::Domain::e) is held by
//     ex, so e keeps its exact name, applied at run time;
//   advance, energy: 200 calls each, measured.
#include <cstdio>
#include <vector>

#define OUT __attribute__((noinline))

namespace mesh {
class Domain {
public:
	OUT explicit Domain(int n) : x_(n, 1.0), xd_(n, 0.5), e_(n, 2.0) {}
	OUT double &x(int i) { return x_[i]; }
	OUT double &xd(int i) { return xd_[i]; }
	OUT double &e(int i) { return e_[i]; }
	OUT double &ex(int i)
	{
		volatile double t = 0;
		for (int k = 0; k < 4000000; k++)
			t = t + k;
		return e_[i];
	}
	OUT int size() const { return (int)x_.size(); }
	OUT double volume(int i) const { return x_[i] * e_[i]; }

private:
	std::vector<double> x_, xd_, e_;
};

OUT void advance(Domain &d, double dt)
{
	for (int i = 0; i < d.size(); i++)
		d.x(i) += d.xd(i) * dt;
}

OUT double energy(Domain &d)
{
	double s = 0;
	for (int i = 0; i < d.size(); i++)
		s += d.e(i) * d.volume(i);
	return s;
}
} // namespace mesh

int main()
{
	mesh::Domain d(1000);
	double s = 0;
#pragma omp parallel num_threads(1)
	{
		for (int step = 0; step < 200; step++) {
			mesh::advance(d, 1e-3);
			s += mesh::energy(d);
		}
	}
	std::printf("%.6f %.1f\n", s, d.ex(0));
	return 0;
}
