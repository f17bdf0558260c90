#define DG_OMP_DIM 2
#include "dg_omp_stages.inc"
