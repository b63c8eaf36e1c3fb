/*
 * Unit tests for the statistics across repeated runs (src/stats/summary.h):
 * summary_of against hand-computed mean, sample standard deviation, 95 %
 * confidence interval and coefficient of variation; Student's t CDF and
 * quantiles against closed forms and table values; Welch's t-test against
 * worked examples and its degenerate cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "stats/summary.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.9g, expected %.9g (within %g)", got, want, tol);
}

/* {10..14}: mean 12, s = sqrt(10 / 4) = 1.5811388, ci95 = t(0.975, 4) * s /
 * sqrt(5) = 2.776445 * 1.5811388 / 2.2360680 = 1.963243, cv = s / 12. */
static void test_summary_five_values(void **state)
{
	const double x[] = { 13, 10, 14, 12, 11 }; /* unsorted on purpose */
	struct summary s;

	summary_of(x, N(x), &s);
	assert_int_equal(s.n, 5);
	assert_near(s.mean, 12.0, 1e-12);
	assert_near(s.stddev, sqrt(2.5), 1e-12);
	assert_near(s.stddev, 1.5811388, 1e-7);
	assert_near(s.min, 10.0, 0);
	assert_near(s.max, 14.0, 0);
	assert_near(s.ci95, 1.963243, 1e-6);
	assert_near(s.cv, 0.131762, 1e-6);
}

/* Two values: df 1, t = 12.7062; {1, 3}: mean 2, s = sqrt(2), ci95 =
 * 12.7062 * sqrt(2) / sqrt(2) = 12.7062. */
static void test_summary_two_values(void **state)
{
	const double x[] = { 3, 1 };
	struct summary s;

	summary_of(x, N(x), &s);
	assert_int_equal(s.n, 2);
	assert_near(s.mean, 2.0, 1e-12);
	assert_near(s.stddev, sqrt(2.0), 1e-12);
	assert_near(s.min, 1.0, 0);
	assert_near(s.max, 3.0, 0);
	assert_near(s.ci95, 12.7062047, 1e-5);
	assert_near(s.cv, sqrt(2.0) / 2.0, 1e-12);
}

static void test_summary_one_value(void **state)
{
	const double x[] = { 42.5 };
	struct summary s;

	summary_of(x, 1, &s);
	assert_int_equal(s.n, 1);
	assert_near(s.mean, 42.5, 0);
	assert_near(s.min, 42.5, 0);
	assert_near(s.max, 42.5, 0);
	assert_near(s.stddev, 0, 0);
	assert_near(s.ci95, 0, 0);
	assert_near(s.cv, 0, 0);
}

