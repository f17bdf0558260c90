! dgref_basis: Gauss-Legendre quadrature and Legendre polynomials for the
! dgref reference solver.  Independent of the C library on purpose.
!
! Legendre polynomials are the standard unnormalised ones, P_n(1) = 1:
!   P_0 = 1, P_1 = x, (n+1) P_{n+1} = (2n+1) x P_n - n P_{n-1}
! and their derivatives follow from
!   P'_{n+1} = P'_{n-1} + (2n+1) P_n,   P'_0 = 0, P'_1 = 1,
! which is well behaved at x = +-1 as well.
module dgref_basis
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  private

  integer, parameter, public :: dp = real64
  real(dp), parameter, public :: pi = 3.14159265358979323846264338327950288_dp

  public :: legendre_all, gauss_legendre, element_offsets, legendre_tables

contains

  ! P_0(x)..P_n(x) in p(0:n) and their derivatives in dpdx(0:n).
  pure subroutine legendre_all(n, x, p, dpdx)
    integer, intent(in) :: n
    real(dp), intent(in) :: x
    real(dp), intent(out) :: p(0:n), dpdx(0:n)
    integer :: k

    p(0) = 1.0_dp
    dpdx(0) = 0.0_dp
    if (n >= 1) then
      p(1) = x
      dpdx(1) = 1.0_dp
    end if
    do k = 1, n - 1
      p(k + 1) = (real(2 * k + 1, dp) * x * p(k) - real(k, dp) * p(k - 1)) / real(k + 1, dp)
      dpdx(k + 1) = dpdx(k - 1) + real(2 * k + 1, dp) * p(k)
    end do
  end subroutine legendre_all

  ! n-point Gauss-Legendre rule on [-1,1]: nodes x(1:n) in ascending order,
  ! weights w(1:n).  The roots of P_n are found by Newton iteration started
  ! from the usual cosine guess; the rule is made exactly symmetric by
  ! computing the non-negative roots only and mirroring them.
  subroutine gauss_legendre(n, x, w)
    integer, intent(in) :: n
    real(dp), intent(out) :: x(n), w(n)
    real(dp) :: p(0:n), dpdx(0:n)
    real(dp) :: z, dz
    integer :: k, it

    do k = 1, (n + 1) / 2
      ! k-th largest root of P_n
      z = cos(pi * (real(k, dp) - 0.25_dp) / (real(n, dp) + 0.5_dp))
      if (2 * k - 1 == n) z = 0.0_dp   ! middle root of an odd rule
      do it = 1, 100
        call legendre_all(n, z, p, dpdx)
        dz = p(n) / dpdx(n)
        z = z - dz
        if (abs(dz) <= 2.0_dp * epsilon(1.0_dp)) exit
      end do
      if (2 * k - 1 == n) z = 0.0_dp
      call legendre_all(n, z, p, dpdx)
      x(n + 1 - k) = z
      x(k) = -z
      w(n + 1 - k) = 2.0_dp / ((1.0_dp - z * z) * dpdx(n)**2)
      w(k) = w(n + 1 - k)
    end do
  end subroutine gauss_legendre

  ! The storage of nv variables per element of degree deg(e): element e owns
  ! u(off(e)+1 : off(e)+nv (deg(e)+1)**2); ndof the total.
  subroutine element_offsets(deg, nv, off, ndof)
    integer, intent(in) :: deg(0:), nv
    integer, allocatable, intent(out) :: off(:)
    integer, intent(out) :: ndof
    integer :: e
    allocate(off(0:size(deg) - 1))
    ndof = 0
    do e = 0, size(deg) - 1
      off(e) = ndof
      ndof = ndof + nv * (deg(e) + 1)**2
    end do
  end subroutine element_offsets

  ! The q-point Gauss rule and the tables of P_0..P_maxdeg at its points:
  ! pv(n, k) = P_n(xq(k)), dpv the derivatives, pplus(n) = P_n(1) = 1,
  ! pminus(n) = P_n(-1) = (-1)^n.
  subroutine legendre_tables(maxdeg, q, xq, wq, pv, dpv, pplus, pminus)
    integer, intent(in) :: maxdeg, q
    real(dp), allocatable, intent(out) :: xq(:), wq(:), pv(:,:), dpv(:,:), pplus(:), pminus(:)
    integer :: k
    allocate(xq(q), wq(q), pv(0:maxdeg, q), dpv(0:maxdeg, q), pplus(0:maxdeg), pminus(0:maxdeg))
    call gauss_legendre(q, xq, wq)
    do k = 1, q
      call legendre_all(maxdeg, xq(k), pv(:, k), dpv(:, k))
    end do
    do k = 0, maxdeg
      pplus(k) = 1.0_dp
      pminus(k) = real(1 - 2 * mod(k, 2), dp)
    end do
  end subroutine legendre_tables

end module dgref_basis
