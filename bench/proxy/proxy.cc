/* proxy: a Lagrangian shock-hydro proxy written for gopari's call-path
 * benchmark, in the style of LLNL's LULESH 2.0 (not its code): a
 * hexahedral mesh held by a Domain class whose fields are read and
 * written through one-line accessor methods, and a time step made of
 * many small kernels, each an OpenMP parallel for over elements or
 * nodes that calls small per-element helper functions. A Sedov-like
 * blast: energy deposited in the corner element spreads through the
 * mesh.
 *
 * What makes it a proxy for LULESH under -finstrument-functions is the
 * shape of its calls, not its physics: GCC instruments every function,
 * the inlined accessors and helpers too, so the g++ build makes about
 * 240 calls per element and time step (system headers left out), most
 * of them to accessors of one instruction; LULESH 2.0 makes about 450
 * (-s 20: 2.07e9 calls in 575 iterations over 8,000 elements, counted
 * as bench/proxy/count.c counts). Uninstrumented, both run them at
 * several hundred million per second and core.
 *
 * Usage: proxy [edge elements] [steps]. Prints on stdout a checksum of
 * the final state (deterministic: every parallel loop writes what only
 * its own iteration owns, the sums are serial), on stderr the wall time.
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <omp.h>

typedef double Real;
typedef int Index;

namespace proxy {

const Real gamma_gas = 1.4;
const Real q_lin = 0.3, q_quad = 1.5;
const Real e_cut = 1.0e-7, v_cut = 1.0e-10, p_min = 0.0;
const Real courant = 0.5, dt_max = 1.0e-2;

/* Domain: the mesh and its fields, LULESH's way: each field a vector,
 * each read through an accessor. */
class Domain {
public:
	explicit Domain(Index edge);

	Index numElem() const { return m_numElem; }
	Index numNode() const { return m_numNode; }
	Index edgeNodes() const { return m_edge + 1; }

	/* nodes */
	Real &x(Index i) { return m_x[i]; }
	Real &y(Index i) { return m_y[i]; }
	Real &z(Index i) { return m_z[i]; }
	Real &xd(Index i) { return m_xd[i]; }
	Real &yd(Index i) { return m_yd[i]; }
	Real &zd(Index i) { return m_zd[i]; }
	Real &xdd(Index i) { return m_xdd[i]; }
	Real &ydd(Index i) { return m_ydd[i]; }
	Real &zdd(Index i) { return m_zdd[i]; }
	Real &fx(Index i) { return m_fx[i]; }
	Real &fy(Index i) { return m_fy[i]; }
	Real &fz(Index i) { return m_fz[i]; }
	Real &nodalMass(Index i) { return m_nodalMass[i]; }
	bool symmX(Index i) const { return m_symm[i] & 1; }
	bool symmY(Index i) const { return m_symm[i] & 2; }
	bool symmZ(Index i) const { return m_symm[i] & 4; }

	/* node to element corners (for the force gather) */
	Index nodeElemCount(Index i) const { return m_cornerStart[i + 1] - m_cornerStart[i]; }
	const Index *nodeElemCornerList(Index i) const { return &m_cornerList[m_cornerStart[i]]; }

	/* elements */
	const Index *nodelist(Index e) const { return &m_nodelist[8 * e]; }
	Real &e(Index i) { return m_e[i]; }
	Real &p(Index i) { return m_p[i]; }
	Real &q(Index i) { return m_q[i]; }
	Real &v(Index i) { return m_v[i]; }
	Real &volo(Index i) { return m_volo[i]; }
	Real &vnew(Index i) { return m_vnew[i]; }
	Real &delv(Index i) { return m_delv[i]; }
	Real &vdov(Index i) { return m_vdov[i]; }
	Real &arealg(Index i) { return m_arealg[i]; }
	Real &ss(Index i) { return m_ss[i]; }
	Real &elemMass(Index i) { return m_elemMass[i]; }
	Real &cornerForce(Index c, int k) { return m_corner[3 * c + k]; }

	Real &time() { return m_time; }
	Real &deltatime() { return m_dt; }
	Real &dtcourant() { return m_dtcourant; }

private:
	Index m_edge, m_numElem, m_numNode;
	std::vector<Real> m_x, m_y, m_z, m_xd, m_yd, m_zd, m_xdd, m_ydd, m_zdd;
	std::vector<Real> m_fx, m_fy, m_fz, m_nodalMass;
	std::vector<unsigned char> m_symm;
	std::vector<Index> m_nodelist, m_cornerStart, m_cornerList;
	std::vector<Real> m_e, m_p, m_q, m_v, m_volo, m_vnew, m_delv, m_vdov;
	std::vector<Real> m_arealg, m_ss, m_elemMass, m_corner;
	Real m_time, m_dt, m_dtcourant;
};

