backends/omp/CMakeFiles/dg_backend.dir/dg_omp_3d.c.o: \
 /work/main/backends/omp/dg_omp_3d.c /usr/include/stdc-predef.h \
 /work/main/backends/omp/dg_omp_stages.inc \
 /work/main/backends/omp/dg_backend_omp.h /work/main/stencils/dg_basis.h \
 /work/main/stencils/dg_types.h /work/main/stencils/dg_stage_args.h \
 /work/main/stencils/model_advection.h /work/main/stencils/dg_lane.h \
 /usr/include/string.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
 /usr/include/strings.h /work/main/stencils/dg_instances.h \
 /work/main/stencils/dg_stages.h /work/main/stencils/dg_basis.h \
 /work/main/stencils/dg_stage_args.h
