! dgref_sw: modal DG for the shallow-water equations on the periodic plane,
! written from docs/MODELS.md, "A system with auxiliary data: shallow water,
! the exact discretisation" (README.md, "Shallow water on the plane").
!
!   eta_t + div m = 0,
!   m_t + div(k m (x) m / h + g (Pi - eta b) I) = -g eta grad b - f k x m,
!   Pi = c1 eta^2 + c0 eta,  h = eta - b,
!
! k = 1, c1 = 1/2, c0 = 0 (nonlinear) or k = 0, c1 = 0, c0 = eta0 (linear).
! The bottom b and the Coriolis parameter f reach the scheme as the element's
! tensor interpolant of degree K = 2 q - 1 - rmax on its Gauss-Lobatto nodes,
! with the interpolant's exact derivatives (so the lake at rest is an exact
! discrete equilibrium).  Nothing here comes from the C library: the
! Gauss-Lobatto nodes, the Lagrange polynomials and the scheme are computed
! here, the nodes and the Lagrange values in extended precision.
!
! Storage: u(1:ndof), ndof = 3 sum_e (deg(e)+1)**2; element e owns
! u(off(e)+1 : off(e)+3 (r+1)**2), variable v (0: eta, 1: hu, 2: hv) mode
! (a,b) at u(off(e) + 1 + v (r+1)**2 + a + (r+1) b), the text format's order.
module dgref_sw
  use dgref_basis, only: dp, pi, legendre_all, gauss_legendre, element_offsets, legendre_tables
  implicit none
  private

  integer, parameter :: xp = selected_real_kind(18)
  integer, parameter, public :: swc_lake = 1, swc_wave = 2, swc_jet = 3
  integer, parameter, public :: swrk_euler = 1, swrk_ssprk2 = 2, swrk_ssprk3 = 3, swrk_rk4 = 4, &
                                swrk_lsrk4 = 5

  ! Carpenter and Kennedy (1994), NASA TM-109112, solution 3 (2N storage):
  ! k <- A_s k + dt L(u), u <- u + B_s k.
  real(dp), parameter :: lsa(5) = [0.0_dp, -567301805773.0_dp / 1357537059087.0_dp, &
    -2404267990393.0_dp / 2016746695238.0_dp, -3550918686646.0_dp / 2091501179385.0_dp, &
    -1275806237668.0_dp / 842570457699.0_dp]
  real(dp), parameter :: lsb(5) = [1432997174477.0_dp / 9575080441755.0_dp, &
    5161836677717.0_dp / 13612068292357.0_dp, 1720146321549.0_dp / 2090206949498.0_dp, &
    3134564353537.0_dp / 4481467310338.0_dp, 2277821191437.0_dp / 14882151754819.0_dp]

  type, public :: sw_t
    ! grid (periodic box)
    integer :: nx = 8, ny = 8
    real(dp) :: x0 = 0.0_dp, x1 = 1.0_dp, y0 = 0.0_dp, y1 = 1.0_dp
    real(dp) :: hx = 0.0_dp, hy = 0.0_dp
    integer :: nelem = 0, ndof = 0, maxdeg = 0, q = 0, kint = 0
    integer, allocatable :: deg(:), off(:)            ! (0:nelem-1)
    ! the model
    integer :: kase = swc_lake
    logical :: linear = .false.
    real(dp) :: g = 9.80616_dp, depth = 1.0_dp, amp = 0.01_dp, drift = 0.2_dp
    real(dp) :: wave(2) = [1.0_dp, 1.0_dp], bump(2) = [0.5_dp, 0.1_dp], cor(2) = [0.0_dp, 0.0_dp]
    ! case lake_at_rest: a Gaussian hump of this height on eta at t = 0 (0: none),
    ! centre (x0 + 0.3 Lx, y0 + 0.6 Ly), width 0.1 Lx (sw_lake_hump.h)
    real(dp) :: hump = 0.0_dp
    real(dp) :: kf = 1.0_dp, c1 = 0.5_dp, c0 = 0.0_dp
    ! Gauss rule and Legendre tables
    real(dp), allocatable :: xq(:), wq(:), pv(:,:), dpv(:,:), pplus(:), pminus(:)
    ! auxiliary values: volume (5, q, q, e) = b, b_x, B, B_y, f; faces: b on
    ! the element's x+ face (q, e) and y+ face (q, e)
    real(dp), allocatable :: av(:,:,:,:), bfx(:,:), bfy(:,:)
  end type sw_t

  public :: sw_setup, sw_project, sw_step, sw_rhs, sw_mass, sw_errors, sw_model_name
  ! the interpolation tools, shared with the sphere's shallow water (dgref_swsph)
  public :: lagrange_at_points, sw_eval, sw_add_volume, sw_add_face
  public :: lsrk4_stage

