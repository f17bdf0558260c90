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
  use dgref_basis, only: dp, pi, legendre_all, gauss_legendre
  use dgref_sw, only: gauss_lobatto, lagrange, lsa, lsb
  use dgref_sphere, only: cholesky, cholesky_inverse, mass_inverse_block, earth_radius, &
                          seconds_per_day
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
    real(dp), allocatable :: w(:,:), l(:,:)
    integer :: e, j, k, r, n, m

    s%nelem = s%n1 * s%n2
    s%dlam = 2.0_dp * pi / real(s%n1, dp)
    s%dth = pi / real(s%n2, dp)
    s%maxdeg = maxval(s%deg)
    allocate(s%off(0:s%nelem - 1))
    s%ndof = 0
    do e = 0, s%nelem - 1
      s%off(e) = s%ndof
      s%ndof = s%ndof + 3 * (s%deg(e) + 1)**2
    end do
    if (s%kase == sws_w5) then
      s%u0 = 20.0_dp
    else
      s%u0 = 2.0_dp * pi * s%a / (12.0_dp * seconds_per_day)
    end if

    allocate(s%xq(s%q), s%wq(s%q))
    call gauss_legendre(s%q, s%xq, s%wq)
    allocate(s%pv(0:s%maxdeg, s%q), s%dpv(0:s%maxdeg, s%q))
    do k = 1, s%q
      call legendre_all(s%maxdeg, s%xq(k), s%pv(:, k), s%dpv(:, k))
    end do
    allocate(s%pplus(0:s%maxdeg), s%pminus(0:s%maxdeg))
    do n = 0, s%maxdeg
      s%pplus(n) = 1.0_dp
      s%pminus(n) = real(1 - 2 * mod(n, 2), dp)
    end do

    allocate(s%cq(s%q, 0:s%n2 - 1), s%cf(0:s%n2))
    do j = 0, s%n2 - 1
      do k = 1, s%q
        s%cq(k, j) = cos(row_th(s, j) + 0.5_dp * s%dth * s%xq(k))
      end do
    end do
    do j = 0, s%n2
      s%cf(j) = cos(-0.5_dp * pi + real(j, dp) * s%dth)
    end do
    allocate(s%winv(0:s%maxdeg, 0:s%maxdeg, 0:s%n2 - 1, 0:s%maxdeg))
    s%winv = 0.0_dp
    ok = .true.
    do j = 0, s%n2 - 1
      do r = 0, s%maxdeg
        allocate(w(0:r, 0:r), l(0:r, 0:r))
        do m = 0, r
          do n = 0, r
            w(n, m) = sum(s%wq * s%cq(:, j) * s%pv(n, :) * s%pv(m, :))
          end do
        end do
        call cholesky(r + 1, w, l, ok)
        if (.not. ok) return
        call cholesky_inverse(r + 1, l, w)
        s%winv(0:r, 0:r, j, r) = w
        deallocate(w, l)
      end do
    end do
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

  ! Lagrange values and derivatives of the Gauss-Lobatto nodes of degree kk
  ! at the q Gauss points, rounded to double.
  subroutine lagrange_at_points(s, kk, z, lg, dlg)
    type(swsph_t), intent(in) :: s
    integer, intent(in) :: kk
    real(xp), intent(out) :: z(0:kk)
    real(dp), intent(out) :: lg(0:kk, s%q), dlg(0:kk, s%q)
    real(xp) :: lx(0:kk), dlx(0:kk)
    integer :: p
    call gauss_lobatto(kk + 1, z)
    do p = 1, s%q
      call lagrange(kk, z, real(s%xq(p), xp), lx, dlx)
      lg(:, p) = real(lx, dp)
      dlg(:, p) = real(dlx, dp)
    end do
  end subroutine lagrange_at_points

  ! c = I[cos th], c' = I[cos th]', s = I[sin th] of degree maxdeg + 2 per row.
  subroutine setup_metric(s)
    type(swsph_t), intent(inout) :: s
    integer :: kk, j, k
    real(xp), allocatable :: z(:)
    real(dp), allocatable :: lg(:,:), dlg(:,:), ln(:), tn(:)
    kk = s%maxdeg + 2
    s%kmet = kk
    allocate(z(0:kk), lg(0:kk, s%q), dlg(0:kk, s%q), ln(0:kk), tn(0:kk))
    call lagrange_at_points(s, kk, z, lg, dlg)
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
    call lagrange_at_points(s, kk, z, lg, dlg)
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

  pure subroutine eval_pt(s, u, e, pa, pb, val)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(:), pa(0:), pb(0:)
    integer, intent(in) :: e
    real(dp), intent(out) :: val(3)
    integer :: r, n, v, a, b, o
    r = s%deg(e)
    n = (r + 1)**2
    do v = 0, 2
      o = s%off(e) + v * n
      val(v + 1) = 0.0_dp
      do b = 0, r
        do a = 0, r
          val(v + 1) = val(v + 1) + u(o + 1 + a + (r + 1) * b) * pa(a) * pb(b)
        end do
      end do
    end do
  end subroutine eval_pt

  ! Add scale w_k G psi on the face to element e (d = 0: a lam face, the
  ! trace P_a(side) P_b(x_k); d = 1: a th face, P_a(x_k) P_b(side)).
  subroutine add_face(s, du, e, gf, k, d, side, scale)
    type(swsph_t), intent(in) :: s
    real(dp), intent(inout) :: du(:)
    real(dp), intent(in) :: gf(3), scale
    integer, intent(in) :: e, k, d, side
    integer :: r, n, v, a, b, o
    real(dp) :: pn, ps(0:s%maxdeg)
    r = s%deg(e)
    n = (r + 1)**2
    ps = s%pplus
    if (side < 0) ps = s%pminus
    do v = 0, 2
      o = s%off(e) + v * n
      do b = 0, r
        do a = 0, r
          if (d == 0) then
            pn = ps(a) * s%pv(b, k)
          else
            pn = s%pv(a, k) * ps(b)
          end if
          du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) + scale * s%wq(k) * gf(v + 1) * pn
        end do
      end do
    end do
  end subroutine add_face

  ! du = M^-1 (volume + source - faces).
  subroutine swsph_rhs(s, u, du)
    type(swsph_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: du(:)
    integer :: e, i, j, r, n, p, k, a, b, v, o, el, er
    real(dp) :: val(3), f0(3), f1(3), src(3), ul(3), ur(3), fl(3), fr(3), gf(3), al, wt, hl, ht
    real(dp) :: c, cu, ag
    real(dp), allocatable :: tmp(:)

    du = 0.0_dp
    hl = 2.0_dp / s%dlam
    ht = 2.0_dp / s%dth
    ag = s%a * s%g
    do e = 0, s%nelem - 1
      r = s%deg(e)
      n = (r + 1)**2
      j = e / s%n1
      do k = 1, s%q
        c = s%ci(k, j)
        do p = 1, s%q
          call eval_pt(s, u, e, s%pv(:, p), s%pv(:, k), val)
          call flux(s, val, s%av(1, p, k, e), s%av(3, p, k, e), c, 0, f0)
          call flux(s, val, s%av(1, p, k, e), s%av(3, p, k, e), c, 1, f1)
          cu = s%a * s%si(k, j) * val(2) / max(val(1) - s%av(1, p, k, e), 1.0e-30_dp)
          src(1) = 0.0_dp
          src(2) = s%av(5, p, k, e) * val(3) + cu * val(3) - ag * val(1) * s%av(2, p, k, e)
          src(3) = -s%av(5, p, k, e) * val(2) - cu * val(2) + &
                   ag * (s%dci(k, j) * 0.5_dp * val(1) * val(1) - val(1) * s%av(4, p, k, e))
          wt = s%wq(p) * s%wq(k)
          do v = 0, 2
            o = s%off(e) + v * n
            do b = 0, r
              do a = 0, r
                du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) + wt * &
                  (hl * f0(v + 1) * s%dpv(a, p) * s%pv(b, k) + ht * f1(v + 1) * s%pv(a, p) * s%dpv(b, k) &
                   + src(v + 1) * s%pv(a, p) * s%pv(b, k))
              end do
            end do
          end do
        end do
      end do
    end do
    ! lam faces: el = (i, j) west, er = (i+1, j) east, wrapping
    do j = 0, s%n2 - 1
      do i = 0, s%n1 - 1
        el = i + s%n1 * j
        er = mod(i + 1, s%n1) + s%n1 * j
        do k = 1, s%q
          call eval_pt(s, u, el, s%pplus, s%pv(:, k), ul)
          call eval_pt(s, u, er, s%pminus, s%pv(:, k), ur)
          call flux(s, ul, s%bfe(k, el), 0.0_dp, 1.0_dp, 0, fl)
          call flux(s, ur, s%bfe(k, el), 0.0_dp, 1.0_dp, 0, fr)
          al = max(speed(s, ul, s%bfe(k, el), 1.0_dp, 0), speed(s, ur, s%bfe(k, el), 1.0_dp, 0))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call add_face(s, du, el, gf, k, 0, +1, -hl)
          call add_face(s, du, er, gf, k, 0, -1, hl)
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
          call eval_pt(s, u, el, s%pv(:, p), s%pplus, ul)
          call eval_pt(s, u, er, s%pv(:, p), s%pminus, ur)
          call flux(s, ul, s%bfn(p, el), s%cbfn(p, el), c, 1, fl)
          call flux(s, ur, s%bfn(p, el), s%cbfn(p, el), c, 1, fr)
          al = max(speed(s, ul, s%bfn(p, el), c, 1), speed(s, ur, s%bfn(p, el), c, 1))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call add_face(s, du, el, gf, p, 1, +1, -ht)
          call add_face(s, du, er, gf, p, 1, -1, ht)
        end do
      end do
    end do
    ! the cos-weighted mass inverse, per variable
    do e = 0, s%nelem - 1
      r = s%deg(e)
      n = (r + 1)**2
      allocate(tmp(0:n - 1))
      do v = 0, 2
        o = s%off(e) + v * n
        call mass_inverse_block(r, s%winv(:, :, e / s%n1, r), du(o + 1:o + n), tmp, s%a * s%a)
        du(o + 1:o + n) = tmp
      end do
      deallocate(tmp)
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
    integer :: e, i, j, r, n, p, k, a, b, v, o
    real(dp) :: val(3), wt
    real(dp), allocatable :: tmp(:)
    u = 0.0_dp
    do e = 0, s%nelem - 1
      i = mod(e, s%n1)
      j = e / s%n1
      r = s%deg(e)
      n = (r + 1)**2
      do k = 1, s%q
        do p = 1, s%q
          call solution(s, (real(i, dp) + 0.5_dp) * s%dlam + 0.5_dp * s%dlam * s%xq(p), &
                        row_th(s, j) + 0.5_dp * s%dth * s%xq(k), val)
          wt = s%wq(p) * s%wq(k) * s%cq(k, j)
          do v = 0, 2
            o = s%off(e) + v * n
            do b = 0, r
              do a = 0, r
                u(o + 1 + a + (r + 1) * b) = u(o + 1 + a + (r + 1) * b) + wt * val(v + 1) * s%pv(a, p) * s%pv(b, k)
              end do
            end do
          end do
        end do
      end do
      allocate(tmp(0:n - 1))
      do v = 0, 2
        o = s%off(e) + v * n
        call mass_inverse_block(r, s%winv(:, :, j, r), u(o + 1:o + n), tmp, 1.0_dp)
        u(o + 1:o + n) = tmp
      end do
      deallocate(tmp)
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
      k2 = lsa(st) * k2 + dt * k1
      u = u + lsb(st) * k2
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
          call eval_pt(s, u, e, s%pv(:, p), s%pv(:, k), val)
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
    real(dp), allocatable :: xe(:), we(:), pe(:,:), dpe(:,:)
    real(dp) :: val(3), ex(3), th
    integer :: qe, e, p, k
    known = s%kase == sws_w2 .or. (s%kase == sws_lake .and. .not. (abs(s%hump) > 0.0_dp))
    l2 = 0.0_dp
    if (.not. known) return
    qe = s%q + 3
    allocate(xe(qe), we(qe), pe(0:s%maxdeg, qe), dpe(0:s%maxdeg, qe))
    call gauss_legendre(qe, xe, we)
    do p = 1, qe
      call legendre_all(s%maxdeg, xe(p), pe(:, p), dpe(:, p))
    end do
    do e = 0, s%nelem - 1
      do k = 1, qe
        th = row_th(s, e / s%n1) + 0.5_dp * s%dth * xe(k)
        do p = 1, qe
          call eval_pt(s, u, e, pe(:, p), pe(:, k), val)
          call solution(s, (real(mod(e, s%n1), dp) + 0.5_dp) * s%dlam + 0.5_dp * s%dlam * xe(p), th, ex)
          l2 = l2 + we(p) * we(k) * cos(th) * (val - ex)**2
        end do
      end do
    end do
    l2 = sqrt(l2 * s%a * s%a * 0.25_dp * s%dlam * s%dth)
  end subroutine swsph_errors

end module dgref_swsph
