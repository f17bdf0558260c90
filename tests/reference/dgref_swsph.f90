! dgref_swsph: modal DG for the shallow-water equations on the
! latitude-longitude sphere, written from docs/MODELS.md, "A system with
! auxiliary data: shallow water, the exact discretisation", and
! docs/ARCHITECTURE.md, "Shallow water" and "Geometry: the latitude-longitude
! sphere" (README.md, "Shallow water on the sphere").
!
! Spherical momentum components in the cos(theta)-weighted flux form, x =
! (lam, th), A = a the radius:
!   a^2 cos(th) u_t + d/dlam F_0 + d/dth F_1 = S,
!   F_0 = A (m_0, m_0 m_0 / h + g (Pi - eta b), m_0 m_1 / h),
!   F_1 = A c (m_1, m_0 m_1 / h, m_1 m_1 / h) + (0, 0, A g (c Pi - eta B)),
!   S = (0, F m_1 + A s (m_0 / h) m_1 - A g eta b_lam,
!          -F m_0 - A s (m_0 / h) m_0 + A g (c' Pi - eta B_th)),
! Pi = eta^2 / 2, h = max(eta - b, 1e-30), c = I[cos th], c' = I[cos th]',
! s = I[sin th] (interpolants of degree maxdeg + 2 on Gauss-Lobatto nodes in
! th), and b, B = cos(th) b, F = a^2 cos(th) f through the element's tensor
! interpolant of degree K = 2 q - 1 - maxdeg with its exact derivatives.  The
! pole faces carry no flux; lam wraps.  The mass matrix is the cos-weighted
! one of dgref_sphere (exact cos at the Gauss points), inverted per row.
!
! Grid and storage: as dgref_sphere, three variables per element as dgref_sw
! (variable v's mode (a, b) at u(off(e) + 1 + v (r+1)**2 + a + (r+1) b)).
! Nothing here comes from the C library.
module dgref_swsph
  use dgref_basis, only: dp, pi, legendre_all, gauss_legendre, element_offsets, legendre_tables
  use dgref_sw, only: lagrange_at_points, lsrk4_stage, sw_eval, sw_add_volume, sw_add_face
  use dgref_sphmass, only: row_mass_inverses, mass_inverse_block
  use dgref_sphere, only: earth_radius, seconds_per_day
  implicit none
  private

  integer, parameter :: xp = selected_real_kind(18)
  integer, parameter, public :: sws_lake = 1, sws_w2 = 2, sws_w5 = 3
  integer, parameter, public :: swsrk_euler = 1, swsrk_lsrk4 = 5

  type, public :: swsph_t
    integer :: n1 = 20, n2 = 10
    real(dp) :: dlam = 0.0_dp, dth = 0.0_dp
    integer :: nelem = 0, ndof = 0, maxdeg = 0, q = 0, kint = 0, kmet = 0
    integer, allocatable :: deg(:), off(:)            ! (0:nelem-1)
    ! the model and its case
    integer :: kase = sws_lake
    real(dp) :: a = earth_radius, g = 9.80616_dp, omega = 7.292e-5_dp, alpha = 0.0_dp
    real(dp) :: depth = 5960.0_dp, u0 = 0.0_dp, bump(2) = [2000.0_dp, pi / 9.0_dp]
    ! lake_at_rest: a Gaussian hump of this height on eta at t = 0 (sw_lake_hump.h)
    real(dp) :: hump = 0.0_dp
    ! Gauss rule, Legendre tables, the cos-weighted mass per row
    real(dp), allocatable :: xq(:), wq(:), pv(:,:), dpv(:,:), pplus(:), pminus(:)
    real(dp), allocatable :: cq(:,:)                  ! (q, 0:n2-1) cos(th) at the points
    real(dp), allocatable :: winv(:,:,:,:)            ! (0:md, 0:md, 0:n2-1, 0:md)
    ! the metric at the points of row j: I[cos], I[cos]', I[sin]; cos(th) of face j
    real(dp), allocatable :: ci(:,:), dci(:,:), si(:,:), cf(:)
    ! auxiliary values: volume (5, q, q, e) = b, b_lam, B, B_th, F; faces: b
    ! on the element's east face (q, e), b and B on its north face (q, e)
    real(dp), allocatable :: av(:,:,:,:), bfe(:,:), bfn(:,:), cbfn(:,:)
  end type swsph_t

  public :: swsph_setup, swsph_project, swsph_step, swsph_mass, swsph_errors

contains

  ! ------------------------------------------------------------ setup

  subroutine swsph_setup(s, ok)
    type(swsph_t), intent(inout) :: s
    logical, intent(out) :: ok
    integer :: j, k

    s%nelem = s%n1 * s%n2
    s%dlam = 2.0_dp * pi / real(s%n1, dp)
    s%dth = pi / real(s%n2, dp)
    s%maxdeg = maxval(s%deg)
    call element_offsets(s%deg, 3, s%off, s%ndof)
    if (s%kase == sws_w5) then
      s%u0 = 20.0_dp
    else
      s%u0 = 2.0_dp * pi * s%a / (12.0_dp * seconds_per_day)
    end if

    call legendre_tables(s%maxdeg, s%q, s%xq, s%wq, s%pv, s%dpv, s%pplus, s%pminus)

    allocate(s%cq(s%q, 0:s%n2 - 1), s%cf(0:s%n2))
    do j = 0, s%n2 - 1
      do k = 1, s%q
        s%cq(k, j) = cos(row_th(s, j) + 0.5_dp * s%dth * s%xq(k))
      end do
    end do
    do j = 0, s%n2
      s%cf(j) = cos(-0.5_dp * pi + real(j, dp) * s%dth)
    end do
    call row_mass_inverses(s%n2, s%maxdeg, s%wq, s%cq, s%pv, s%winv, ok)
    if (.not. ok) return
    call setup_metric(s)
    call setup_aux(s)
  end subroutine swsph_setup

  ! The centre latitude of row j.
  pure real(dp) function row_th(s, j)
    type(swsph_t), intent(in) :: s
    integer, intent(in) :: j
    row_th = -0.5_dp * pi + (real(j, dp) + 0.5_dp) * s%dth
  end function row_th

  ! The node coordinates of element (i, j) for the interpolant of degree kk:
  ! the end nodes on the face coordinates, lam's west end of i = 0 at 2 pi.
  subroutine node_coords(s, kk, z, i, j, ln, tn)
    type(swsph_t), intent(in) :: s
    integer, intent(in) :: kk, i, j
    real(xp), intent(in) :: z(0:kk)
    real(dp), intent(out) :: ln(0:kk), tn(0:kk)
    integer :: m
    do m = 0, kk
      ln(m) = (real(i, dp) + 0.5_dp) * s%dlam + 0.5_dp * s%dlam * real(z(m), dp)
      tn(m) = row_th(s, j) + 0.5_dp * s%dth * real(z(m), dp)
    end do
    ln(0) = real(i, dp) * s%dlam
    if (i == 0) ln(0) = real(s%n1, dp) * s%dlam
    ln(kk) = real(i + 1, dp) * s%dlam
    tn(0) = -0.5_dp * pi + real(j, dp) * s%dth
    tn(kk) = -0.5_dp * pi + real(j + 1, dp) * s%dth
  end subroutine node_coords

  ! c = I[cos th], c' = I[cos th]', s = I[sin th] of degree maxdeg + 2 per row.
  subroutine setup_metric(s)
    type(swsph_t), intent(inout) :: s
    integer :: kk, j, k
    real(xp), allocatable :: z(:)
    real(dp), allocatable :: lg(:,:), dlg(:,:), ln(:), tn(:)
    kk = s%maxdeg + 2
    s%kmet = kk
    allocate(z(0:kk), lg(0:kk, s%q), dlg(0:kk, s%q), ln(0:kk), tn(0:kk))
    call lagrange_at_points(kk, s%xq, z, lg, dlg)
    allocate(s%ci(s%q, 0:s%n2 - 1), s%dci(s%q, 0:s%n2 - 1), s%si(s%q, 0:s%n2 - 1))
    do j = 0, s%n2 - 1
      call node_coords(s, kk, z, 1, j, ln, tn)
      do k = 1, s%q
        s%ci(k, j) = sum(lg(:, k) * cos(tn))
        s%dci(k, j) = sum(dlg(:, k) * (2.0_dp / s%dth) * cos(tn))
        s%si(k, j) = sum(lg(:, k) * sin(tn))
      end do
    end do
  end subroutine setup_metric

  ! Williamson 5's cone b0 (1 - r / R), r the (lam, th) distance to (3 pi/2, pi/6).
  pure real(dp) function bottom(s, lam, th)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: lam, th
    real(dp) :: r
    bottom = 0.0_dp
    if (s%kase == sws_w2) return
    r = sqrt((lam - 1.5_dp * pi)**2 + (th - pi / 6.0_dp)**2)
    if (r < s%bump(2)) bottom = s%bump(1) * (1.0_dp - r / s%bump(2))
  end function bottom

  ! f = 2 Omega (sin th cos alpha - cos lam cos th sin alpha), alpha for williamson2 only.
  pure real(dp) function coriolis(s, lam, th)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: lam, th
    real(dp) :: al
    al = 0.0_dp
    if (s%kase == sws_w2) al = s%alpha
    coriolis = 2.0_dp * s%omega * (sin(th) * cos(al) - cos(lam) * cos(th) * sin(al))
  end function coriolis

  ! b, B = cos(th) b and F = a^2 cos(th) f at each element's (K+1)^2 nodes,
  ! interpolated to the Gauss points and to the east and north faces.
  subroutine setup_aux(s)
    type(swsph_t), intent(inout) :: s
    integer :: kk, e, i, j, m, n, p, k
    real(xp), allocatable :: z(:)
    real(dp), allocatable :: lg(:,:), dlg(:,:), nb(:,:), ncb(:,:), nf(:,:), ln(:), tn(:)
    real(dp) :: w

    kk = 2 * s%q - 1 - s%maxdeg
    s%kint = kk
    allocate(z(0:kk), lg(0:kk, s%q), dlg(0:kk, s%q), ln(0:kk), tn(0:kk))
    allocate(nb(0:kk, 0:kk), ncb(0:kk, 0:kk), nf(0:kk, 0:kk))
    call lagrange_at_points(kk, s%xq, z, lg, dlg)
    allocate(s%av(5, s%q, s%q, 0:s%nelem - 1), s%bfe(s%q, 0:s%nelem - 1))
    allocate(s%bfn(s%q, 0:s%nelem - 1), s%cbfn(s%q, 0:s%nelem - 1))
    s%av = 0.0_dp
    do e = 0, s%nelem - 1
      i = mod(e, s%n1)
      j = e / s%n1
      call node_coords(s, kk, z, i, j, ln, tn)
      do n = 0, kk
        do m = 0, kk
          nb(m, n) = bottom(s, ln(m), tn(n))
          ncb(m, n) = cos(tn(n)) * nb(m, n)
          nf(m, n) = s%a * s%a * cos(tn(n)) * coriolis(s, ln(m), tn(n))
        end do
      end do
      do k = 1, s%q
        do p = 1, s%q
          do n = 0, kk
            do m = 0, kk
              w = lg(m, p) * lg(n, k)
              s%av(1, p, k, e) = s%av(1, p, k, e) + w * nb(m, n)
              s%av(2, p, k, e) = s%av(2, p, k, e) + (dlg(m, p) * 2.0_dp / s%dlam) * lg(n, k) * nb(m, n)
              s%av(3, p, k, e) = s%av(3, p, k, e) + w * ncb(m, n)
              s%av(4, p, k, e) = s%av(4, p, k, e) + lg(m, p) * (dlg(n, k) * 2.0_dp / s%dth) * ncb(m, n)
              s%av(5, p, k, e) = s%av(5, p, k, e) + w * nf(m, n)
            end do
          end do
        end do
      end do
      do k = 1, s%q
        s%bfe(k, e) = sum(lg(:, k) * nb(kk, :))
        s%bfn(k, e) = sum(lg(:, k) * nb(:, kk))
        s%cbfn(k, e) = sum(lg(:, k) * ncb(:, kk))
      end do
    end do
  end subroutine setup_aux

  ! ------------------------------------------------------------ the model

  ! The flux of direction d (0: lam, 1: th) with the bottom b, B and metric c.
  pure subroutine flux(s, u, b, cb, c, d, f)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(3), b, cb, c
    integer, intent(in) :: d
    real(dp), intent(out) :: f(3)
    real(dp) :: h, ppi, w
    h = max(u(1) - b, 1.0e-30_dp)
    ppi = 0.5_dp * u(1) * u(1)
    if (d == 0) then
      w = s%a * u(2) / h
      f(1) = s%a * u(2)
      f(2) = w * u(2) + s%a * s%g * (ppi - u(1) * b)
      f(3) = w * u(3)
    else
      w = s%a * c * u(3) / h
      f(1) = s%a * c * u(3)
      f(2) = w * u(2)
      f(3) = w * u(3) + s%a * s%g * (c * ppi - u(1) * cb)
    end if
  end subroutine flux

  ! The largest wave speed along d: A (|m_0 / h| + sqrt(g h)), A |c| (|m_1 / h| + sqrt(g h)).
  pure real(dp) function speed(s, u, b, c, d)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(3), b, c
    integer, intent(in) :: d
    real(dp) :: h, hs
    h = max(u(1) - b, 1.0e-30_dp)
    hs = max(u(1) - b, 0.0_dp)
    speed = s%a * (abs(u(2 + d) / h) + sqrt(s%g * hs))
    if (d == 1) speed = speed * abs(c)
  end function speed

  ! ------------------------------------------------------------ the scheme

  ! x <- (M^-1 x) a2f / a^2 on each variable of element e: the cos-weighted
  ! mass inverse of its row, the (dlam dth / 4) left to the caller.
  subroutine mass_inverse(s, e, x, a2f)
    type(swsph_t), intent(in) :: s
    integer, intent(in) :: e
    real(dp), intent(inout) :: x(:)
    real(dp), intent(in) :: a2f
    real(dp) :: tmp(0:(s%deg(e) + 1)**2 - 1)
    integer :: v, n, o
    n = (s%deg(e) + 1)**2
    do v = 0, 2
      o = s%off(e) + v * n
      call mass_inverse_block(s%deg(e), s%winv(:, :, e / s%n1, s%deg(e)), x(o + 1:o + n), tmp, a2f)
      x(o + 1:o + n) = tmp
    end do
  end subroutine mass_inverse

  ! du = M^-1 (volume + source - faces).
  subroutine swsph_rhs(s, u, du)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: du(:)
    integer :: e, i, j, p, k, el, er
    real(dp) :: val(3), f0(3), f1(3), src(3), ul(3), ur(3), fl(3), fr(3), gf(3), al, hl, ht
    real(dp) :: c, cu, ag

    du = 0.0_dp
    hl = 2.0_dp / s%dlam
    ht = 2.0_dp / s%dth
    ag = s%a * s%g
    do e = 0, s%nelem - 1
      j = e / s%n1
      do k = 1, s%q
        c = s%ci(k, j)
        do p = 1, s%q
          call sw_eval(s%deg(e), s%off(e), u, s%pv(:, p), s%pv(:, k), val)
          call flux(s, val, s%av(1, p, k, e), s%av(3, p, k, e), c, 0, f0)
          call flux(s, val, s%av(1, p, k, e), s%av(3, p, k, e), c, 1, f1)
          cu = s%a * s%si(k, j) * val(2) / max(val(1) - s%av(1, p, k, e), 1.0e-30_dp)
          src(1) = 0.0_dp
          src(2) = s%av(5, p, k, e) * val(3) + cu * val(3) - ag * val(1) * s%av(2, p, k, e)
          src(3) = -s%av(5, p, k, e) * val(2) - cu * val(2) + &
                   ag * (s%dci(k, j) * 0.5_dp * val(1) * val(1) - val(1) * s%av(4, p, k, e))
          call sw_add_volume(s%deg(e), s%off(e), s%pv(:, p), s%dpv(:, p), s%pv(:, k), s%dpv(:, k), &
                             s%wq(p) * s%wq(k), hl, ht, f0, f1, src, du)
        end do
      end do
    end do
    ! lam faces: el = (i, j) west, er = (i+1, j) east, wrapping
    do j = 0, s%n2 - 1
      do i = 0, s%n1 - 1
        el = i + s%n1 * j
        er = mod(i + 1, s%n1) + s%n1 * j
        do k = 1, s%q
          call sw_eval(s%deg(el), s%off(el), u, s%pplus, s%pv(:, k), ul)
          call sw_eval(s%deg(er), s%off(er), u, s%pminus, s%pv(:, k), ur)
          call flux(s, ul, s%bfe(k, el), 0.0_dp, 1.0_dp, 0, fl)
          call flux(s, ur, s%bfe(k, el), 0.0_dp, 1.0_dp, 0, fr)
          al = max(speed(s, ul, s%bfe(k, el), 1.0_dp, 0), speed(s, ur, s%bfe(k, el), 1.0_dp, 0))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call sw_add_face(s%deg(el), s%off(el), s%pplus, s%pv(:, k), s%wq(k), gf, -hl, du)
          call sw_add_face(s%deg(er), s%off(er), s%pminus, s%pv(:, k), s%wq(k), gf, hl, du)
        end do
      end do
    end do
    ! th faces: el = (i, j) south, er = (i, j+1) north; the poles carry no flux
    do j = 0, s%n2 - 2
      c = s%cf(j + 1)
      do i = 0, s%n1 - 1
        el = i + s%n1 * j
        er = i + s%n1 * (j + 1)
        do p = 1, s%q
          call sw_eval(s%deg(el), s%off(el), u, s%pv(:, p), s%pplus, ul)
          call sw_eval(s%deg(er), s%off(er), u, s%pv(:, p), s%pminus, ur)
          call flux(s, ul, s%bfn(p, el), s%cbfn(p, el), c, 1, fl)
          call flux(s, ur, s%bfn(p, el), s%cbfn(p, el), c, 1, fr)
          al = max(speed(s, ul, s%bfn(p, el), c, 1), speed(s, ur, s%bfn(p, el), c, 1))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call sw_add_face(s%deg(el), s%off(el), s%pv(:, p), s%pplus, s%wq(p), gf, -ht, du)
          call sw_add_face(s%deg(er), s%off(er), s%pv(:, p), s%pminus, s%wq(p), gf, ht, du)
        end do
      end do
    end do
    do e = 0, s%nelem - 1
      call mass_inverse(s, e, du, s%a * s%a)
    end do
  end subroutine swsph_rhs

  ! ------------------------------------------------------------ the cases

  ! The case's state at (lam, th) at t = 0 (williamson2: every t).
  subroutine solution(s, lam, th, val)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: lam, th
    real(dp), intent(out) :: val(3)
    real(dp) :: al, z, w, dl, dt
    if (s%kase == sws_lake) then
      ! the hump of sw_lake_hump.h: centre (0.7 (2 pi), -pi/2 + 0.6 pi), width 0.1 (2 pi)
      w = 0.2_dp * pi
      dl = lam - 1.4_dp * pi
      dt = th + 0.5_dp * pi - 0.6_dp * pi
      val = [s%depth + s%hump * exp(-(dl * dl + dt * dt) / (w * w)), 0.0_dp, 0.0_dp]
      return
    end if
    al = 0.0_dp
    if (s%kase == sws_w2) al = s%alpha
    z = sin(th) * cos(al) - cos(lam) * cos(th) * sin(al)
    val(1) = s%depth - (s%a * s%omega * s%u0 + s%u0 * s%u0 / 2.0_dp) * z * z / s%g
    w = val(1) - bottom(s, lam, th)
    val(2) = w * s%u0 * (cos(th) * cos(al) + cos(lam) * sin(th) * sin(al))
    val(3) = -w * s%u0 * sin(lam) * sin(al)
  end subroutine solution

  ! The cos-weighted L2 projection with the q-point rule.
  subroutine swsph_project(s, u)
    type(swsph_t), intent(in) :: s
    real(dp), intent(out) :: u(:)
    integer :: e, i, j, p, k
    real(dp) :: val(3)
    u = 0.0_dp
    do e = 0, s%nelem - 1
      i = mod(e, s%n1)
      j = e / s%n1
      do k = 1, s%q
        do p = 1, s%q
          call solution(s, (real(i, dp) + 0.5_dp) * s%dlam + 0.5_dp * s%dlam * s%xq(p), &
                        row_th(s, j) + 0.5_dp * s%dth * s%xq(k), val)
          call sw_add_face(s%deg(e), s%off(e), s%pv(:, p), s%pv(:, k), s%wq(p) * s%wq(k) * s%cq(k, j), &
                           val, 1.0_dp, u)
        end do
      end do
      call mass_inverse(s, e, u, 1.0_dp)
    end do
  end subroutine swsph_project

  ! One step: forward Euler or Carpenter and Kennedy's lsrk4 (nothing depends on t).
  subroutine swsph_step(s, method, dt, u)
    type(swsph_t), intent(in) :: s
    integer, intent(in) :: method
    real(dp), intent(in) :: dt
    real(dp), intent(inout) :: u(:)
    real(dp), allocatable :: k1(:), k2(:)
    integer :: st
    allocate(k1(size(u)), k2(size(u)))
    if (method == swsrk_euler) then
      call swsph_rhs(s, u, k1)
      u = u + dt * k1
      return
    end if
    k2 = 0.0_dp
    do st = 1, 5
      call swsph_rhs(s, u, k1)
      call lsrk4_stage(st, dt, k1, k2, u)
    end do
  end subroutine swsph_step

  ! ------------------------------------------------------------ diagnostics

  ! int v dA = a^2 sum_e (dlam dth / 4) sum_pk w_p w_k cos(th_k) v(p, k).
  real(dp) function swsph_mass(s, u, v)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    integer, intent(in) :: v
    integer :: e, p, k
    real(dp) :: val(3)
    swsph_mass = 0.0_dp
    do e = 0, s%nelem - 1
      do k = 1, s%q
        do p = 1, s%q
          call sw_eval(s%deg(e), s%off(e), u, s%pv(:, p), s%pv(:, k), val)
          swsph_mass = swsph_mass + s%wq(p) * s%wq(k) * s%cq(k, e / s%n1) * val(v + 1)
        end do
      end do
    end do
    swsph_mass = swsph_mass * s%a * s%a * 0.25_dp * s%dlam * s%dth
  end function swsph_mass

  ! williamson2 and the lake without a hump: the area-weighted L2 errors of
  ! eta, hu, hv against the exact state, q + 3 Gauss points per direction.
  subroutine swsph_errors(s, u, l2, known)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: l2(3)
    logical, intent(out) :: known
    real(dp), allocatable :: xe(:), we(:), pe(:,:), dpe(:,:), pp(:), pm(:)
    real(dp) :: val(3), ex(3), th
    integer :: qe, e, p, k
    known = s%kase == sws_w2 .or. (s%kase == sws_lake .and. .not. (abs(s%hump) > 0.0_dp))
    l2 = 0.0_dp
    if (.not. known) return
    qe = s%q + 3
    call legendre_tables(s%maxdeg, qe, xe, we, pe, dpe, pp, pm)
    do e = 0, s%nelem - 1
      do k = 1, qe
        th = row_th(s, e / s%n1) + 0.5_dp * s%dth * xe(k)
        do p = 1, qe
          call sw_eval(s%deg(e), s%off(e), u, pe(:, p), pe(:, k), val)
          call solution(s, (real(mod(e, s%n1), dp) + 0.5_dp) * s%dlam + 0.5_dp * s%dlam * xe(p), th, ex)
          l2 = l2 + we(p) * we(k) * cos(th) * (val - ex)**2
        end do
      end do
    end do
    l2 = sqrt(l2 * s%a * s%a * 0.25_dp * s%dlam * s%dth)
  end subroutine swsph_errors

end module dgref_swsph
