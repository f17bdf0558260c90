/* dg_instances.h - the (degree R, points Q) pairs every backend compiles a
 * stage for: 0 <= R <= DG_MAX_DEGREE, R < Q <= DG_MAX_Q.  X(R, Q) is applied
 * to each, by Q then R.  Keep in step with those bounds.  DG_RQ_Q<q> lists
 * the pairs of one Q, so that a backend can spread them over translation
 * units. */
#ifndef DG_INSTANCES_H
#define DG_INSTANCES_H

// clang-format off
#define DG_RQ_Q1(X) X(0, 1)
#define DG_RQ_Q2(X) X(0, 2) X(1, 2)
#define DG_RQ_Q3(X) X(0, 3) X(1, 3) X(2, 3)
#define DG_RQ_Q4(X) X(0, 4) X(1, 4) X(2, 4) X(3, 4)
#define DG_RQ_Q5(X) X(0, 5) X(1, 5) X(2, 5) X(3, 5) X(4, 5)
#define DG_RQ_Q6(X) X(0, 6) X(1, 6) X(2, 6) X(3, 6) X(4, 6) X(5, 6)
#define DG_RQ_Q7(X) X(0, 7) X(1, 7) X(2, 7) X(3, 7) X(4, 7) X(5, 7) X(6, 7)
#define DG_RQ_Q8(X) X(0, 8) X(1, 8) X(2, 8) X(3, 8) X(4, 8) X(5, 8) X(6, 8) X(7, 8)
#define DG_RQ_Q9(X) X(0, 9) X(1, 9) X(2, 9) X(3, 9) X(4, 9) X(5, 9) X(6, 9) X(7, 9) X(8, 9)
#define DG_RQ_Q10(X) X(0, 10) X(1, 10) X(2, 10) X(3, 10) X(4, 10) X(5, 10) X(6, 10) X(7, 10) X(8, 10) X(9, 10)
#define DG_RQ_Q11(X) X(0, 11) X(1, 11) X(2, 11) X(3, 11) X(4, 11) X(5, 11) X(6, 11) X(7, 11) X(8, 11) X(9, 11) X(10, 11)
#define DG_RQ_Q12(X) X(0, 12) X(1, 12) X(2, 12) X(3, 12) X(4, 12) X(5, 12) X(6, 12) X(7, 12) X(8, 12) X(9, 12) X(10, 12)
#define DG_FOR_EACH_RQ(X) \
  DG_RQ_Q1(X) DG_RQ_Q2(X) DG_RQ_Q3(X) DG_RQ_Q4(X) DG_RQ_Q5(X) DG_RQ_Q6(X) \
  DG_RQ_Q7(X) DG_RQ_Q8(X) DG_RQ_Q9(X) DG_RQ_Q10(X) DG_RQ_Q11(X) DG_RQ_Q12(X)
// clang-format on

#endif
