! dgref_sphdiag: what the sphere's advection runs report (dgref_sphere):
! Williamson's normalised errors against the exact solution, the total mass
! and the mass balance of the polar rows (no flux through a pole).
module dgref_sphdiag
  use dgref_basis, only: dp, gauss_legendre
  use dgref_sphere, only: sphere_t, sphere_point, sphere_eval, sphere_exact, sphere_rhs, &
                          trace_th, upwind
  implicit none
  private

  public :: sphere_errors, sphere_mass, sphere_pole_balance

contains

  ! Williamson's normalised errors with an 8 x 8 Gauss rule per element and
  ! the area weight a^2 cos(th):
  !   l1 = I|h - hT| / I|hT|,  l2 = sqrt(I (h - hT)^2 / I hT^2),
  !   linf = max|h - hT| / max|hT| over the same points.
  subroutine sphere_errors(sp, u, t, l1, l2, linf)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:), t
    real(dp), intent(out) :: l1, l2, linf
    integer, parameter :: ne = 8
    real(dp) :: xe(ne), we(ne), lam, th, hh, ht, wgt
    real(dp) :: s1, s1t, s2, s2t, mx, mxt
    integer :: e, i, j, p, k

    call gauss_legendre(ne, xe, we)
    s1 = 0.0_dp
    s1t = 0.0_dp
    s2 = 0.0_dp
    s2t = 0.0_dp
    mx = 0.0_dp
    mxt = 0.0_dp
    do e = 0, sp%nelem - 1
      i = mod(e, sp%n1)
      j = e / sp%n1
      do k = 1, ne
        do p = 1, ne
          call sphere_point(sp, i, j, xe(p), xe(k), lam, th)
          hh = sphere_eval(sp, u, e, xe(p), xe(k))
          ht = sphere_exact(sp, lam, th, t)
          wgt = 0.25_dp * sp%dlam * sp%dth * sp%a**2 * we(p) * we(k) * cos(th)
          s1 = s1 + wgt * abs(hh - ht)
          s1t = s1t + wgt * abs(ht)
          s2 = s2 + wgt * (hh - ht)**2
          s2t = s2t + wgt * ht**2
          mx = max(mx, abs(hh - ht))
          mxt = max(mxt, abs(ht))
        end do
      end do
    end do
    l1 = s1 / s1t
    l2 = sqrt(s2 / s2t)
    linf = mx / mxt
  end subroutine sphere_errors

  ! Total mass sum_e sum_pk (dlam dth/4) a^2 w_p w_k cos(th_k) h(x_pk) with
  ! the q-point rule, the integral the mass matrix is exact for.
  function sphere_mass(sp, u) result(m)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:)
    real(dp) :: m
    integer :: e, j, p, k
    m = 0.0_dp
    do e = 0, sp%nelem - 1
      j = e / sp%n1
      do k = 1, sp%q
        do p = 1, sp%q
          m = m + 0.25_dp * sp%dlam * sp%dth * sp%a**2 * sp%wq(p) * sp%wq(k) * sp%cq(k, j) * &
                  sphere_eval(sp, u, e, sp%xq(p), sp%xq(k))
        end do
      end do
    end do
  end function sphere_mass

  ! Mass balance of the two polar rows at state u and time t.  For the row
  ! next to a pole, d/dt (its mass) must equal the flux that enters through
  ! its one face that is not a pole; anything left over went through the
  ! pole.  d/dt is taken from the full right-hand side (mass inverse
  ! included) with the q-point mass integral; the face flux is recomputed
  ! from the traces.  Returns max over both rows of
  ! |d/dt mass - inflow| / (sum of the magnitudes of both terms' parts).
  function sphere_pole_balance(sp, u, t) result(worst)
    type(sphere_t), intent(inout) :: sp
    real(dp), intent(in) :: u(:), t
    real(dp) :: worst
    real(dp), allocatable :: du(:)
    real(dp) :: hm(sp%q), hp(sp%q), dm, fin, scale, v, f
    integer :: side, j, jf, i, e, p, k

    allocate(du(sp%ndof))
    call sphere_rhs(sp, u, t, du)
    worst = 0.0_dp
    do side = 1, 2
      if (side == 1) then
        j = 0           ! south polar row; its inner face is its north face
        jf = 0
      else
        j = sp%n2 - 1   ! north polar row; its inner face is the north face of row n2-2
        jf = sp%n2 - 2
      end if
      if (sp%n2 < 2) then
        jf = -1
      end if
      dm = 0.0_dp
      fin = 0.0_dp
      scale = 0.0_dp
      do i = 0, sp%n1 - 1
        e = i + sp%n1 * j
        do k = 1, sp%q
          do p = 1, sp%q
            v = 0.25_dp * sp%dlam * sp%dth * sp%a**2 * sp%wq(p) * sp%wq(k) * sp%cq(k, j) * &
                sphere_eval(sp, du, e, sp%xq(p), sp%xq(k))
            dm = dm + v
            scale = scale + abs(v)
          end do
        end do
        if (jf >= 0) then
          e = i + sp%n1 * jf
          call trace_th(sp, u, e, 1, hm)
          call trace_th(sp, u, e + sp%n1, -1, hp)
          do p = 1, sp%q
            ! flux northward through the face, times the face length element dlam/2
            f = 0.5_dp * sp%dlam * sp%wq(p) * upwind(sp%ft(p, e), hm(p), hp(p))
            if (side == 1) then
              fin = fin - f
            else
              fin = fin + f
            end if
            scale = scale + abs(f)
          end do
        end if
      end do
      if (scale > 0.0_dp) worst = max(worst, abs(dm - fin) / scale)
    end do
  end function sphere_pole_balance

end module dgref_sphdiag
