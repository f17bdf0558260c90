#define DG_OMP_DIM 3
#include "dg_omp_stages.inc"
