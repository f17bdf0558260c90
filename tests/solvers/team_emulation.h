/* team_emulation.h - CUDA's thread model on the host, for the tests that run
 * the solvers' team kernels without a GPU (test_solvers_team.cpp,
 * test_solvers_team_patch.cpp): the CUDA names the kernels use, one
 * std::thread per CUDA thread, a barrier for __syncthreads, static storage
 * for __shared__.  Include it before the kernel templates, inside the test's
 * anonymous namespace; blocks run one after the other (their shared memory
 * is the same static storage). */
#ifndef TEAM_EMULATION_H
#define TEAM_EMULATION_H

#include <pthread.h>

#include <thread>
#include <vector>

struct idx3 {
  int x;
};
thread_local idx3 threadIdx, blockIdx;
pthread_barrier_t bar;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
void __syncthreads() { pthread_barrier_wait(&bar); }

/* a launch: nthr threads run the blocks in order, a barrier between blocks */
template <typename F> void launch(int nblocks, int nthr, F f) {
  pthread_barrier_init(&bar, 0, (unsigned)nthr);
  std::vector<std::thread> th;
  for (int t = 0; t < nthr; ++t)
    th.emplace_back([=] {
      threadIdx.x = t;
      for (int b = 0; b < nblocks; ++b) {
        blockIdx.x = b;
        f();
        pthread_barrier_wait(&bar);
      }
    });
  for (auto &x : th) x.join();
  pthread_barrier_destroy(&bar);
}

#endif
