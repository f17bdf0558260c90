! dgref_sphmass: the cos(th)-weighted mass matrix of the latitude-longitude
! sphere, shared by the sphere's advection (dgref_sphere) and its shallow
! water (dgref_swsph).  Element (i, j) of degree r has the mass matrix
! (dlam dth/4) a^2 [D_r (x) W_{j,r}], D_r = diag(2/(2a+1)) in the lam index and
!   W_{j,r}(n, m) = sum_k w_k cos(th_j(eta_k)) P_n(eta_k) P_m(eta_k)
! in the th index; W_{j,r} is factored (Cholesky) and its inverse kept per
! row j and degree r.  See README.md, "The sphere".
module dgref_sphmass
  use dgref_basis, only: dp
  implicit none
  private

  public :: row_mass_inverses, mass_inverse_block

contains

  ! W_{j,r} and its inverse for every row j and every degree r up to maxdeg:
  ! winv(0:r, 0:r, j, r), from the weights wq, cos(th) cq(:, j) and P_n pv at
  ! the points.  ok = .false. if one is not positive definite.
  subroutine row_mass_inverses(n2, maxdeg, wq, cq, pv, winv, ok)
    integer, intent(in) :: n2, maxdeg
    real(dp), intent(in) :: wq(:), cq(:, 0:), pv(0:, :)
    real(dp), allocatable, intent(out) :: winv(:,:,:,:)
    logical, intent(out) :: ok
    real(dp), allocatable :: w(:,:), l(:,:)
    integer :: j, r, n, m
    allocate(winv(0:maxdeg, 0:maxdeg, 0:n2 - 1, 0:maxdeg))
    winv = 0.0_dp
    ok = .true.
    do j = 0, n2 - 1
      do r = 0, maxdeg
        allocate(w(0:r, 0:r), l(0:r, 0:r))
        do m = 0, r
          do n = 0, r
            w(n, m) = sum(wq * cq(:, j) * pv(n, :) * pv(m, :))
          end do
        end do
        call cholesky(r + 1, w, l, ok)
        if (.not. ok) return
        call cholesky_inverse(r + 1, l, w)
        winv(0:r, 0:r, j, r) = w
        deallocate(w, l)
      end do
    end do
  end subroutine row_mass_inverses

  ! Lower triangular l with l l^T = w (n x n); ok = .false. on a pivot <= 0.
  pure subroutine cholesky(n, w, l, ok)
    integer, intent(in) :: n
    real(dp), intent(in) :: w(n, n)
    real(dp), intent(out) :: l(n, n)
    logical, intent(out) :: ok
    real(dp) :: s
    integer :: i, j, k
    l = 0.0_dp
    ok = .true.
    do j = 1, n
      s = w(j, j)
      do k = 1, j - 1
        s = s - l(j, k)**2
      end do
      if (.not. (s > 0.0_dp)) then
        ok = .false.
        return
      end if
      l(j, j) = sqrt(s)
      do i = j + 1, n
        s = w(i, j)
        do k = 1, j - 1
          s = s - l(i, k) * l(j, k)
        end do
        l(i, j) = s / l(j, j)
      end do
    end do
  end subroutine cholesky

  ! winv = (l l^T)^{-1}, column by column: l y = e_m, then l^T x = y.
  pure subroutine cholesky_inverse(n, l, winv)
    integer, intent(in) :: n
    real(dp), intent(in) :: l(n, n)
    real(dp), intent(out) :: winv(n, n)
    real(dp) :: y(n), x(n), s
    integer :: i, k, m
    do m = 1, n
      do i = 1, n
        s = merge(1.0_dp, 0.0_dp, i == m)
        do k = 1, i - 1
          s = s - l(i, k) * y(k)
        end do
        y(i) = s / l(i, i)
      end do
      do i = n, 1, -1
        s = y(i)
        do k = i + 1, n
          s = s - l(k, i) * x(k)
        end do
        x(i) = s / l(i, i)
      end do
      winv(:, m) = x
    end do
  end subroutine cholesky_inverse
  ! c = (D^-1 (x) W^-1) b for one element of degree r with W^-1 = winv (b, c:
  ! (r+1)^2 values, a fastest), times 1/a2f.
  pure subroutine mass_inverse_block(r, winv, b, c, a2f)
    integer, intent(in) :: r
    real(dp), intent(in) :: winv(0:, 0:), b(0:), a2f
    real(dp), intent(out) :: c(0:)
    integer :: n, ma, mb, mm
    real(dp) :: s
    n = r + 1
    do mb = 0, r
      do ma = 0, r
        s = 0.0_dp
        do mm = 0, r
          s = s + winv(mb, mm) * b(ma + n * mm)
        end do
        c(ma + n * mb) = 0.5_dp * real(2 * ma + 1, dp) * s / a2f
      end do
    end do
  end subroutine mass_inverse_block

end module dgref_sphmass