static void test_summary_empty(void **state)
{
	struct summary s = { .n = 99, .mean = 1, .stddev = 1, .min = 1, .max = 1, .ci95 = 1, .cv = 1 };

	summary_of(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_near(s.mean, 0, 0);
	assert_near(s.stddev, 0, 0);
	assert_near(s.min, 0, 0);
	assert_near(s.max, 0, 0);
	assert_near(s.ci95, 0, 0);
	assert_near(s.cv, 0, 0);
}

/* Equal values: no spread, and cv 0 rather than 0/0 when the mean is 0. */
static void test_summary_constant_and_zero_mean(void **state)
{
	const double same[] = { 7, 7, 7, 7 };
	const double zero[] = { -1, 1 };
	struct summary s;

	summary_of(same, N(same), &s);
	assert_near(s.mean, 7, 0);
	assert_near(s.stddev, 0, 0);
	assert_near(s.ci95, 0, 0);
	assert_near(s.cv, 0, 0);

	summary_of(zero, N(zero), &s);
	assert_near(s.mean, 0, 0);
	assert_near(s.stddev, sqrt(2.0), 1e-12);
	assert_near(s.cv, 0, 0);
	assert_near(s.min, -1, 0);
	assert_near(s.max, 1, 0);
}

/* A negative mean still gives a non-negative cv (stddev / |mean|). */
static void test_summary_negative_mean(void **state)
{
	const double x[] = { -10, -11, -12, -13, -14 };
	struct summary s;

	summary_of(x, N(x), &s);
	assert_near(s.mean, -12, 1e-12);
	assert_near(s.min, -14, 0);
	assert_near(s.max, -10, 0);
	assert_near(s.cv, 0.131762, 1e-6);
}

/* Closed forms: df 1 is the Cauchy distribution, F(t) = 1/2 + atan(t)/pi;
 * df 2 has F(t) = 1/2 + t / (2 sqrt(2 + t^2)). */
static void test_summary_tdist_cdf_closed_forms(void **state)
{
	const double ts[] = { -30, -3, -1, -0.25, 0.25, 1, 3, 30 };

	for (size_t i = 0; i < N(ts); i++) {
		double t = ts[i];

		assert_near(tdist_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-10);
		assert_near(tdist_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-10);
	}
	assert_near(tdist_cdf(1, 1), 0.75, 1e-12);
}

static void test_summary_tdist_cdf_symmetric(void **state)
{
	const double dfs[] = { 1, 2, 3.5, 8, 30, 1000 };
	const double ts[] = { 0.1, 0.5, 1, 2, 2.5706, 5, 50 };

	for (size_t d = 0; d < N(dfs); d++) {
		assert_near(tdist_cdf(0, dfs[d]), 0.5, 1e-12);
		for (size_t i = 0; i < N(ts); i++) {
			double up = tdist_cdf(ts[i], dfs[d]), down = tdist_cdf(-ts[i], dfs[d]);

			assert_near(up + down, 1.0, 1e-10);
			assert_true(up > 0.5 && up <= 1.0);
		}
	}
	/* monotone in t */
	assert_true(tdist_cdf(1, 5) < tdist_cdf(2, 5));
	assert_true(tdist_cdf(-2, 5) < tdist_cdf(-1, 5));
}

/* The 97.5 % point of Student's t from a printed table. */
static void test_summary_tdist_quantile_table(void **state)
{
	static const struct {
		double df, t;
	} table[] = {
		{ 1, 12.7062 }, { 2, 4.3027 },	{ 3, 3.1824 },	{ 4, 2.7764 },
		{ 5, 2.5706 },	{ 10, 2.2281 }, { 30, 2.0423 }, { 100, 1.9840 },
	};

	for (size_t i = 0; i < N(table); i++) {
		double q = tdist_quantile(0.975, table[i].df);

		assert_near(q, table[i].t, 1e-3);
		/* the quantile is the inverse of the CDF */
		assert_near(tdist_cdf(q, table[i].df), 0.975, 1e-9);
		/* and symmetric */
		assert_near(tdist_quantile(0.025, table[i].df), -q, 1e-6);
	}
	assert_near(tdist_quantile(0.5, 7), 0, 0);
	assert_near(tdist_quantile(0.995, 10), 3.1693, 1e-3);
	assert_near(tdist_quantile(0.95, 20), 1.7247, 1e-3);
}

/* a = {10..14}, b = {12..16}: means 12 and 14, variances 2.5, so
 * se^2 = 0.5 + 0.5 = 1, t = -2, df = 1 / (0.25/4 + 0.25/4) = 8, and the
 * two-sided p = 2 F(-2; 8) = 0.0805. */
static void test_summary_welch_known_example(void **state)
{
	const double xa[] = { 10, 11, 12, 13, 14 }, xb[] = { 12, 13, 14, 15, 16 };
	struct summary a, b;
	double t = 99, df = 99, p;

	summary_of(xa, N(xa), &a);
	summary_of(xb, N(xb), &b);
	p = welch_p(&a, &b, &t, &df);
	assert_near(t, -2.0, 1e-12);
	assert_near(df, 8.0, 1e-12);
	assert_near(p, 0.0805, 1e-3);
	assert_near(p, 0.080516, 1e-5);
	assert_near(p, 2 * tdist_cdf(-2, 8), 1e-12);

	/* the other way round: same p, t negated */
	assert_near(welch_p(&b, &a, &t, &df), p, 1e-12);
	assert_near(t, 2.0, 1e-12);
	assert_near(df, 8.0, 1e-12);

	/* t and df may be NULL */
	assert_near(welch_p(&a, &b, NULL, NULL), p, 1e-12);
}

/* Unequal variances and sizes: a = {1, 2, 3} (mean 2, var 1), b = {2, 4, 6,
 * 8, 10} (mean 6, var 10): va = 1/3, vb = 2, se^2 = 7/3, t = -4/sqrt(7/3) =
 * -2.618615, df = (7/3)^2 / ((1/9)/2 + 4/4) = 98/19 = 5.157895. */
static void test_summary_welch_unequal_variances(void **state)
{
	const double xa[] = { 1, 2, 3 }, xb[] = { 2, 4, 6, 8, 10 };
	struct summary a, b;
	double t, df, p;

	summary_of(xa, N(xa), &a);
	summary_of(xb, N(xb), &b);
	p = welch_p(&a, &b, &t, &df);
	assert_near(t, -4 / sqrt(7.0 / 3), 1e-12);
	assert_near(t, -2.618615, 1e-6);
	assert_near(df, (49.0 / 9) / (1.0 / 18 + 1), 1e-12);
	assert_near(df, 98.0 / 19, 1e-12);
	assert_near(df, 5.157895, 1e-6);
	assert_near(p, 2 * tdist_cdf(t, df), 1e-12);
	assert_near(p, 0.045776, 1e-5); /* numerical integration of the t density */
}

static void test_summary_welch_identical_samples(void **state)
{
	const double x[] = { 3, 5, 4, 6, 2 };
	struct summary a, b;
	double t = 99, df = 99;

	summary_of(x, N(x), &a);
	summary_of(x, N(x), &b);
	assert_near(welch_p(&a, &b, &t, &df), 1.0, 1e-12);
	assert_near(t, 0, 0);
	assert_near(df, 8.0, 1e-12);
}

static void test_summary_welch_zero_variance(void **state)
{
	const double x5[] = { 5, 5, 5 }, y5[] = { 5, 5, 5, 5 }, x6[] = { 6, 6, 6 };
	struct summary a, b, c;

	summary_of(x5, N(x5), &a);
	summary_of(y5, N(y5), &b);
	summary_of(x6, N(x6), &c);
	assert_near(welch_p(&a, &b, NULL, NULL), 1.0, 0);
	assert_near(welch_p(&a, &c, NULL, NULL), 0.0, 0);
	assert_near(welch_p(&c, &a, NULL, NULL), 0.0, 0);
}

/* Fewer than two values on either side: nothing to test, p = 1, t = df = 0. */
static void test_summary_welch_too_few(void **state)
{
	const double one[] = { 100 }, many[] = { 1, 2, 3 };
	struct summary a, b, e;
	double t = 99, df = 99;

	summary_of(one, 1, &a);
	summary_of(many, N(many), &b);
	summary_of(NULL, 0, &e);
	assert_near(welch_p(&a, &b, &t, &df), 1.0, 0);
	assert_near(t, 0, 0);
	assert_near(df, 0, 0);
	assert_near(welch_p(&b, &a, &t, &df), 1.0, 0);
	assert_near(welch_p(&e, &b, &t, &df), 1.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_five_values),
		cmocka_unit_test(test_summary_two_values),
		cmocka_unit_test(test_summary_one_value),
		cmocka_unit_test(test_summary_empty),
		cmocka_unit_test(test_summary_constant_and_zero_mean),
		cmocka_unit_test(test_summary_negative_mean),
		cmocka_unit_test(test_summary_tdist_cdf_closed_forms),
		cmocka_unit_test(test_summary_tdist_cdf_symmetric),
		cmocka_unit_test(test_summary_tdist_quantile_table),
		cmocka_unit_test(test_summary_welch_known_example),
		cmocka_unit_test(test_summary_welch_unequal_variances),
		cmocka_unit_test(test_summary_welch_identical_samples),
		cmocka_unit_test(test_summary_welch_zero_variance),
		cmocka_unit_test(test_summary_welch_too_few),
	};

	return cmocka_run_group_tests_name("summary", tests, NULL, NULL);
}
