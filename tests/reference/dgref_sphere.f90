! dgref_sphere: modal DG for scalar advection on the latitude-longitude sphere,
!   a^2 cos(th) dh/dt + d/dlam (h w_lam) + d/dth (h w_th) = 0,
! with the wind given by a stream function psi(lam, th, t):
!   w_lam = -d psi/d th,  w_th = d psi/d lam  (units m^2/s, no 1/cos(th)),
! where psi is replaced on each element by its tensor-product interpolant of
! degree kdeg = maxdeg + 2 on Gauss-Lobatto nodes (continuous across faces,
! so the discrete wind is exactly divergence-free; set_wind).
!
! Grid: n1 x n2 elements, lam in [0, 2 pi) periodic, th in [-pi/2, pi/2],
! element (i, j) covers [2 pi i/n1, 2 pi (i+1)/n1] x [-pi/2 + pi j/n2, -pi/2 + pi (j+1)/n2],
! with lam = lam_i + (xi+1) dlam/2, th = th_j + (eta+1) dth/2.  The faces on
! th = +-pi/2 are poles: no flux crosses them.
!
! Storage as in dgref_solver: one flat array u(1:ndof); element e = i + n1*j
! of degree r owns u(off(e)+1 : off(e)+(r+1)**2), mode (a, b) (a along lam,
! b along th) at u(off(e) + 1 + a + (r+1)*b).
!
! The mass matrix of element (i, j) is (dlam dth/4) a^2 [D_r (x) W_{j,r}],
! D_r = diag(2/(2a+1)) in the lam index and
!   W_{j,r}(n, m) = sum_k w_k cos(th_j(eta_k)) P_n(eta_k) P_m(eta_k)
! in the th index; W_{j,r} is factored (Cholesky, dgref_sphmass) and its
! inverse kept per row j and degree r.  The errors, mass and polar balance a
! run reports are dgref_sphdiag's.  See README.md, "The sphere".
module dgref_sphere
  use dgref_basis, only: dp, pi, legendre_all, gauss_legendre, element_offsets
  use dgref_sphmass, only: row_mass_inverses, mass_inverse_block
  implicit none
  private

  integer, parameter, public :: sinit_bell = 1, sinit_hill = 2, sinit_hills2 = 3, sinit_const = 4
  integer, parameter, public :: wind_williamson = 1, wind_deform = 2
  integer, parameter, public :: srk_euler = 1, srk_ssprk2 = 2, srk_ssprk3 = 3, srk_rk4 = 4, &
                                srk_lsrk4 = 5
  real(dp), parameter, public :: earth_radius = 6.37122e6_dp, seconds_per_day = 86400.0_dp
  ! extended precision for the interpolated stream function (setup and wind)
  integer, parameter :: xp = selected_real_kind(18)

  ! Carpenter & Kennedy (1994), NASA TM-109112, five-stage fourth-order
  ! 2N-storage scheme (their solution 3): k <- A_s k + dt L(u, t + c_s dt),
  ! u <- u + B_s k, with A_1 = 0.
  real(dp), parameter :: ck_a(5) = [0.0_dp, &
    -567301805773.0_dp / 1357537059087.0_dp, -2404267990393.0_dp / 2016746695238.0_dp, &
    -3550918686646.0_dp / 2091501179385.0_dp, -1275806237668.0_dp / 842570457699.0_dp]
  real(dp), parameter :: ck_b(5) = [1432997174477.0_dp / 9575080441755.0_dp, &
    5161836677717.0_dp / 13612068292357.0_dp, 1720146321549.0_dp / 2090206949498.0_dp, &
    3134564353537.0_dp / 4481467310338.0_dp, 2277821191437.0_dp / 14882151754819.0_dp]
  real(dp), parameter :: ck_c(5) = [0.0_dp, 1432997174477.0_dp / 9575080441755.0_dp, &
    2526269341429.0_dp / 6820363962896.0_dp, 2006345519317.0_dp / 3224310063776.0_dp, &
    2802321613138.0_dp / 2924317926251.0_dp]

  type, public :: sphere_t
    ! grid
    integer :: n1 = 20, n2 = 10
    real(dp) :: dlam = 0.0_dp, dth = 0.0_dp
    integer :: nelem = 0, ndof = 0, maxdeg = 0
    integer, allocatable :: deg(:), off(:)                 ! (0:nelem-1)
    ! sphere and wind
    real(dp) :: a = earth_radius                           ! radius (m)
    integer :: wind = wind_williamson
    real(dp) :: u0 = 0.0_dp                                ! Williamson's speed (m/s)
    real(dp) :: alpha = 0.0_dp                             ! Williamson's angle
    real(dp) :: tdef = 12.0_dp * seconds_per_day           ! period of the deformational flow
    ! initial data
    integer :: init = sinit_hill
    real(dp) :: h0 = 1000.0_dp, lc = 1.5_dp * pi, tc = 0.0_dp, rbell = earth_radius / 3.0_dp
    real(dp) :: value = 1.0_dp
    ! quadrature and basis tables
    integer :: q = 0
    real(dp), allocatable :: xq(:), wq(:)                  ! (1:q)
    real(dp), allocatable :: pv(:,:), dpv(:,:)             ! (0:maxdeg, 1:q)
    real(dp), allocatable :: psgn(:)                       ! (0:maxdeg) (-1)^n = P_n(-1)
    real(dp), allocatable :: cq(:,:)                       ! (1:q, 0:n2-1) cos(th) at the volume points
    real(dp), allocatable :: winv(:,:,:,:)                 ! (0:maxdeg, 0:maxdeg, 0:n2-1, 0:maxdeg)
    ! wind at the points; fixed for Williamson, refreshed per stage otherwise
    real(dp) :: wind_t = 0.0_dp
    logical :: wind_set = .false.
    real(dp), allocatable :: vl(:,:,:), vt(:,:,:)          ! (1:q, 1:q, 0:nelem-1) w_lam, w_th
    real(dp), allocatable :: fl(:,:)                       ! (1:q, 0:nelem-1) w_lam on the east face
    real(dp), allocatable :: ft(:,:)                       ! (1:q, 0:nelem-1) w_th on the north face
    ! the stream function's interpolant: degree kdeg = maxdeg + 2 on the
    ! kdeg + 1 Gauss-Lobatto nodes of each element; from the node values to
    ! the values (ipg) and the d/d(reference) derivatives (dpg) at the q
    ! Gauss points, through the Legendre (modal) form of the interpolant
    integer :: kdeg = 0
    real(xp), allocatable :: gll(:)                        ! (0:kdeg)
    real(xp), allocatable :: ipg(:,:), dpg(:,:)            ! (1:q, 0:kdeg)
  end type sphere_t

  public :: sphere_setup, sphere_project, sphere_rhs, sphere_step, sphere_rate, sphere_eval, &
            sphere_point, sphere_exact
  ! the traces and the upwind flux, for the polar rows' balance (dgref_sphdiag)
  public :: trace_th, upwind

