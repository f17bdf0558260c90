/* dg_imex_schemes.c - the tableaux of the implicit, IMEX and explicit
 * schemes of dg_imex.h, each written as an additive RK pair. */
#include "dg_imex_internal.h"

#include "dg_error.h"

#include <string.h>

/* SDIRK2: Alexander (1977), SIAM J. Numer. Anal. 14, 1006, 2-stage, order
 * 2, L-stable, stiffly accurate; g = 1 - 1/sqrt(2). */
#define S2_G (1.0 - 0.70710678118654752440)
/* SDIRK3: Alexander (1977), 3 stages, order 3, L-stable, stiffly accurate
 * (also Hairer & Wanner, Solving ODEs II, IV.6, table 6.5 / Kennedy &
 * Carpenter, NASA TM-2016-219173, SDIRK3): g the root in (1/6, 1/2) of
 * g^3 - 3 g^2 + 3/2 g - 1/6 = 0, c2 = (1 + g) / 2,
 * b1 = -(6 g^2 - 16 g + 1) / 4, b2 = (6 g^2 - 20 g + 5) / 4. */
#define S3_G  0.43586652150845899941601945
#define S3_C2 ((1.0 + S3_G) / 2.0)
#define S3_B1 (-(6.0 * S3_G * S3_G - 16.0 * S3_G + 1.0) / 4.0)
#define S3_B2 ((6.0 * S3_G * S3_G - 20.0 * S3_G + 5.0) / 4.0)
/* ARS(2,2,2): Ascher, Ruuth & Spiteri (1997), Appl. Numer. Math. 25, 151,
 * section 2.6: g = 1 - 1/sqrt(2), d = 1 - 1/(2 g); the implicit part is
 * Alexander's SDIRK2 after an explicit first stage. */
#define A2_G S2_G
#define A2_D (1.0 - 1.0 / (2.0 * A2_G))

static const dg_im_scheme schemes[DG_IM_COUNT] = {
    {"be", 1, 1, DG_IM_IMPLICIT, 1, {{0}}, {{1}}, {0}, {1}, {1}, 0},
    /* the trapezoidal rule as an ESDIRK: U_0 = u_n, U_1 solves with 1/2 */
    {"cn", 2, 2, DG_IM_IMPLICIT, 1, {{0}}, {{0, 0}, {0.5, 0.5}}, {0}, {0.5, 0.5}, {0, 1}, 0},
    {"sdirk2",
     2,
     2,
     DG_IM_IMPLICIT,
     1,
     {{0}},
     {{S2_G, 0}, {1 - S2_G, S2_G}},
     {0},
     {1 - S2_G, S2_G},
     {S2_G, 1},
     0},
    {"sdirk3",
     3,
     3,
     DG_IM_IMPLICIT,
     1,
     {{0}},
     {{S3_G, 0, 0}, {S3_C2 - S3_G, S3_G, 0}, {S3_B1, S3_B2, S3_G}},
     {0},
     {S3_B1, S3_B2, S3_G},
     {S3_G, S3_C2, 1},
     0},
    {"ars222",
     2,
     3,
     DG_IM_IMEX,
     1,
     {{0, 0, 0}, {A2_G, 0, 0}, {A2_D, 1 - A2_D, 0}},
     {{0, 0, 0}, {0, A2_G, 0}, {0, 1 - A2_G, A2_G}},
     {A2_D, 1 - A2_D, 0},
     {0, 1 - A2_G, A2_G},
     {0, A2_G, 1},
     0},
    /* ARS(4,4,3): Ascher, Ruuth & Spiteri (1997), section 2.8: 4 implicit
     * stages (diagonal 1/2, L-stable) after an explicit first one, order 3,
     * both parts stiffly accurate */
    {"ars443",
     3,
     5,
     DG_IM_IMEX,
     1,
     {{0},
      {0.5},
      {11.0 / 18.0, 1.0 / 18.0},
      {5.0 / 6.0, -5.0 / 6.0, 0.5},
      {0.25, 7.0 / 4.0, 0.75, -7.0 / 4.0, 0}},
     {{0}, {0, 0.5}, {0, 1.0 / 6.0, 0.5}, {0, -0.5, 0.5, 0.5}, {0, 1.5, -1.5, 0.5, 0.5}},
     {0.25, 7.0 / 4.0, 0.75, -7.0 / 4.0, 0},
     {0, 1.5, -1.5, 0.5, 0.5},
     {0, 0.5, 2.0 / 3.0, 0.5, 1},
     0},
    /* classical RK4; its real stability interval is [-2.7853, 0] */
    {"rk4",
     4,
     4,
     DG_IM_EXPLICIT,
     0,
     {{0}, {0.5}, {0, 0.5}, {0, 0, 1}},
     {{0}},
     {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0},
     {0},
     {0, 0.5, 0.5, 1},
     2.785293563405282},
};

const dg_im_scheme *dg_im_scheme_of(dg_im_kind kind) { return &schemes[kind]; }

int dg_im_parse(const char *name, dg_im_kind *kind) {
  for (int i = 0; i < DG_IM_COUNT; ++i)
    if (strcmp(name, schemes[i].name) == 0) {
      *kind = (dg_im_kind)i;
      return 0;
    }
  return dg_error(DG_ERR_ARG, "unknown scheme '%s' (be, cn, sdirk2, sdirk3, ars222, ars443, rk4)",
                  name);
}

const char *dg_im_name(dg_im_kind kind) { return schemes[kind].name; }
int dg_im_order(dg_im_kind kind) { return schemes[kind].order; }
int dg_im_stages(dg_im_kind kind) { return schemes[kind].s; }
int dg_im_treatment(dg_im_kind kind) { return schemes[kind].treat; }
double dg_im_real_stability(dg_im_kind kind) { return schemes[kind].stab; }