contains

  ! ------------------------------------------------------------ setup

  subroutine sw_setup(s)
    type(sw_t), intent(inout) :: s

    s%nelem = s%nx * s%ny
    s%hx = (s%x1 - s%x0) / real(s%nx, dp)
    s%hy = (s%y1 - s%y0) / real(s%ny, dp)
    s%maxdeg = maxval(s%deg)
    call element_offsets(s%deg, 3, s%off, s%ndof)
    if (s%linear) then
      s%kf = 0.0_dp
      s%c1 = 0.0_dp
      s%c0 = s%depth
    else
      s%kf = 1.0_dp
      s%c1 = 0.5_dp
      s%c0 = 0.0_dp
    end if

    call legendre_tables(s%maxdeg, s%q, s%xq, s%wq, s%pv, s%dpv, s%pplus, s%pminus)
    call setup_aux(s)
  end subroutine sw_setup

  ! The n Gauss-Lobatto nodes (n >= 2): -1, the roots of P'_{n-1}, 1, in
  ! ascending order, by Newton in extended precision on
  ! P'_K with (1 - z^2) P''_K = 2 z P'_K - K (K+1) P_K.
  subroutine gauss_lobatto(n, z)
    integer, intent(in) :: n
    real(xp), intent(out) :: z(0:n - 1)
    integer :: kk, m, it, j
    real(xp) :: x, p0, p1, p2, d1, d2, dx

    kk = n - 1
    z(0) = -1.0_xp
    z(kk) = 1.0_xp
    do m = 1, kk - 1
      x = -cos(real(pi, xp) * real(m, xp) / real(kk, xp))
      do it = 1, 100
        p0 = 1.0_xp
        p1 = x
        do j = 1, kk - 1
          p2 = (real(2 * j + 1, xp) * x * p1 - real(j, xp) * p0) / real(j + 1, xp)
          p0 = p1
          p1 = p2
        end do
        ! p1 = P_K(x), p0 = P_{K-1}(x); P'_K = K (P_{K-1} - x P_K) / (1 - x^2)
        d1 = real(kk, xp) * (p0 - x * p1) / (1.0_xp - x * x)
        d2 = (2.0_xp * x * d1 - real(kk * (kk + 1), xp) * p1) / (1.0_xp - x * x)
        dx = d1 / d2
        x = x - dx
        if (abs(dx) <= 4.0_xp * epsilon(1.0_xp)) exit
      end do
      z(m) = x
    end do
    ! exact symmetry
    do m = 0, kk / 2
      x = 0.5_xp * (z(kk - m) - z(m))
      z(m) = -x
      z(kk - m) = x
    end do
    if (mod(kk, 2) == 0) z(kk / 2) = 0.0_xp
  end subroutine gauss_lobatto

  ! The Lagrange polynomials of the nodes z(0:kk) and their derivatives at x.
  subroutine lagrange(kk, z, x, l, dl)
    integer, intent(in) :: kk
    real(xp), intent(in) :: z(0:kk), x
    real(xp), intent(out) :: l(0:kk), dl(0:kk)
    integer :: m, i, j
    real(xp) :: t

    do m = 0, kk
      l(m) = 1.0_xp
      dl(m) = 0.0_xp
      do j = 0, kk
        if (j /= m) l(m) = l(m) * (x - z(j)) / (z(m) - z(j))
      end do
      do i = 0, kk
        if (i == m) cycle
        t = 1.0_xp / (z(m) - z(i))
        do j = 0, kk
          if (j /= m .and. j /= i) t = t * (x - z(j)) / (z(m) - z(j))
        end do
        dl(m) = dl(m) + t
      end do
    end do
  end subroutine lagrange

  ! The Gauss-Lobatto nodes z(0:kk) of degree kk, and their Lagrange
  ! polynomials' values lg and derivatives dlg at the points xq, evaluated in
  ! extended precision and rounded to double (also dgref_swsph).
  subroutine lagrange_at_points(kk, xq, z, lg, dlg)
    integer, intent(in) :: kk
    real(dp), intent(in) :: xq(:)
    real(xp), intent(out) :: z(0:kk)
    real(dp), intent(out) :: lg(0:kk, size(xq)), dlg(0:kk, size(xq))
    real(xp) :: lx(0:kk), dlx(0:kk)
    integer :: p
    call gauss_lobatto(kk + 1, z)
    do p = 1, size(xq)
      call lagrange(kk, z, real(xq(p), xp), lx, dlx)
      lg(:, p) = real(lx, dp)
      dlg(:, p) = real(dlx, dp)
    end do
  end subroutine lagrange_at_points

  ! The case's bottom and Coriolis parameter at (x, y).
  subroutine bottom_f(s, x, y, b, f)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: x, y
    real(dp), intent(out) :: b, f
    real(dp) :: lx, ly, w, sx, sy, ph

    b = 0.0_dp
    if (s%kase == swc_lake) then
      lx = s%x1 - s%x0
      ly = s%y1 - s%y0
      w = s%bump(2) * lx
      ph = pi * (x - s%x0 - 0.5_dp * lx) / lx
      sx = (lx / pi)**2 * sin(ph)**2
      ph = pi * (y - s%y0 - 0.5_dp * ly) / ly
      sy = (ly / pi)**2 * sin(ph)**2
      b = s%bump(1) * exp(-(sx + sy) / (w * w))
    end if
    f = s%cor(1) + s%cor(2) * (y - s%y0 - 0.5_dp * (s%y1 - s%y0))
  end subroutine bottom_f

  ! Sample b and f at each element's (K+1)^2 Gauss-Lobatto nodes (the end
  ! nodes on the face coordinates, the periodic wrap's minus face at the box's
  ! far end), and evaluate the interpolant and its derivatives at the Gauss
  ! points and on the x+ and y+ faces.
  subroutine setup_aux(s)
    type(sw_t), intent(inout) :: s
    integer :: kk, e, i, j, m, n, p, k
    real(xp), allocatable :: z(:)
    real(dp), allocatable :: lg(:,:), dlg(:,:), nb(:,:), nf(:,:), xn(:), yn(:)
    real(dp) :: xc, yc, w, vb, vbx, vby, vf

    kk = 2 * s%q - 1 - s%maxdeg
    s%kint = kk
    allocate(z(0:kk), lg(0:kk, s%q), dlg(0:kk, s%q))
    allocate(nb(0:kk, 0:kk), nf(0:kk, 0:kk), xn(0:kk), yn(0:kk))
    call lagrange_at_points(kk, s%xq, z, lg, dlg)
    allocate(s%av(5, s%q, s%q, 0:s%nelem - 1), s%bfx(s%q, 0:s%nelem - 1), s%bfy(s%q, 0:s%nelem - 1))
    do e = 0, s%nelem - 1
      i = mod(e, s%nx)
      j = e / s%nx
      xc = s%x0 + (real(i, dp) + 0.5_dp) * s%hx
      yc = s%y0 + (real(j, dp) + 0.5_dp) * s%hy
      do m = 0, kk
        xn(m) = xc + 0.5_dp * s%hx * real(z(m), dp)
        yn(m) = yc + 0.5_dp * s%hy * real(z(m), dp)
      end do
      xn(0) = s%x0 + real(i, dp) * s%hx
      if (i == 0) xn(0) = s%x0 + real(s%nx, dp) * s%hx
      xn(kk) = s%x0 + real(i + 1, dp) * s%hx
      yn(0) = s%y0 + real(j, dp) * s%hy
      if (j == 0) yn(0) = s%y0 + real(s%ny, dp) * s%hy
      yn(kk) = s%y0 + real(j + 1, dp) * s%hy
      do n = 0, kk
        do m = 0, kk
          call bottom_f(s, xn(m), yn(n), nb(m, n), nf(m, n))
        end do
      end do
      ! volume points: the tensor interpolant, n outer, m inner
      do k = 1, s%q
        do p = 1, s%q
          vb = 0.0_dp
          vbx = 0.0_dp
          vby = 0.0_dp
          vf = 0.0_dp
          do n = 0, kk
            do m = 0, kk
              w = lg(m, p) * lg(n, k)
              vb = vb + w * nb(m, n)
              vf = vf + w * nf(m, n)
              vbx = vbx + (dlg(m, p) * 2.0_dp / s%hx) * lg(n, k) * nb(m, n)
              vby = vby + lg(m, p) * (dlg(n, k) * 2.0_dp / s%hy) * nb(m, n)
            end do
          end do
          s%av(:, p, k, e) = [vb, vbx, vb, vby, vf]
        end do
      end do
      ! faces: the face's own nodes only
      do k = 1, s%q
        vb = 0.0_dp
        do n = 0, kk
          vb = vb + lg(n, k) * nb(kk, n)
        end do
        s%bfx(k, e) = vb
        vb = 0.0_dp
        do m = 0, kk
          vb = vb + lg(m, k) * nb(m, kk)
        end do
        s%bfy(k, e) = vb
      end do
    end do
  end subroutine setup_aux

  ! ------------------------------------------------------------ the model

  ! The flux of direction d at a point, bottom b (the plane: a_0 = a_1 = b).
  pure subroutine flux(s, u, b, d, f)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(3), b
    integer, intent(in) :: d
    real(dp), intent(out) :: f(3)
    real(dp) :: h, ppi, w

    h = max(u(1) - b, 1.0e-30_dp)
    ppi = u(1) * (u(1) * s%c1 + s%c0)
    if (d == 0) then
      w = u(2) / h * s%kf
      f(1) = u(2)
      f(2) = w * u(2) + (ppi - u(1) * b) * s%g
      f(3) = w * u(3)
    else
      w = u(3) / h * s%kf
      f(1) = u(3)
      f(2) = w * u(2)
      f(3) = w * u(3) + (ppi - u(1) * b) * s%g
    end if
  end subroutine flux

  ! The largest wave speed along d: k |m_d / h| + sqrt(g h_s), h_s = max(k eta + c0 - b, 0).
  pure real(dp) function speed(s, u, b, d)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(3), b
    integer, intent(in) :: d
    real(dp) :: h, hs
    h = max(u(1) - b, 1.0e-30_dp)
    hs = max(u(1) * s%kf + s%c0 - b, 0.0_dp)
    speed = abs(u(2 + d) / h) * s%kf + sqrt(hs * s%g)
  end function speed

  ! ------------------------------------------------------------ the scheme

  ! State of element e at reference point (xi, et): the values of the
  ! expansion with the Legendre values pa(0:r) along x and pb(0:r) along y.
  pure subroutine eval_pt(s, u, e, pa, pb, val)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(:), pa(0:), pb(0:)
    integer, intent(in) :: e
    real(dp), intent(out) :: val(3)
    call sw_eval(s%deg(e), s%off(e), u, pa, pb, val)
  end subroutine eval_pt

  ! The three variables of the element of degree r stored from u(o+1), at the
  ! point with the Legendre values pa(0:r), pb(0:r) (also dgref_swsph).
  pure subroutine sw_eval(r, o, u, pa, pb, val)
    integer, intent(in) :: r, o
    real(dp), intent(in) :: u(:), pa(0:), pb(0:)
    real(dp), intent(out) :: val(3)
    integer :: v, a, b, ov
    do v = 0, 2
      ov = o + v * (r + 1)**2
      val(v + 1) = 0.0_dp
      do b = 0, r
        do a = 0, r
          val(v + 1) = val(v + 1) + u(ov + 1 + a + (r + 1) * b) * pa(a) * pb(b)
        end do
      end do
    end do
  end subroutine sw_eval

  ! Add wt [gx fx P'_a(x) P_b(y) + gy fy P_a(x) P'_b(y) + src P_a(x) P_b(y)] to
  ! the element of degree r stored from du(o+1), all three variables (also
  ! dgref_swsph).
  pure subroutine sw_add_volume(r, o, pa, dpa, pb, dpb, wt, gx, gy, fx, fy, src, du)
    integer, intent(in) :: r, o
    real(dp), intent(in) :: pa(0:), dpa(0:), pb(0:), dpb(0:), wt, gx, gy, fx(3), fy(3), src(3)
    real(dp), intent(inout) :: du(:)
    call sw_add_face(r, o, dpa, pb, wt, fx, gx, du)
    call sw_add_face(r, o, pa, dpb, wt, fy, gy, du)
    call sw_add_face(r, o, pa, pb, wt, src, 1.0_dp, du)
  end subroutine sw_add_volume

  ! Add scale w G pa(a) pb(b) to the element of degree r stored from du(o+1):
  ! a face term, one of pa, pb the trace's P(+-1), the other P at the node.
  pure subroutine sw_add_face(r, o, pa, pb, w, gf, scale, du)
    integer, intent(in) :: r, o
    real(dp), intent(in) :: pa(0:), pb(0:), w, gf(3), scale
    real(dp), intent(inout) :: du(:)
    integer :: v, a, b, i
    do v = 0, 2
      do b = 0, r
        do a = 0, r
          i = o + v * (r + 1)**2 + 1 + a + (r + 1) * b
          du(i) = du(i) + scale * w * gf(v + 1) * pa(a) * pb(b)
        end do
      end do
    end do
  end subroutine sw_add_face

  ! du = L(u): the residual divided by the (diagonal) mass matrix.
  subroutine sw_rhs(s, u, du)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: du(:)
    integer :: e, i, j, r, n, p, k, a, b, v, o, el, er
    real(dp) :: val(3), fx(3), fy(3), src(3), ul(3), ur(3), fl(3), fr(3), gf(3), al, hpx, hpy
    real(dp) :: onep(0:s%maxdeg), onem(0:s%maxdeg)

    du = 0.0_dp
    hpx = 2.0_dp / s%hx
    hpy = 2.0_dp / s%hy
    onep = s%pplus
    onem = s%pminus
    ! volume: sum_pk w_p w_k [(2/hx) F_x P'_a P_b + (2/hy) F_y P_a P'_b + S P_a P_b]
    do e = 0, s%nelem - 1
      r = s%deg(e)
      n = (r + 1)**2
      do k = 1, s%q
        do p = 1, s%q
          call eval_pt(s, u, e, s%pv(:, p), s%pv(:, k), val)
          call flux(s, val, s%av(1, p, k, e), 0, fx)
          call flux(s, val, s%av(3, p, k, e), 1, fy)
          ! source: (0, f m_1 - g eta b_x, -f m_0 - g eta b_y)  (k s = 0, c' = 0 on the plane)
          src(1) = 0.0_dp
          src(2) = s%av(5, p, k, e) * val(3) - val(1) * s%av(2, p, k, e) * s%g
          src(3) = (0.0_dp - val(1) * s%av(4, p, k, e)) * s%g - s%av(5, p, k, e) * val(2)
          call sw_add_volume(r, s%off(e), s%pv(:, p), s%dpv(:, p), s%pv(:, k), s%dpv(:, k), &
                             s%wq(p) * s%wq(k), hpx, hpy, fx, fy, src, du)
        end do
      end do
    end do
    ! x faces: element el = (i, j) on the left, er = (i+1, j) on the right
    do j = 0, s%ny - 1
      do i = 0, s%nx - 1
        el = i + s%nx * j
        er = mod(i + 1, s%nx) + s%nx * j
        do k = 1, s%q
          call eval_pt(s, u, el, onep, s%pv(:, k), ul)
          call eval_pt(s, u, er, onem, s%pv(:, k), ur)
          call flux(s, ul, s%bfx(k, el), 0, fl)
          call flux(s, ur, s%bfx(k, el), 0, fr)
          al = max(speed(s, ul, s%bfx(k, el), 0), speed(s, ur, s%bfx(k, el), 0))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call add_face(s, du, el, gf, k, 0, +1, -hpx)
          call add_face(s, du, er, gf, k, 0, -1, hpx)
        end do
      end do
    end do
    ! y faces: el = (i, j) below, er = (i, j+1) above
    do j = 0, s%ny - 1
      do i = 0, s%nx - 1
        el = i + s%nx * j
        er = i + s%nx * mod(j + 1, s%ny)
        do p = 1, s%q
          call eval_pt(s, u, el, s%pv(:, p), onep, ul)
          call eval_pt(s, u, er, s%pv(:, p), onem, ur)
          call flux(s, ul, s%bfy(p, el), 1, fl)
          call flux(s, ur, s%bfy(p, el), 1, fr)
          al = max(speed(s, ul, s%bfy(p, el), 1), speed(s, ur, s%bfy(p, el), 1))
          gf = 0.5_dp * (fl + fr) - 0.5_dp * al * (ur - ul)
          call add_face(s, du, el, gf, p, 1, +1, -hpy)
          call add_face(s, du, er, gf, p, 1, -1, hpy)
        end do
      end do
    end do
    ! the mass matrix: (hx hy / 4) (2 / (2a+1)) (2 / (2b+1)), with the volume's
    ! hx hy / 4 already divided out
    do e = 0, s%nelem - 1
      r = s%deg(e)
      n = (r + 1)**2
      do v = 0, 2
        o = s%off(e) + v * n
        do b = 0, r
          do a = 0, r
            du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) * &
              real((2 * a + 1) * (2 * b + 1), dp) / 4.0_dp
          end do
        end do
      end do
    end do
  end subroutine sw_rhs

  ! Add scale w_k G P_b(node k) P_a(side) (d = 0) or the transposed (d = 1)
  ! to element e's residual; side +1 / -1 picks P(1) or P(-1).
  subroutine add_face(s, du, e, gf, k, d, side, scale)
    type(sw_t), intent(in) :: s
    real(dp), intent(inout) :: du(:)
    real(dp), intent(in) :: gf(3), scale
    integer, intent(in) :: e, k, d, side
    if (d == 0 .and. side > 0) call sw_add_face(s%deg(e), s%off(e), s%pplus, s%pv(:, k), s%wq(k), gf, scale, du)
    if (d == 0 .and. side < 0) call sw_add_face(s%deg(e), s%off(e), s%pminus, s%pv(:, k), s%wq(k), gf, scale, du)
    if (d == 1 .and. side > 0) call sw_add_face(s%deg(e), s%off(e), s%pv(:, k), s%pplus, s%wq(k), gf, scale, du)
    if (d == 1 .and. side < 0) call sw_add_face(s%deg(e), s%off(e), s%pv(:, k), s%pminus, s%wq(k), gf, scale, du)
  end subroutine add_face

  ! ------------------------------------------------------------ initial data

  ! The case's state at (x, y) and time t; known = .false. where there is no
  ! exact solution (the nonlinear gravity wave and the hump for t > 0).
  subroutine solution(s, x, y, t, val, known)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: x, y, t
    real(dp), intent(out) :: val(3)
    logical, intent(out) :: known
    real(dp) :: k0, k1, kk, w, ph, mn, mt, f, ly, ys, xy

    known = .true.
    select case (s%kase)
    case (swc_wave)
      k0 = 2.0_dp * pi * s%wave(1) / (s%x1 - s%x0)
      k1 = 2.0_dp * pi * s%wave(2) / (s%y1 - s%y0)
      kk = sqrt(k0 * k0 + k1 * k1)
      f = s%cor(1)
      w = sqrt(f * f + s%g * s%depth * kk * kk)
      ph = k0 * (x - s%x0) + k1 * (y - s%y0) - w * t
      val(1) = s%depth + s%amp * cos(ph)
      if (.not. (kk > 0.0_dp)) then
        val(2:3) = 0.0_dp
      else
        mn = s%amp * w / kk * cos(ph)
        mt = f * s%amp / kk * sin(ph)
        val(2) = (mn * k0 - mt * k1) / kk
        val(3) = (mn * k1 + mt * k0) / kk
      end if
      known = s%linear .or. .not. (t > 0.0_dp)
    case (swc_jet)
      ! the balanced jet carried by the inertial oscillation V0 (cos f t, -sin f t)
      f = s%cor(1)
      ly = s%y1 - s%y0
      xy = s%drift * (cos(f * t) - 1.0_dp) / f
      ys = 2.0_dp * pi * (y - s%y0 - xy) / ly
      val(1) = s%depth + f * s%amp * ly / (2.0_dp * pi * s%g) * cos(ys)
      val(2) = val(1) * (s%amp * sin(ys) + s%drift * cos(f * t))
      val(3) = val(1) * (-s%drift * sin(f * t))
    case default
      val = [s%depth, 0.0_dp, 0.0_dp]
      w = 0.1_dp * (s%x1 - s%x0)
      mn = x - s%x0 - 0.3_dp * (s%x1 - s%x0)
      mt = y - s%y0 - 0.6_dp * (s%y1 - s%y0)
      val(1) = val(1) + s%hump * exp(-(mn * mn + mt * mt) / (w * w))
      known = .not. (abs(s%hump) > 0.0_dp) .or. .not. (t > 0.0_dp)
    end select
  end subroutine solution

  ! The L2 errors of eta, hu, hv against the exact solution at time t, with
  ! q + 3 Gauss points per direction; known = .false. where there is none.
  subroutine sw_errors(s, u, t, l2, known)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(:), t
    real(dp), intent(out) :: l2(3)
    logical, intent(out) :: known
    real(dp), allocatable :: xe(:), we(:), pe(:,:), dpe(:,:)
    real(dp) :: xc, yc, val(3), ex(3)
    integer :: qe, e, p, k
    logical :: kn

    qe = s%q + 3
    allocate(xe(qe), we(qe), pe(0:s%maxdeg, qe), dpe(0:s%maxdeg, qe))
    call gauss_legendre(qe, xe, we)
    do p = 1, qe
      call legendre_all(s%maxdeg, xe(p), pe(:, p), dpe(:, p))
    end do
    l2 = 0.0_dp
    known = .true.
    do e = 0, s%nelem - 1
      xc = s%x0 + (real(mod(e, s%nx), dp) + 0.5_dp) * s%hx
      yc = s%y0 + (real(e / s%nx, dp) + 0.5_dp) * s%hy
      do k = 1, qe
        do p = 1, qe
          call eval_pt(s, u, e, pe(:, p), pe(:, k), val)
          call solution(s, xc + 0.5_dp * s%hx * xe(p), yc + 0.5_dp * s%hy * xe(k), t, ex, kn)
          known = known .and. kn
          l2 = l2 + we(p) * we(k) * 0.25_dp * s%hx * s%hy * (val - ex)**2
        end do
      end do
    end do
    l2 = sqrt(l2)
  end subroutine sw_errors

  ! The L2 projection with the q-point rule.
  subroutine sw_project(s, u)
    type(sw_t), intent(in) :: s
    real(dp), intent(out) :: u(:)
    integer :: e, r, n, p, k, a, b, v, o
    real(dp) :: xc, yc, val(3), wt
    logical :: known

    u = 0.0_dp
    do e = 0, s%nelem - 1
      r = s%deg(e)
      n = (r + 1)**2
      xc = s%x0 + (real(mod(e, s%nx), dp) + 0.5_dp) * s%hx
      yc = s%y0 + (real(e / s%nx, dp) + 0.5_dp) * s%hy
      do k = 1, s%q
        do p = 1, s%q
          call solution(s, xc + 0.5_dp * s%hx * s%xq(p), yc + 0.5_dp * s%hy * s%xq(k), 0.0_dp, val, known)
          wt = s%wq(p) * s%wq(k)
          do v = 0, 2
            o = s%off(e) + v * n
            do b = 0, r
              do a = 0, r
                u(o + 1 + a + (r + 1) * b) = u(o + 1 + a + (r + 1) * b) + wt * val(v + 1) * &
                  s%pv(a, p) * s%pv(b, k)
              end do
            end do
          end do
        end do
      end do
      do v = 0, 2
        o = s%off(e) + v * n
        do b = 0, r
          do a = 0, r
            u(o + 1 + a + (r + 1) * b) = u(o + 1 + a + (r + 1) * b) * real((2 * a + 1) * (2 * b + 1), dp) / 4.0_dp
          end do
        end do
      end do
    end do
  end subroutine sw_project

  ! ------------------------------------------------------------ time stepping

  subroutine sw_step(s, method, dt, u)
    type(sw_t), intent(in) :: s
    integer, intent(in) :: method
    real(dp), intent(in) :: dt
    real(dp), intent(inout) :: u(:)
    real(dp), allocatable :: u0(:), k1(:), k2(:), acc(:)
    integer :: st

    allocate(u0(size(u)), k1(size(u)))
    select case (method)
    case (swrk_euler)
      call sw_rhs(s, u, k1)
      u = u + dt * k1
    case (swrk_ssprk2)
      u0 = u
      call sw_rhs(s, u, k1)
      u = u + dt * k1
      call sw_rhs(s, u, k1)
      u = 0.5_dp * u0 + 0.5_dp * (u + dt * k1)
    case (swrk_ssprk3)
      u0 = u
      call sw_rhs(s, u, k1)
      u = u + dt * k1
      call sw_rhs(s, u, k1)
      u = 0.75_dp * u0 + 0.25_dp * (u + dt * k1)
      call sw_rhs(s, u, k1)
      u = (1.0_dp - 2.0_dp / 3.0_dp) * u0 + (2.0_dp / 3.0_dp) * (u + dt * k1)
    case (swrk_rk4)
      allocate(k2(size(u)), acc(size(u)))
      u0 = u
      call sw_rhs(s, u0, k1)
      acc = k1
      call sw_rhs(s, u0 + 0.5_dp * dt * k1, k2)
      acc = acc + 2.0_dp * k2
      call sw_rhs(s, u0 + 0.5_dp * dt * k2, k1)
      acc = acc + 2.0_dp * k1
      call sw_rhs(s, u0 + dt * k1, k2)
      acc = acc + k2
      u = u0 + dt / 6.0_dp * acc
    case (swrk_lsrk4)
      allocate(k2(size(u)))
      k2 = 0.0_dp
      do st = 1, 5
        call sw_rhs(s, u, k1)
        call lsrk4_stage(st, dt, k1, k2, u)
      end do
    end select
  end subroutine sw_step

  ! Stage st of lsrk4 with k1 = L(u): k2 <- A_st k2 + dt k1, u <- u + B_st k2
  ! (also dgref_swsph).
  pure subroutine lsrk4_stage(st, dt, k1, k2, u)
    integer, intent(in) :: st
    real(dp), intent(in) :: dt, k1(:)
    real(dp), intent(inout) :: k2(:), u(:)
    k2 = lsa(st) * k2 + dt * k1
    u = u + lsb(st) * k2
  end subroutine lsrk4_stage

  ! ------------------------------------------------------------ diagnostics

  ! The mass of variable v (0, 1, 2): sum_e hx hy c_v(0,0).
  real(dp) function sw_mass(s, u, v)
    type(sw_t), intent(in) :: s
    real(dp), intent(in) :: u(:)
    integer, intent(in) :: v
    integer :: e
    sw_mass = 0.0_dp
    do e = 0, s%nelem - 1
      sw_mass = sw_mass + s%hx * s%hy * u(s%off(e) + 1 + v * (s%deg(e) + 1)**2)
    end do
  end function sw_mass

  function sw_model_name(s) result(name)
    type(sw_t), intent(in) :: s
    character(len=:), allocatable :: name
    if (s%linear) then
      name = 'shallow_water-linear'
    else
      name = 'shallow_water'
    end if
  end function sw_model_name

end module dgref_sw