contains

  ! ---------------------------------------------------------------- setup

  ! Latitude and longitude of reference point (xi, eta) of element (i, j).
  pure subroutine sphere_point(sp, i, j, xi, eta, lam, th)
    type(sphere_t), intent(in) :: sp
    integer, intent(in) :: i, j
    real(dp), intent(in) :: xi, eta
    real(dp), intent(out) :: lam, th
    lam = 2.0_dp * pi * real(i, dp) / real(sp%n1, dp) + 0.5_dp * (xi + 1.0_dp) * sp%dlam
    th = -0.5_dp * pi + pi * real(j, dp) / real(sp%n2, dp) + 0.5_dp * (eta + 1.0_dp) * sp%dth
  end subroutine sphere_point

  ! Everything that does not change in time.  On entry n1, n2, deg, q, the
  ! radius, wind and initial-data parameters must be set.  ok = .false.
  ! if a weighted mass matrix is not positive definite (cannot happen with
  ! Gauss points, which are interior).
  subroutine sphere_setup(sp, ok)
    type(sphere_t), intent(inout) :: sp
    logical, intent(out) :: ok
    real(dp) :: lam, th
    integer :: j, k, n

    sp%nelem = sp%n1 * sp%n2
    sp%dlam = 2.0_dp * pi / real(sp%n1, dp)
    sp%dth = pi / real(sp%n2, dp)
    sp%maxdeg = maxval(sp%deg)
    call element_offsets(sp%deg, 1, sp%off, sp%ndof)

    allocate(sp%xq(sp%q), sp%wq(sp%q))
    call gauss_legendre(sp%q, sp%xq, sp%wq)
    allocate(sp%pv(0:sp%maxdeg, sp%q), sp%dpv(0:sp%maxdeg, sp%q))
    do k = 1, sp%q
      call legendre_all(sp%maxdeg, sp%xq(k), sp%pv(:, k), sp%dpv(:, k))
    end do

    allocate(sp%psgn(0:sp%maxdeg))
    do n = 0, sp%maxdeg
      sp%psgn(n) = real(1 - 2 * mod(n, 2), dp)
    end do

    allocate(sp%cq(sp%q, 0:sp%n2 - 1))
    do j = 0, sp%n2 - 1
      do k = 1, sp%q
        call sphere_point(sp, 0, j, 0.0_dp, sp%xq(k), lam, th)
        sp%cq(k, j) = cos(th)
      end do
    end do

    call row_mass_inverses(sp%n2, sp%maxdeg, sp%wq, sp%cq, sp%pv, sp%winv, ok)
    if (.not. ok) return

    call stream_interpolation(sp, ok)
    if (.not. ok) return
    allocate(sp%vl(sp%q, sp%q, 0:sp%nelem - 1), sp%vt(sp%q, sp%q, 0:sp%nelem - 1))
    allocate(sp%fl(sp%q, 0:sp%nelem - 1), sp%ft(sp%q, 0:sp%nelem - 1))
    call set_wind(sp, 0.0_dp)
  end subroutine sphere_setup

  ! P_0..P_n and their derivatives at x, extended precision.
  pure subroutine legendre_xp(n, x, p, dp1)
    integer, intent(in) :: n
    real(xp), intent(in) :: x
    real(xp), intent(out) :: p(0:n), dp1(0:n)
    integer :: k
    p(0) = 1.0_xp
    dp1(0) = 0.0_xp
    if (n == 0) return
    p(1) = x
    dp1(1) = 1.0_xp
    do k = 2, n
      p(k) = (real(2 * k - 1, xp) * x * p(k - 1) - real(k - 1, xp) * p(k - 2)) / real(k, xp)
      dp1(k) = dp1(k - 2) + real(2 * k - 1, xp) * p(k - 1)
    end do
  end subroutine legendre_xp

  ! The Gauss-Lobatto nodes of degree kdeg (the roots of P_kdeg' and +-1) and
  ! the maps from node values to values and derivatives at the Gauss points:
  ! the Legendre coefficients of the interpolant solve V c = f,
  ! V(l, n) = P_n(x_l) (Gauss-Jordan), and are evaluated at the points.
  subroutine stream_interpolation(sp, ok)
    type(sphere_t), intent(inout) :: sp
    logical, intent(out) :: ok
    integer :: k, l, n, it, piv
    real(xp) :: x, dx, p(0:sp%maxdeg + 2), d(0:sp%maxdeg + 2), ddp
    real(xp) :: v(0:sp%maxdeg + 2, 0:sp%maxdeg + 2), vi(0:sp%maxdeg + 2, 0:sp%maxdeg + 2)
    real(xp) :: rowv(0:sp%maxdeg + 2), f
    sp%kdeg = sp%maxdeg + 2
    k = sp%kdeg
    allocate(sp%gll(0:k), sp%ipg(sp%q, 0:k), sp%dpg(sp%q, 0:k))
    sp%gll(0) = -1.0_xp
    sp%gll(k) = 1.0_xp
    do l = 1, k - 1
      x = -cos(acos(-1.0_xp) * real(l, xp) / real(k, xp))
      do it = 1, 100
        call legendre_xp(k, x, p, d)
        ddp = (2.0_xp * x * d(k) - real(k, xp) * real(k + 1, xp) * p(k)) / (1.0_xp - x * x)
        dx = d(k) / ddp
        x = x - dx
        if (abs(dx) <= 1.0e-19_xp) exit
      end do
      sp%gll(l) = x
    end do
    ! V and its inverse
    do l = 0, k
      call legendre_xp(k, sp%gll(l), p, d)
      v(l, :) = p
    end do
    vi = 0.0_xp
    do l = 0, k
      vi(l, l) = 1.0_xp
    end do
    ok = .true.
    do n = 0, k
      piv = n - 1 + maxloc(abs(v(n:k, n)), 1)
      if (abs(v(piv, n)) <= 0.0_xp) then
        ok = .false.
        return
      end if
      rowv = v(n, :); v(n, :) = v(piv, :); v(piv, :) = rowv
      rowv = vi(n, :); vi(n, :) = vi(piv, :); vi(piv, :) = rowv
      f = v(n, n)
      v(n, :) = v(n, :) / f
      vi(n, :) = vi(n, :) / f
      do l = 0, k
        if (l == n) cycle
        f = v(l, n)
        v(l, :) = v(l, :) - f * v(n, :)
        vi(l, :) = vi(l, :) - f * vi(n, :)
      end do
    end do
    ! vi(n, l): Legendre coefficient n of the interpolant of node value l
    do it = 1, sp%q
      call legendre_xp(k, real(sp%xq(it), xp), p, d)
      do l = 0, k
        sp%ipg(it, l) = sum(p * vi(:, l))
        sp%dpg(it, l) = sum(d * vi(:, l))
      end do
    end do
  end subroutine stream_interpolation

  ! The stream function psi at (lam, th) and time t, extended precision.
  pure function psi_at(sp, lam, th, t) result(psi)
    type(sphere_t), intent(in) :: sp
    real(xp), intent(in) :: lam, th
    real(dp), intent(in) :: t
    real(xp) :: psi, lp, a, tx
    a = real(sp%a, xp)
    tx = real(t, xp)
    if (sp%wind == wind_deform) then
      ! Nair & Lauritzen (2010), case 4: psi = (10 a^2/T) sin^2(lam') cos^2(th) cos(pi t/T)
      !                                       - (2 pi a^2/T) sin(th),  lam' = lam - 2 pi t/T
      lp = lam - 2.0_xp * acos(-1.0_xp) * tx / real(sp%tdef, xp)
      psi = 10.0_xp * a**2 / real(sp%tdef, xp) * sin(lp)**2 * cos(th)**2 &
            * cos(acos(-1.0_xp) * tx / real(sp%tdef, xp)) &
            - 2.0_xp * acos(-1.0_xp) * a**2 / real(sp%tdef, xp) * sin(th)
    else
      ! Williamson et al. (1992), test 1: psi = -a u0 (sin th cos alpha - cos lam cos th sin alpha)
      psi = -a * real(sp%u0, xp) * (sin(th) * cos(real(sp%alpha, xp)) &
                                    - cos(lam) * cos(th) * sin(real(sp%alpha, xp)))
    end if
  end function psi_at

  ! Fill the wind tables for time t (once for the steady Williamson wind):
  ! w_lam = -d psi_h/d th and w_th = d psi_h/d lam, psi_h the tensor-product
  ! interpolant of psi of degree kdeg on the element's Gauss-Lobatto nodes
  ! (continuous across faces; README.md, "The sphere").
  subroutine set_wind(sp, t)
    type(sphere_t), intent(inout) :: sp
    real(dp), intent(in) :: t
    real(xp) :: ps(0:sp%kdeg, 0:sp%kdeg), lam0, th0, lam, th, sl, st
    real(xp) :: t1(sp%q, 0:sp%kdeg), t2(sp%q, 0:sp%kdeg)
    integer :: e, i, j, p, k, l, m, kd

    if (sp%wind_set .and. sp%wind == wind_williamson) return
    kd = sp%kdeg
    sl = 2.0_xp / real(sp%dlam, xp)
    st = 2.0_xp / real(sp%dth, xp)
    do e = 0, sp%nelem - 1
      i = mod(e, sp%n1)
      j = e / sp%n1
      lam0 = 2.0_xp * acos(-1.0_xp) * real(i, xp) / real(sp%n1, xp)
      th0 = -0.5_xp * acos(-1.0_xp) + acos(-1.0_xp) * real(j, xp) / real(sp%n2, xp)
      do m = 0, kd
        th = th0 + 0.5_xp * (sp%gll(m) + 1.0_xp) * real(sp%dth, xp)
        do l = 0, kd
          lam = lam0 + 0.5_xp * (sp%gll(l) + 1.0_xp) * real(sp%dlam, xp)
          ps(l, m) = psi_at(sp, lam, th, t)
        end do
      end do
      ! one direction at a time: along lam to the points p (values t1,
      ! derivatives t2), then along th to the points k
      t1 = matmul(sp%ipg, ps)
      t2 = matmul(sp%dpg, ps)
      do k = 1, sp%q
        do p = 1, sp%q
          sp%vl(p, k, e) = real(-st * sum(sp%dpg(k, :) * t1(p, :)), dp)
          sp%vt(p, k, e) = real(sl * sum(sp%ipg(k, :) * t2(p, :)), dp)
        end do
      end do
      ! east face lam = 2 pi (i+1)/n1 (the last node column), as element (i, j) sees it
      do k = 1, sp%q
        sp%fl(k, e) = real(-st * sum(sp%dpg(k, :) * ps(kd, :)), dp)
      end do
      ! north face th = -pi/2 + pi (j+1)/n2 (unused on the last row: the pole)
      do p = 1, sp%q
        sp%ft(p, e) = real(sl * sum(sp%dpg(p, :) * ps(:, kd)), dp)
      end do
    end do
    sp%wind_t = t
    sp%wind_set = .true.
  end subroutine set_wind

  ! ------------------------------------------------------ initial / exact

  pure function unit_vector(lam, th) result(x)
    real(dp), intent(in) :: lam, th
    real(dp) :: x(3)
    x = [cos(th) * cos(lam), cos(th) * sin(lam), sin(th)]
  end function unit_vector

  ! The initial state at the unit vector x.
  pure function initial_at(sp, x) result(h)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: x(3)
    real(dp) :: h, xc(3), d, r
    select case (sp%init)
    case (sinit_bell)
      xc = unit_vector(sp%lc, sp%tc)
      ! great-circle distance, from the chord: stable for small and large angles
      d = sqrt(sum((x - xc)**2))
      r = sp%a * 2.0_dp * asin(min(1.0_dp, 0.5_dp * d))
      if (r < sp%rbell) then
        h = 0.5_dp * sp%h0 * (1.0_dp + cos(pi * r / sp%rbell))
      else
        h = 0.0_dp
      end if
    case (sinit_hill)
      xc = unit_vector(sp%lc, sp%tc)
      h = sp%h0 * exp(-5.0_dp * sum((x - xc)**2))
    case (sinit_hills2)
      ! Nair & Lauritzen (2010): two Gaussian hills, h_max = 0.95, b0 = 5
      h = 0.95_dp * exp(-5.0_dp * sum((x - unit_vector(5.0_dp * pi / 6.0_dp, 0.0_dp))**2)) + &
          0.95_dp * exp(-5.0_dp * sum((x - unit_vector(7.0_dp * pi / 6.0_dp, 0.0_dp))**2))
    case default
      h = sp%value
    end select
  end function initial_at

  ! Exact solution at (lam, th) and time t.  Williamson's wind is a solid-body
  ! rotation with omega = u0/a about n = (-sin alpha, 0, cos alpha): h0 at
  ! R(n, -omega t) x (Rodrigues).  The deformational flow returns to the
  ! initial state at t = tdef; its reference here is the initial state.
  pure function sphere_exact(sp, lam, th, t) result(h)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: lam, th, t
    real(dp) :: h, x(3), n(3), y(3), nx(3), c, s
    x = unit_vector(lam, th)
    if (sp%wind == wind_williamson) then
      n = [-sin(sp%alpha), 0.0_dp, cos(sp%alpha)]
      c = cos(-sp%u0 / sp%a * t)
      s = sin(-sp%u0 / sp%a * t)
      nx = [n(2) * x(3) - n(3) * x(2), n(3) * x(1) - n(1) * x(3), n(1) * x(2) - n(2) * x(1)]
      y = c * x + s * nx + (1.0_dp - c) * dot_product(n, x) * n
    else
      y = x
    end if
    h = initial_at(sp, y)
  end function sphere_exact

  ! c = (D^-1 (x) W^-1) b on element e (b, c: (r+1)^2 values, a fastest),
  ! times 1/a2f.  The (dlam dth/4) factor is the caller's.
  subroutine apply_mass_inverse(sp, e, b, c, a2f)
    type(sphere_t), intent(in) :: sp
    integer, intent(in) :: e
    real(dp), intent(in) :: b(0:), a2f
    real(dp), intent(out) :: c(0:)
    call mass_inverse_block(sp%deg(e), sp%winv(:, :, e / sp%n1, sp%deg(e)), b, c, a2f)
  end subroutine apply_mass_inverse

  ! Weighted L2 projection with the q-point rule: c = M^-1 b,
  ! b_ab = (dlam dth/4) a^2 sum_pk w_p w_k cos(th_k) P_a(xi_p) P_b(eta_k) h0(x_pk).
  subroutine sphere_project(sp, u)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(out) :: u(:)
    real(dp) :: hq(sp%q, sp%q), lam, th, s
    real(dp), allocatable :: b(:), c(:)
    integer :: e, i, j, r, ma, mb, p, k

    do e = 0, sp%nelem - 1
      i = mod(e, sp%n1)
      j = e / sp%n1
      r = sp%deg(e)
      do k = 1, sp%q
        do p = 1, sp%q
          call sphere_point(sp, i, j, sp%xq(p), sp%xq(k), lam, th)
          hq(p, k) = initial_at(sp, unit_vector(lam, th))
        end do
      end do
      allocate(b(0:(r + 1)**2 - 1), c(0:(r + 1)**2 - 1))
      do mb = 0, r
        do ma = 0, r
          s = 0.0_dp
          do k = 1, sp%q
            do p = 1, sp%q
              s = s + sp%wq(p) * sp%wq(k) * sp%cq(k, j) * sp%pv(ma, p) * sp%pv(mb, k) * hq(p, k)
            end do
          end do
          b(ma + (r + 1) * mb) = s
        end do
      end do
      call apply_mass_inverse(sp, e, b, c, 1.0_dp)
      u(sp%off(e) + 1:sp%off(e) + (r + 1)**2) = c
      deallocate(b, c)
    end do
  end subroutine sphere_project

  ! Value of element e's expansion at reference point (xi, eta).
  function sphere_eval(sp, u, e, xi, eta) result(v)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:)
    integer, intent(in) :: e
    real(dp), intent(in) :: xi, eta
    real(dp) :: v
    real(dp) :: px(0:sp%deg(e)), py(0:sp%deg(e)), dx(0:sp%deg(e)), dy(0:sp%deg(e))
    integer :: r, ma, mb
    r = sp%deg(e)
    call legendre_all(r, xi, px, dx)
    call legendre_all(r, eta, py, dy)
    v = 0.0_dp
    do mb = 0, r
      do ma = 0, r
        v = v + u(sp%off(e) + 1 + ma + (r + 1) * mb) * px(ma) * py(mb)
      end do
    end do
  end function sphere_eval

  ! ----------------------------------------------------------------- rhs

  ! Upwind (Rusanov with alpha = |w_n|) flux; hm on the side the normal leaves.
  pure function upwind(wn, hm, hp) result(f)
    real(dp), intent(in) :: wn, hm, hp
    real(dp) :: f
    f = 0.5_dp * wn * (hm + hp) - 0.5_dp * abs(wn) * (hp - hm)
  end function upwind

  ! North (eta = +1, sgn = 1) or south (eta = -1, sgn = -1) trace at the q
  ! points in xi.
  subroutine trace_th(sp, u, e, sgn, h)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:)
    integer, intent(in) :: e, sgn
    real(dp), intent(out) :: h(:)
    call trace_th_block(sp%deg(e), sp%q, sp%pv, u(sp%off(e) + 1:sp%off(e) + (sp%deg(e) + 1)**2), sgn, h)
  end subroutine trace_th

  pure subroutine trace_th_block(r, q, pv, c, sgn, h)
    integer, intent(in) :: r, q, sgn
    real(dp), intent(in) :: pv(0:, :), c(:)
    real(dp), intent(out) :: h(:)
    real(dp) :: ca(0:r)
    integer :: ma, mb, p
    do ma = 0, r
      ca(ma) = 0.0_dp
      do mb = 0, r
        ca(ma) = ca(ma) + merge(-1.0_dp, 1.0_dp, sgn < 0 .and. mod(mb, 2) == 1) * c(1 + ma + (r + 1) * mb)
      end do
    end do
    do p = 1, q
      h(p) = 0.0_dp
      do ma = 0, r
        h(p) = h(p) + ca(ma) * pv(ma, p)
      end do
    end do
  end subroutine trace_th_block

  ! h(k) = sum_m es(m) P_m(x_k), m = 0..r: a trace from edge sums.
  pure subroutine edge_trace(r, q, pv, es, h)
    integer, intent(in) :: r, q
    real(dp), intent(in) :: pv(0:, :), es(0:)
    real(dp), intent(out) :: h(:)
    integer :: m, k
    do k = 1, q
      h(k) = 0.0_dp
      do m = 0, r
        h(k) = h(k) + es(m) * pv(m, k)
      end do
    end do
  end subroutine edge_trace

  ! The residual before the mass inverse, in reference scaling:
  ! res = (4 / (dlam dth)) [ int grad(phi) . (h w) - sum_faces int phi F* ].
  subroutine residual(sp, u, res)
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: res(:)
    real(dp) :: t1(0:sp%maxdeg, sp%q), g1(sp%q, sp%q), g2(sp%q, sp%q)
    real(dp) :: h1(0:sp%maxdeg, sp%q), h2(0:sp%maxdeg, sp%q)
    real(dp) :: hm(sp%q), hp(sp%q), fw(sp%q), s1, s2, gl, gt
    real(dp) :: sb(0:sp%maxdeg)
    ! per element, the coefficients summed over one index at an edge:
    ! (:,1,e) east  sum_a c(a,b),  (:,2,e) west  sum_a (-1)^a c(a,b),
    ! (:,3,e) north sum_b c(a,b),  (:,4,e) south sum_b (-1)^b c(a,b)
    real(dp), allocatable :: ed(:,:,:)
    integer :: e, en, i, j, r, rn, n, nn, ma, mb, p, k, o, on

    allocate(ed(0:sp%maxdeg, 4, 0:sp%nelem - 1))
    res = 0.0_dp
    gl = 2.0_dp / sp%dlam
    gt = 2.0_dp / sp%dth

    ! volume: sum_pk w_p w_k h (gl w_lam P'_a P_b + gt w_th P_a P'_b)
    do e = 0, sp%nelem - 1
      r = sp%deg(e)
      n = r + 1
      o = sp%off(e)
      do k = 1, sp%q
        do ma = 0, r
          s1 = 0.0_dp
          do mb = 0, r
            s1 = s1 + u(o + 1 + ma + n * mb) * sp%pv(mb, k)
          end do
          t1(ma, k) = s1
        end do
      end do
      do mb = 0, r
        s1 = 0.0_dp
        s2 = 0.0_dp
        do ma = 0, r
          s1 = s1 + u(o + 1 + ma + n * mb)
          s2 = s2 + sp%psgn(ma) * u(o + 1 + ma + n * mb)
        end do
        ed(mb, 1, e) = s1
        ed(mb, 2, e) = s2
      end do
      do ma = 0, r
        s1 = 0.0_dp
        s2 = 0.0_dp
        do mb = 0, r
          s1 = s1 + u(o + 1 + ma + n * mb)
          s2 = s2 + sp%psgn(mb) * u(o + 1 + ma + n * mb)
        end do
        ed(ma, 3, e) = s1
        ed(ma, 4, e) = s2
      end do
      do k = 1, sp%q
        do p = 1, sp%q
          s1 = 0.0_dp
          do ma = 0, r
            s1 = s1 + sp%pv(ma, p) * t1(ma, k)
          end do
          g1(p, k) = gl * sp%wq(p) * sp%wq(k) * s1 * sp%vl(p, k, e)
          g2(p, k) = gt * sp%wq(p) * sp%wq(k) * s1 * sp%vt(p, k, e)
        end do
      end do
      ! one direction at a time: h1 = sum_p P'_a(xi_p) g1, h2 = sum_p P_a(xi_p) g2
      do k = 1, sp%q
        do ma = 0, r
          s1 = 0.0_dp
          s2 = 0.0_dp
          do p = 1, sp%q
            s1 = s1 + sp%dpv(ma, p) * g1(p, k)
            s2 = s2 + sp%pv(ma, p) * g2(p, k)
          end do
          h1(ma, k) = s1
          h2(ma, k) = s2
        end do
      end do
      do mb = 0, r
        do ma = 0, r
          s1 = 0.0_dp
          do k = 1, sp%q
            s1 = s1 + h1(ma, k) * sp%pv(mb, k) + h2(ma, k) * sp%dpv(mb, k)
          end do
          res(o + 1 + ma + n * mb) = s1
        end do
      end do
    end do

    ! lam faces: the east face of (i, j), neighbour ((i+1) mod n1, j)
    do e = 0, sp%nelem - 1
      i = mod(e, sp%n1)
      j = e / sp%n1
      en = mod(i + 1, sp%n1) + sp%n1 * j
      call edge_trace(sp%deg(e), sp%q, sp%pv, ed(:, 1, e), hm)
      call edge_trace(sp%deg(en), sp%q, sp%pv, ed(:, 2, en), hp)
      do k = 1, sp%q
        fw(k) = sp%wq(k) * upwind(sp%fl(k, e), hm(k), hp(k))
      end do
      do mb = 0, sp%maxdeg
        sb(mb) = 0.0_dp
        do k = 1, sp%q
          sb(mb) = sb(mb) + fw(k) * sp%pv(mb, k)
        end do
      end do
      r = sp%deg(e)
      n = r + 1
      o = sp%off(e)
      rn = sp%deg(en)
      nn = rn + 1
      on = sp%off(en)
      do mb = 0, r
        do ma = 0, r
          res(o + 1 + ma + n * mb) = res(o + 1 + ma + n * mb) - gl * sb(mb)
        end do
      end do
      do mb = 0, rn
        do ma = 0, rn
          res(on + 1 + ma + nn * mb) = res(on + 1 + ma + nn * mb) + gl * sp%psgn(ma) * sb(mb)
        end do
      end do
    end do

    ! th faces: the north face of (i, j) for j < n2-1, neighbour (i, j+1);
    ! the faces on the poles carry no flux and are skipped
    do e = 0, sp%nelem - sp%n1 - 1
      en = e + sp%n1
      call edge_trace(sp%deg(e), sp%q, sp%pv, ed(:, 3, e), hm)
      call edge_trace(sp%deg(en), sp%q, sp%pv, ed(:, 4, en), hp)
      do p = 1, sp%q
        fw(p) = sp%wq(p) * upwind(sp%ft(p, e), hm(p), hp(p))
      end do
      do ma = 0, sp%maxdeg
        sb(ma) = 0.0_dp
        do p = 1, sp%q
          sb(ma) = sb(ma) + fw(p) * sp%pv(ma, p)
        end do
      end do
      r = sp%deg(e)
      n = r + 1
      o = sp%off(e)
      rn = sp%deg(en)
      nn = rn + 1
      on = sp%off(en)
      do mb = 0, r
        do ma = 0, r
          res(o + 1 + ma + n * mb) = res(o + 1 + ma + n * mb) - gt * sb(ma)
        end do
      end do
      do mb = 0, rn
        do ma = 0, rn
          res(on + 1 + ma + nn * mb) = res(on + 1 + ma + nn * mb) + gt * sp%psgn(mb) * sb(ma)
        end do
      end do
    end do
  end subroutine residual

  ! du = L(u, t) = M^-1 (volume - faces).
  subroutine sphere_rhs(sp, u, t, du)
    type(sphere_t), intent(inout) :: sp
    real(dp), intent(in) :: u(:), t
    real(dp), intent(out) :: du(:)
    real(dp), allocatable :: res(:)
    integer :: e, r, o
    call set_wind(sp, t)
    allocate(res(sp%ndof))
    call residual(sp, u, res)
    do e = 0, sp%nelem - 1
      r = sp%deg(e)
      o = sp%off(e)
      call apply_mass_inverse(sp, e, res(o + 1:o + (r + 1)**2), du(o + 1:o + (r + 1)**2), sp%a**2)
    end do
  end subroutine sphere_rhs

  ! ---------------------------------------------------------- time step

  ! One step from time t to t + dt.
  subroutine sphere_step(sp, method, t, dt, u)
    type(sphere_t), intent(inout) :: sp
    integer, intent(in) :: method
    real(dp), intent(in) :: t, dt
    real(dp), intent(inout) :: u(:)
    real(dp), allocatable :: k1(:), k2(:), k3(:), k4(:), u1(:)
    integer :: s

    allocate(k1(sp%ndof), k2(sp%ndof), k3(sp%ndof), k4(sp%ndof), u1(sp%ndof))
    select case (method)
    case (srk_euler)
      call sphere_rhs(sp, u, t, k1)
      u = u + dt * k1
    case (srk_ssprk2)
      call sphere_rhs(sp, u, t, k1)
      u1 = u + dt * k1
      call sphere_rhs(sp, u1, t + dt, k2)
      u = 0.5_dp * u + 0.5_dp * (u1 + dt * k2)
    case (srk_ssprk3)
      ! Shu & Osher; the last weights 1 - fl(2/3) and fl(2/3) sum to exactly 1
      call sphere_rhs(sp, u, t, k1)
      u1 = u + dt * k1
      call sphere_rhs(sp, u1, t + dt, k2)
      u1 = 0.75_dp * u + 0.25_dp * (u1 + dt * k2)
      call sphere_rhs(sp, u1, t + 0.5_dp * dt, k3)
      u = (1.0_dp - 2.0_dp / 3.0_dp) * u + (2.0_dp / 3.0_dp) * (u1 + dt * k3)
    case (srk_rk4)
      call sphere_rhs(sp, u, t, k1)
      u1 = u + 0.5_dp * dt * k1
      call sphere_rhs(sp, u1, t + 0.5_dp * dt, k2)
      u1 = u + 0.5_dp * dt * k2
      call sphere_rhs(sp, u1, t + 0.5_dp * dt, k3)
      u1 = u + dt * k3
      call sphere_rhs(sp, u1, t + dt, k4)
      u = u + (dt / 6.0_dp) * (k1 + 2.0_dp * k2 + 2.0_dp * k3 + k4)
    case default
      ! 2N-storage: k2 is the running register, k1 the stage's L
      k2 = 0.0_dp
      do s = 1, 5
        call sphere_rhs(sp, u, t + ck_c(s) * dt, k1)
        k2 = ck_a(s) * k2 + dt * k1
        u = u + ck_b(s) * k2
      end do
    end select
  end subroutine sphere_step

  ! The CFL rate: max over elements of
  !   (2r+1) [ max_pk |w_lam|/(a^2 cos th) 2/dlam + max_pk |w_th|/(a^2 cos th) 2/dth ]
  ! at the volume points and time t; a stable step is about C / rate.
  function sphere_rate(sp, t) result(rate)
    type(sphere_t), intent(inout) :: sp
    real(dp), intent(in) :: t
    real(dp) :: rate, ml, mt, jac
    integer :: e, j, p, k
    call set_wind(sp, t)
    rate = 0.0_dp
    do e = 0, sp%nelem - 1
      j = e / sp%n1
      ml = 0.0_dp
      mt = 0.0_dp
      do k = 1, sp%q
        jac = sp%a**2 * sp%cq(k, j)
        do p = 1, sp%q
          ml = max(ml, abs(sp%vl(p, k, e)) / jac)
          mt = max(mt, abs(sp%vt(p, k, e)) / jac)
        end do
      end do
      rate = max(rate, real(2 * sp%deg(e) + 1, dp) * (ml * 2.0_dp / sp%dlam + mt * 2.0_dp / sp%dth))
    end do
  end function sphere_rate

end module dgref_sphere