/* ------------------------------------------------------------------
 * Small helpers, as in LULESH: each a few lines.
 */
Real TripleProduct(Real x1, Real y1, Real z1, Real x2, Real y2, Real z2, Real x3, Real y3, Real z3)
{
	return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2);
}

void CollectNodes(Domain &d, const Index *nl, Real x[8], Real y[8], Real z[8])
{
	for (int k = 0; k < 8; k++) {
		x[k] = d.x(nl[k]);
		y[k] = d.y(nl[k]);
		z[k] = d.z(nl[k]);
	}
}

Real CalcElemVolume(const Real x[8], const Real y[8], const Real z[8])
{
	/* the volume of a hexahedron as three triple products of its
	 * diagonals and edges (Grandy's formula, as LULESH computes it) */
	Real dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
	Real dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
	Real dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
	Real dx20 = x[2] - x[0], dy20 = y[2] - y[0], dz20 = z[2] - z[0];
	Real dx50 = x[5] - x[0], dy50 = y[5] - y[0], dz50 = z[5] - z[0];
	Real dx64 = x[6] - x[4], dy64 = y[6] - y[4], dz64 = z[6] - z[4];
	Real dx31 = x[3] - x[1], dy31 = y[3] - y[1], dz31 = z[3] - z[1];
	Real dx72 = x[7] - x[2], dy72 = y[7] - y[2], dz72 = z[7] - z[2];
	Real dx43 = x[4] - x[3], dy43 = y[4] - y[3], dz43 = z[4] - z[3];
	Real dx57 = x[5] - x[7], dy57 = y[5] - y[7], dz57 = z[5] - z[7];
	Real dx14 = x[1] - x[4], dy14 = y[1] - y[4], dz14 = z[1] - z[4];
	Real dx25 = x[2] - x[5], dy25 = y[2] - y[5], dz25 = z[2] - z[5];
	Real v = TripleProduct(dx31 + dx72, dx63, dx20, dy31 + dy72, dy63, dy20, dz31 + dz72, dz63, dz20) +
		 TripleProduct(dx43 + dx57, dx64, dx70, dy43 + dy57, dy64, dy70, dz43 + dz57, dz64, dz70) +
		 TripleProduct(dx14 + dx25, dx61, dx50, dy14 + dy25, dy61, dy50, dz14 + dz25, dz61, dz50);
	return v / 12.0;
}

Real AreaFace(const Real x[8], const Real y[8], const Real z[8], int a, int b, int c, int e)
{
	Real fx = (x[c] - x[a]) - (x[e] - x[b]), fy = (y[c] - y[a]) - (y[e] - y[b]), fz = (z[c] - z[a]) - (z[e] - z[b]);
	Real gx = (x[c] - x[a]) + (x[e] - x[b]), gy = (y[c] - y[a]) + (y[e] - y[b]), gz = (z[c] - z[a]) + (z[e] - z[b]);
	Real fg = fx * gx + fy * gy + fz * gz;
	return (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz) - fg * fg;
}

