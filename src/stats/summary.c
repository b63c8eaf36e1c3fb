/*
 * Summary statistics and Student's t; see summary.h. The t distribution's
 * CDF comes from the regularized incomplete beta function, evaluated with
 * its continued fraction (modified Lentz), which converges fast for the
 * arguments the t CDF needs.
 */
#include "stats/summary.h"

#include <math.h>

void summary_of(const double *x, size_t n, struct summary *s)
{
	double sum = 0, sq = 0;

	*s = (struct summary){ .n = n };
	if (!n)
		return;
	s->min = s->max = x[0];
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = sqrt(sq / (double)(n - 1));
	s->ci95 = tdist_quantile(0.975, (double)(n - 1)) * s->stddev / sqrt((double)n);
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
}

/* Continued fraction of the incomplete beta function. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));

		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = fabs(c) < tiny ? tiny : c;
		double delta = d * c;

		h *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));

	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double tdist_cdf(double t, double df)
{
	double tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double tdist_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	if (p == 0.5)
		return 0;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (tdist_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
		if (hi - lo < 1e-12 * (1 + fabs(mid)))
			break;
	}
	return (lo + hi) / 2;
}

double welch_p(const struct summary *a, const struct summary *b, double *t_out, double *df_out)
{
	double va, vb, se2, t, df;

	if (t_out)
		*t_out = 0;
	if (df_out)
		*df_out = 0;
	if (a->n < 2 || b->n < 2)
		return 1.0;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 == 0)
		return a->mean == b->mean ? 1.0 : 0.0;
	t = (a->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return 2 * tdist_cdf(-fabs(t), df);
}
