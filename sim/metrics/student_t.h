#pragma once
// Student's t distribution: the quantile that turns a sample's standard error into a
// confidence interval for its mean (half-width = t_{1-alpha/2, n-1} * sd / sqrt(n)).
//
// Method: the t CDF through the regularized incomplete beta function,
//   P(T <= t) = 1 - I_x(nu/2, 1/2) / 2 for t >= 0, x = nu / (nu + t^2)
// (Abramowitz and Stegun, "Handbook of Mathematical Functions", 1964, 26.7.1 and 26.5.27),
// with I_x(a, b) evaluated by its continued fraction (A&S 26.5.8; DLMF 8.17.22) using the
// modified Lentz algorithm (Lentz, Applied Optics 15(3), 1976; Thompson and Barnett, J.
// Comput. Phys. 64, 1986). The quantile is the root of CDF(t) = p, found by bisection to
// double precision: slow next to closed-form approximations, but exact to the last bits and
// simple to check, and sweeps need a few quantiles, not millions.
namespace sharesim {

// Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1.
double regularized_incomplete_beta(double x, double a, double b);

// P(T <= t) for Student's t with `degrees_of_freedom` > 0.
double student_t_cdf(double t, double degrees_of_freedom);

// The t with P(T <= t) = p, 0 < p < 1.
double student_t_quantile(double p, double degrees_of_freedom);

// Half-width of the two-sided 95% confidence interval for the mean of n >= 2 values with
// sample standard deviation sd: t_{0.975, n-1} * sd / sqrt(n).
double confidence_half_width_95(double sd, unsigned long long n);

}  // namespace sharesim