Real CalcElemCharacteristicLength(const Real x[8], const Real y[8], const Real z[8], Real volume)
{
	static const int face[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
	Real amax = 0.0;
	for (int f = 0; f < 6; f++) {
		Real a = AreaFace(x, y, z, face[f][0], face[f][1], face[f][2], face[f][3]);
		amax = a > amax ? a : amax;
	}
	return 4.0 * volume / std::sqrt(amax);
}

/* SumElemFaceNormal adds a quarter of the normal of the face a-b-c-e
 * to each of its corners' normals. */
void SumElemFaceNormal(Real nx[8], Real ny[8], Real nz[8], const Real x[8], const Real y[8], const Real z[8], int a,
		       int b, int c, int e)
{
	Real bx0 = 0.5 * (x[c] + x[e] - x[a] - x[b]), by0 = 0.5 * (y[c] + y[e] - y[a] - y[b]),
	     bz0 = 0.5 * (z[c] + z[e] - z[a] - z[b]);
	Real bx1 = 0.5 * (x[b] + x[c] - x[e] - x[a]), by1 = 0.5 * (y[b] + y[c] - y[e] - y[a]),
	     bz1 = 0.5 * (z[b] + z[c] - z[e] - z[a]);
	Real ax = 0.25 * (by0 * bz1 - bz0 * by1), ay = 0.25 * (bz0 * bx1 - bx0 * bz1), az = 0.25 * (bx0 * by1 - by0 * bx1);
	const int corner[4] = {a, b, c, e};
	for (int k = 0; k < 4; k++) {
		nx[corner[k]] += ax;
		ny[corner[k]] += ay;
		nz[corner[k]] += az;
	}
}

void CalcElemNodeNormals(Real nx[8], Real ny[8], Real nz[8], const Real x[8], const Real y[8], const Real z[8])
{
	for (int k = 0; k < 8; k++)
		nx[k] = ny[k] = nz[k] = 0.0;
	SumElemFaceNormal(nx, ny, nz, x, y, z, 0, 1, 2, 3);
	SumElemFaceNormal(nx, ny, nz, x, y, z, 0, 4, 5, 1);
	SumElemFaceNormal(nx, ny, nz, x, y, z, 1, 5, 6, 2);
	SumElemFaceNormal(nx, ny, nz, x, y, z, 2, 6, 7, 3);
	SumElemFaceNormal(nx, ny, nz, x, y, z, 3, 7, 4, 0);
	SumElemFaceNormal(nx, ny, nz, x, y, z, 4, 7, 6, 5);
}

void SumElemStressesToCornerForces(Domain &d, Index e, const Real nx[8], const Real ny[8], const Real nz[8], Real sig)
{
	for (int k = 0; k < 8; k++) {
		d.cornerForce(8 * e + k, 0) = -sig * nx[k];
		d.cornerForce(8 * e + k, 1) = -sig * ny[k];
		d.cornerForce(8 * e + k, 2) = -sig * nz[k];
	}
}

Real ElemVelocityDivergence(Domain &d, const Index *nl, const Real nx[8], const Real ny[8], const Real nz[8])
{
	Real div = 0.0;
	for (int k = 0; k < 8; k++)
		div += d.xd(nl[k]) * nx[k] + d.yd(nl[k]) * ny[k] + d.zd(nl[k]) * nz[k];
	return div;
}

Real Clamp(Real v, Real lo, Real hi) { return v < lo ? lo : (v > hi ? hi : v); }
Real CutOff(Real v, Real cut) { return std::fabs(v) < cut ? 0.0 : v; }

/* ------------------------------------------------------------------
 * Kernels: one OpenMP loop each.
 */
void IntegrateStressForElems(Domain &d)
{
#pragma omp parallel for
	for (Index e = 0; e < d.numElem(); e++) {
		Real x[8], y[8], z[8], nx[8], ny[8], nz[8];
		const Index *nl = d.nodelist(e);
		CollectNodes(d, nl, x, y, z);
		CalcElemNodeNormals(nx, ny, nz, x, y, z);
		SumElemStressesToCornerForces(d, e, nx, ny, nz, -(d.p(e) + d.q(e)));
	}
}

void GatherNodeForces(Domain &d)
{
#pragma omp parallel for
	for (Index n = 0; n < d.numNode(); n++) {
		Real fx = 0.0, fy = 0.0, fz = 0.0;
		const Index *cl = d.nodeElemCornerList(n);
		for (Index k = 0; k < d.nodeElemCount(n); k++) {
			fx += d.cornerForce(cl[k], 0);
			fy += d.cornerForce(cl[k], 1);
			fz += d.cornerForce(cl[k], 2);
		}
		d.fx(n) = fx;
		d.fy(n) = fy;
		d.fz(n) = fz;
	}
}

void CalcAccelerationForNodes(Domain &d)
{
#pragma omp parallel for
	for (Index n = 0; n < d.numNode(); n++) {
		d.xdd(n) = d.fx(n) / d.nodalMass(n);
		d.ydd(n) = d.fy(n) / d.nodalMass(n);
		d.zdd(n) = d.fz(n) / d.nodalMass(n);
	}
}

void ApplyAccelerationBoundaryConditions(Domain &d)
{
#pragma omp parallel for
	for (Index n = 0; n < d.numNode(); n++) {
		if (d.symmX(n))
			d.xdd(n) = 0.0;
		if (d.symmY(n))
			d.ydd(n) = 0.0;
		if (d.symmZ(n))
			d.zdd(n) = 0.0;
	}
}

void CalcVelocityForNodes(Domain &d, Real dt)
{
#pragma omp parallel for
	for (Index n = 0; n < d.numNode(); n++) {
		d.xd(n) = CutOff(d.xd(n) + d.xdd(n) * dt, v_cut);
		d.yd(n) = CutOff(d.yd(n) + d.ydd(n) * dt, v_cut);
		d.zd(n) = CutOff(d.zd(n) + d.zdd(n) * dt, v_cut);
	}
}

void CalcPositionForNodes(Domain &d, Real dt)
{
#pragma omp parallel for
	for (Index n = 0; n < d.numNode(); n++) {
		d.x(n) += d.xd(n) * dt;
		d.y(n) += d.yd(n) * dt;
		d.z(n) += d.zd(n) * dt;
	}
}

void CalcKinematicsForElems(Domain &d, Real dt)
{
#pragma omp parallel for
	for (Index e = 0; e < d.numElem(); e++) {
		Real x[8], y[8], z[8], nx[8], ny[8], nz[8];
		const Index *nl = d.nodelist(e);
		CollectNodes(d, nl, x, y, z);
		Real vol = CalcElemVolume(x, y, z);
		d.vnew(e) = vol / d.volo(e);
		d.delv(e) = d.vnew(e) - d.v(e);
		d.arealg(e) = CalcElemCharacteristicLength(x, y, z, vol);
		CalcElemNodeNormals(nx, ny, nz, x, y, z);
		d.vdov(e) = ElemVelocityDivergence(d, nl, nx, ny, nz) / vol;
		(void)dt;
	}
}

Real ArtificialViscosity(Real vdov, Real rho, Real ss, Real len)
{
	if (vdov >= 0.0)
		return 0.0;
	Real dv = -vdov * len;
	return rho * (q_lin * ss * dv + q_quad * dv * dv);
}

void CalcQForElems(Domain &d)
{
#pragma omp parallel for
	for (Index e = 0; e < d.numElem(); e++) {
		Real rho = d.elemMass(e) / (d.volo(e) * d.vnew(e));
		d.q(e) = ArtificialViscosity(d.vdov(e), rho, d.ss(e), d.arealg(e));
	}
}

Real PressureFromEnergy(Real e, Real rho) { return Clamp((gamma_gas - 1.0) * rho * e, p_min, 1.0e12); }
Real SoundSpeed(Real p, Real rho) { return std::sqrt(gamma_gas * p / rho + 1.0e-12); }

void EvalEOSForElems(Domain &d)
{
#pragma omp parallel for
	for (Index e = 0; e < d.numElem(); e++) {
		Real m = d.elemMass(e);
		Real work = -(d.p(e) + d.q(e)) * d.delv(e) * d.volo(e);
		Real en = CutOff(d.e(e) + work / m, e_cut);
		d.e(e) = en > 0.0 ? en : 0.0;
		Real rho = m / (d.volo(e) * d.vnew(e));
		d.p(e) = PressureFromEnergy(d.e(e), rho);
		d.ss(e) = SoundSpeed(d.p(e), rho);
		d.v(e) = d.vnew(e);
	}
}

Real CourantLimit(Real len, Real ss, Real vdov)
{
	Real c = ss * ss + q_quad * len * len * vdov * vdov;
	return c > 0.0 ? courant * len / std::sqrt(c) : dt_max;
}

void CalcTimeConstraints(Domain &d)
{
	Real dt = dt_max;
#pragma omp parallel for reduction(min : dt)
	for (Index e = 0; e < d.numElem(); e++) {
		Real c = CourantLimit(d.arealg(e), d.ss(e), d.vdov(e));
		dt = c < dt ? c : dt;
	}
	d.dtcourant() = dt;
}

void LagrangeLeapFrog(Domain &d)
{
	Real dt = d.deltatime();
	IntegrateStressForElems(d);
	GatherNodeForces(d);
	CalcAccelerationForNodes(d);
	ApplyAccelerationBoundaryConditions(d);
	CalcVelocityForNodes(d, dt);
	CalcPositionForNodes(d, dt);
	CalcKinematicsForElems(d, dt);
	CalcQForElems(d);
	EvalEOSForElems(d);
	CalcTimeConstraints(d);
}

void TimeIncrement(Domain &d)
{
	Real next = Clamp(d.dtcourant(), 0.0, 1.1 * d.deltatime());
	d.deltatime() = next > 0.0 ? next : d.deltatime();
	d.time() += d.deltatime();
}

/* ------------------------------------------------------------------
 * Set-up and check.
 */
Domain::Domain(Index edge) : m_edge(edge), m_time(0.0), m_dt(1.0e-7), m_dtcourant(dt_max)
{
	Index en = edge + 1;
	m_numElem = edge * edge * edge;
	m_numNode = en * en * en;
	for (auto *f : {&m_x, &m_y, &m_z, &m_xd, &m_yd, &m_zd, &m_xdd, &m_ydd, &m_zdd, &m_fx, &m_fy, &m_fz, &m_nodalMass})
		f->assign(m_numNode, 0.0);
	for (auto *f : {&m_e, &m_p, &m_q, &m_v, &m_volo, &m_vnew, &m_delv, &m_vdov, &m_arealg, &m_ss, &m_elemMass})
		f->assign(m_numElem, 0.0);
	m_corner.assign(24 * (size_t)m_numElem, 0.0);
	m_symm.assign(m_numNode, 0);
	Real h = 1.125 / edge;
	for (Index k = 0; k < en; k++)
		for (Index j = 0; j < en; j++)
			for (Index i = 0; i < en; i++) {
				Index n = (k * en + j) * en + i;
				m_x[n] = i * h, m_y[n] = j * h, m_z[n] = k * h;
				m_symm[n] = (i == 0) | (j == 0) << 1 | (k == 0) << 2;
			}
	m_nodelist.resize(8 * (size_t)m_numElem);
	std::vector<Index> count(m_numNode + 1, 0);
	for (Index k = 0; k < edge; k++)
		for (Index j = 0; j < edge; j++)
			for (Index i = 0; i < edge; i++) {
				Index e = (k * edge + j) * edge + i, n0 = (k * en + j) * en + i;
				const Index nl[8] = {n0, n0 + 1, n0 + en + 1, n0 + en, n0 + en * en, n0 + en * en + 1,
						     n0 + en * en + en + 1, n0 + en * en + en};
				for (int c = 0; c < 8; c++) {
					m_nodelist[8 * e + c] = nl[c];
					count[nl[c] + 1]++;
				}
			}
	m_cornerStart.assign(m_numNode + 1, 0);
	for (Index n = 0; n < m_numNode; n++)
		m_cornerStart[n + 1] = m_cornerStart[n] + count[n + 1];
	m_cornerList.resize(8 * (size_t)m_numElem);
	std::vector<Index> fill(m_cornerStart.begin(), m_cornerStart.end() - 1);
	for (Index c = 0; c < 8 * m_numElem; c++)
		m_cornerList[fill[m_nodelist[c]]++] = c;
	for (Index e = 0; e < m_numElem; e++) {
		Real x[8], y[8], z[8];
		CollectNodes(*this, nodelist(e), x, y, z);
		m_volo[e] = CalcElemVolume(x, y, z);
		m_v[e] = m_vnew[e] = 1.0;
		m_elemMass[e] = m_volo[e];
		for (int c = 0; c < 8; c++)
			m_nodalMass[m_nodelist[8 * e + c]] += m_volo[e] / 8.0;
	}
	m_e[0] = 3.948746e+7 / (edge * edge * edge / 27000.0 + 1.0); /* the blast */
	m_p[0] = PressureFromEnergy(m_e[0], 1.0);
	m_ss[0] = SoundSpeed(m_p[0], 1.0);
}

Real Checksum(Domain &d)
{
	Real s = 0.0;
	for (Index e = 0; e < d.numElem(); e++)
		s += d.e(e) + d.p(e);
	for (Index n = 0; n < d.numNode(); n++)
		s += d.x(n) + d.y(n) + d.z(n) + d.xd(n);
	return s;
}

} // namespace proxy

int main(int argc, char **argv)
{
	int edge = argc > 1 ? std::atoi(argv[1]) : 30;
	int steps = argc > 2 ? std::atoi(argv[2]) : 40;
	if (edge < 2 || steps < 1) {
		std::fprintf(stderr, "usage: proxy [edge elements >= 2] [steps >= 1]\n");
		return 2;
	}
	proxy::Domain d(edge);
	double t0 = omp_get_wtime();
	for (int s = 0; s < steps; s++) {
		proxy::TimeIncrement(d);
		proxy::LagrangeLeapFrog(d);
	}
	double t1 = omp_get_wtime();
	std::fprintf(stderr, "%.4f s\n%.2f ns/elem-step\n", t1 - t0, (t1 - t0) * 1e9 / ((double)d.numElem() * steps));
	std::printf("edge %d steps %d time %.6e checksum %.10e\n", edge, steps, d.time(), Checksum(d));
	return 0;
}
