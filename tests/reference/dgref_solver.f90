! dgref_solver: modal DG for 2D planar linear advection
!   u_t + div(beta(x) u) = 0,  periodic in x and y,
! on a uniform nx x ny grid with a per-element polynomial degree.
!
! Storage: all coefficients live in one flat array u(1:ndof).  Element e
! (0-based, e = i + nx*j) has degree deg(e) and owns
!   u(off(e)+1 : off(e)+(deg(e)+1)**2),
! mode (a,b) of it at u(off(e) + 1 + a + (deg(e)+1)*b)  (x-mode a fastest).
module dgref_solver
  use dgref_basis, only: dp, pi, legendre_all, gauss_legendre, element_offsets, legendre_tables
  implicit none
  private

  integer, parameter, public :: vel_const = 1, vel_rot = 2
  integer, parameter, public :: init_parabola = 1, init_bell = 2, init_sine = 3, &
                                init_const = 4
  integer, parameter, public :: rk_euler = 1, rk_ssprk3 = 2, rk_rk4 = 3

  type, public :: problem_t
    ! grid
    integer :: nx = 10, ny = 10
    real(dp) :: x0 = 0.0_dp, x1 = 1.0_dp, y0 = 0.0_dp, y1 = 1.0_dp
    real(dp) :: hx = 0.1_dp, hy = 0.1_dp
    integer :: nelem = 0, ndof = 0, maxdeg = 0
    integer, allocatable :: deg(:), off(:)          ! (0:nelem-1)
    ! velocity
    integer :: vel = vel_const
    real(dp) :: bx = 1.0_dp, by = 1.0_dp
    real(dp) :: omega = 1.0_dp, cx = 0.5_dp, cy = 0.5_dp
    ! initial data
    integer :: init = init_sine
    real(dp) :: bcx = 0.0_dp, bcy = 0.0_dp, radius = 0.0_dp, height = 2.0_dp
    real(dp) :: value = 1.0_dp
    ! quadrature (q points per direction) and basis tables at its nodes
    integer :: q = 0
    real(dp), allocatable :: xq(:), wq(:)            ! (1:q)
    real(dp), allocatable :: pv(:,:), dpv(:,:)       ! (0:maxdeg, 1:q)  P_a(xi_p), P'_a(xi_p)
    real(dp), allocatable :: pplus(:), pminus(:)     ! (0:maxdeg)       P_a(1), P_a(-1)
    ! velocity at the quadrature points, fixed in time
    real(dp), allocatable :: vbx(:,:,:), vby(:,:,:)  ! (1:q, 1:q, 0:nelem-1) volume points
    real(dp), allocatable :: fbx(:,:)                ! (1:q, 0:nelem-1) beta_x on right face
    real(dp), allocatable :: fby(:,:)                ! (1:q, 0:nelem-1) beta_y on top face
  end type problem_t

  public :: setup_problem, project_initial, compute_rhs, time_step, &
            compute_errors, compute_mass, exact_solution, eval_element, &
            element_centre

contains

  ! ---------------------------------------------------------------- setup

  ! Everything that does not change in time.  On entry nx, ny, the box,
  ! deg(0:nx*ny-1), q and the velocity parameters must be set.
  subroutine setup_problem(pb)
    type(problem_t), intent(inout) :: pb
    integer :: e, i, j, p, k
    real(dp) :: xc, yc, x, y, bxv, byv

    pb%nelem = pb%nx * pb%ny
    pb%hx = (pb%x1 - pb%x0) / real(pb%nx, dp)
    pb%hy = (pb%y1 - pb%y0) / real(pb%ny, dp)
    pb%maxdeg = maxval(pb%deg)

    call element_offsets(pb%deg, 1, pb%off, pb%ndof)

    call legendre_tables(pb%maxdeg, pb%q, pb%xq, pb%wq, pb%pv, pb%dpv, pb%pplus, pb%pminus)

    allocate(pb%vbx(pb%q, pb%q, 0:pb%nelem - 1), pb%vby(pb%q, pb%q, 0:pb%nelem - 1))
    allocate(pb%fbx(pb%q, 0:pb%nelem - 1), pb%fby(pb%q, 0:pb%nelem - 1))
    do e = 0, pb%nelem - 1
      i = mod(e, pb%nx)
      j = e / pb%nx
      call element_centre(pb, i, j, xc, yc)
      do k = 1, pb%q
        do p = 1, pb%q
          x = xc + 0.5_dp * pb%hx * pb%xq(p)
          y = yc + 0.5_dp * pb%hy * pb%xq(k)
          call velocity(pb, x, y, pb%vbx(p, k, e), pb%vby(p, k, e))
        end do
      end do
      ! right face x = x0 + (i+1) hx, seen from element (i,j)
      do k = 1, pb%q
        x = pb%x0 + real(i + 1, dp) * pb%hx
        y = yc + 0.5_dp * pb%hy * pb%xq(k)
        call velocity(pb, x, y, bxv, byv)
        pb%fbx(k, e) = bxv
      end do
      ! top face y = y0 + (j+1) hy, seen from element (i,j)
      do p = 1, pb%q
        x = xc + 0.5_dp * pb%hx * pb%xq(p)
        y = pb%y0 + real(j + 1, dp) * pb%hy
        call velocity(pb, x, y, bxv, byv)
        pb%fby(p, e) = byv
      end do
    end do
  end subroutine setup_problem

  pure subroutine element_centre(pb, i, j, xc, yc)
    type(problem_t), intent(in) :: pb
    integer, intent(in) :: i, j
    real(dp), intent(out) :: xc, yc
    xc = pb%x0 + (real(i, dp) + 0.5_dp) * pb%hx
    yc = pb%y0 + (real(j, dp) + 0.5_dp) * pb%hy
  end subroutine element_centre

  pure subroutine velocity(pb, x, y, bxv, byv)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: x, y
    real(dp), intent(out) :: bxv, byv
    if (pb%vel == vel_rot) then
      bxv = -pb%omega * (y - pb%cy)
      byv = pb%omega * (x - pb%cx)
    else
      bxv = pb%bx
      byv = pb%by
    end if
  end subroutine velocity

  ! ------------------------------------------------------ initial / exact

  pure function initial_value(pb, x, y) result(u0)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: x, y
    real(dp) :: u0, r
    select case (pb%init)
    case (init_parabola)
      u0 = -(x - pb%x0) * (x - pb%x1) * (2.0_dp / (pb%x1 - pb%x0))**2
    case (init_bell)
      r = sqrt((x - pb%bcx)**2 + (y - pb%bcy)**2)
      if (r < pb%radius) then
        u0 = 0.5_dp * pb%height * (1.0_dp + cos(pi * r / pb%radius))
      else
        u0 = 0.0_dp
      end if
    case (init_sine)
      u0 = sin(2.0_dp * pi * x / (pb%x1 - pb%x0)) * sin(2.0_dp * pi * y / (pb%y1 - pb%y0))
    case default
      u0 = pb%value
    end select
  end function initial_value

  ! periodic wrap of v into [a, b)
  pure function wrap(v, a, b) result(w)
    real(dp), intent(in) :: v, a, b
    real(dp) :: w
    w = a + modulo(v - a, b - a)
  end function wrap

  ! Exact solution at (x,y) and time t: u0 at the foot of the characteristic.
  pure function exact_solution(pb, x, y, t) result(u)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: x, y, t
    real(dp) :: u, xs, ys, c, s
    if (pb%vel == vel_rot) then
      c = cos(pb%omega * t)
      s = sin(pb%omega * t)
      ! rotate (x - c) by -omega t about the centre
      xs = pb%cx + c * (x - pb%cx) + s * (y - pb%cy)
      ys = pb%cy - s * (x - pb%cx) + c * (y - pb%cy)
    else
      xs = x - pb%bx * t
      ys = y - pb%by * t
    end if
    xs = wrap(xs, pb%x0, pb%x1)
    ys = wrap(ys, pb%y0, pb%y1)
    u = initial_value(pb, xs, ys)
  end function exact_solution

  ! Discrete L2 projection of the initial data with the q-point rule.
  subroutine project_initial(pb, u)
    type(problem_t), intent(in) :: pb
    real(dp), intent(out) :: u(:)
    real(dp) :: u0(pb%q, pb%q), xc, yc, x, y, s
    integer :: e, i, j, r, a, b, p, k

    do e = 0, pb%nelem - 1
      i = mod(e, pb%nx)
      j = e / pb%nx
      r = pb%deg(e)
      call element_centre(pb, i, j, xc, yc)
      do k = 1, pb%q
        do p = 1, pb%q
          x = xc + 0.5_dp * pb%hx * pb%xq(p)
          y = yc + 0.5_dp * pb%hy * pb%xq(k)
          u0(p, k) = initial_value(pb, x, y)
        end do
      end do
      do b = 0, r
        do a = 0, r
          s = 0.0_dp
          do k = 1, pb%q
            do p = 1, pb%q
              s = s + pb%wq(p) * pb%wq(k) * u0(p, k) * pb%pv(a, p) * pb%pv(b, k)
            end do
          end do
          u(pb%off(e) + 1 + a + (r + 1) * b) = real((2 * a + 1) * (2 * b + 1), dp) / 4.0_dp * s
        end do
      end do
    end do
  end subroutine project_initial

  ! Value of element e's expansion at reference point (xi, eta).
  function eval_element(pb, u, e, xi, eta) result(v)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:)
    integer, intent(in) :: e
    real(dp), intent(in) :: xi, eta
    real(dp) :: v
    real(dp) :: px(0:pb%deg(e)), py(0:pb%deg(e)), dx(0:pb%deg(e)), dy(0:pb%deg(e))
    integer :: r, a, b

    r = pb%deg(e)
    call legendre_all(r, xi, px, dx)
    call legendre_all(r, eta, py, dy)
    v = 0.0_dp
    do b = 0, r
      do a = 0, r
        v = v + u(pb%off(e) + 1 + a + (r + 1) * b) * px(a) * py(b)
      end do
    end do
  end function eval_element

  ! ----------------------------------------------------------------- rhs

  ! Rusanov flux in the direction of the face normal, bn = beta.n.
  pure function rusanov(bn, ul, ur) result(f)
    real(dp), intent(in) :: bn, ul, ur
    real(dp) :: f
    f = 0.5_dp * bn * (ul + ur) - 0.5_dp * abs(bn) * (ur - ul)
  end function rusanov

  ! du = L(u) = M^{-1} (volume terms - face terms).
  subroutine compute_rhs(pb, u, du)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: du(:)
    real(dp) :: uq(pb%q, pb%q), ul(pb%q), ur(pb%q), flux(pb%q)
    real(dp) :: s, c, gx, gy
    integer :: e, en, i, j, r, rn, a, b, p, k, o, on

    du = 0.0_dp
    gx = 2.0_dp / pb%hx
    gy = 2.0_dp / pb%hy

    ! volume terms: sum_pq w_p w_q f . grad(psi_ab)
    do e = 0, pb%nelem - 1
      r = pb%deg(e)
      o = pb%off(e)
      do k = 1, pb%q
        do p = 1, pb%q
          s = 0.0_dp
          do b = 0, r
            do a = 0, r
              s = s + u(o + 1 + a + (r + 1) * b) * pb%pv(a, p) * pb%pv(b, k)
            end do
          end do
          uq(p, k) = s
        end do
      end do
      do b = 0, r
        do a = 0, r
          s = 0.0_dp
          do k = 1, pb%q
            do p = 1, pb%q
              s = s + pb%wq(p) * pb%wq(k) * uq(p, k) * &
                  (gx * pb%vbx(p, k, e) * pb%dpv(a, p) * pb%pv(b, k) + &
                   gy * pb%vby(p, k, e) * pb%pv(a, p) * pb%dpv(b, k))
            end do
          end do
          du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) + s
        end do
      end do
    end do

    ! x faces: the right face of every element (i,j), neighbour (i+1,j)
    do e = 0, pb%nelem - 1
      i = mod(e, pb%nx)
      j = e / pb%nx
      en = mod(i + 1, pb%nx) + pb%nx * j
      r = pb%deg(e)
      rn = pb%deg(en)
      o = pb%off(e)
      on = pb%off(en)
      do k = 1, pb%q
        s = 0.0_dp
        do b = 0, r
          do a = 0, r
            s = s + u(o + 1 + a + (r + 1) * b) * pb%pplus(a) * pb%pv(b, k)
          end do
        end do
        ul(k) = s
        s = 0.0_dp
        do b = 0, rn
          do a = 0, rn
            s = s + u(on + 1 + a + (rn + 1) * b) * pb%pminus(a) * pb%pv(b, k)
          end do
        end do
        ur(k) = s
        flux(k) = rusanov(pb%fbx(k, e), ul(k), ur(k))
      end do
      do b = 0, r
        do a = 0, r
          s = 0.0_dp
          do k = 1, pb%q
            s = s + pb%wq(k) * flux(k) * pb%pplus(a) * pb%pv(b, k)
          end do
          du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) - gx * s
        end do
      end do
      do b = 0, rn
        do a = 0, rn
          s = 0.0_dp
          do k = 1, pb%q
            s = s + pb%wq(k) * flux(k) * pb%pminus(a) * pb%pv(b, k)
          end do
          du(on + 1 + a + (rn + 1) * b) = du(on + 1 + a + (rn + 1) * b) + gx * s
        end do
      end do
    end do

    ! y faces: the top face of every element (i,j), neighbour (i,j+1)
    do e = 0, pb%nelem - 1
      i = mod(e, pb%nx)
      j = e / pb%nx
      en = i + pb%nx * mod(j + 1, pb%ny)
      r = pb%deg(e)
      rn = pb%deg(en)
      o = pb%off(e)
      on = pb%off(en)
      do p = 1, pb%q
        s = 0.0_dp
        do b = 0, r
          do a = 0, r
            s = s + u(o + 1 + a + (r + 1) * b) * pb%pv(a, p) * pb%pplus(b)
          end do
        end do
        ul(p) = s
        s = 0.0_dp
        do b = 0, rn
          do a = 0, rn
            s = s + u(on + 1 + a + (rn + 1) * b) * pb%pv(a, p) * pb%pminus(b)
          end do
        end do
        ur(p) = s
        flux(p) = rusanov(pb%fby(p, e), ul(p), ur(p))
      end do
      do b = 0, r
        do a = 0, r
          s = 0.0_dp
          do p = 1, pb%q
            s = s + pb%wq(p) * flux(p) * pb%pv(a, p) * pb%pplus(b)
          end do
          du(o + 1 + a + (r + 1) * b) = du(o + 1 + a + (r + 1) * b) - gy * s
        end do
      end do
      do b = 0, rn
        do a = 0, rn
          s = 0.0_dp
          do p = 1, pb%q
            s = s + pb%wq(p) * flux(p) * pb%pv(a, p) * pb%pminus(b)
          end do
          du(on + 1 + a + (rn + 1) * b) = du(on + 1 + a + (rn + 1) * b) + gy * s
        end do
      end do
    end do

    ! inverse of the diagonal mass matrix: (2a+1)(2b+1)/4 on the reference
    ! square (the hx hy/4 Jacobian is already in gx, gy above)
    do e = 0, pb%nelem - 1
      r = pb%deg(e)
      o = pb%off(e)
      do b = 0, r
        do a = 0, r
          c = real((2 * a + 1) * (2 * b + 1), dp) / 4.0_dp
          du(o + 1 + a + (r + 1) * b) = c * du(o + 1 + a + (r + 1) * b)
        end do
      end do
    end do
  end subroutine compute_rhs

  ! ---------------------------------------------------------- time step

  ! One step of size dt with the chosen Runge-Kutta method.
  subroutine time_step(pb, method, dt, u)
    type(problem_t), intent(in) :: pb
    integer, intent(in) :: method
    real(dp), intent(in) :: dt
    real(dp), intent(inout) :: u(:)
    real(dp), allocatable :: k1(:), k2(:), k3(:), k4(:), u1(:), u2(:)

    allocate(k1(pb%ndof), k2(pb%ndof), k3(pb%ndof), k4(pb%ndof))
    allocate(u1(pb%ndof), u2(pb%ndof))
    select case (method)
    case (rk_euler)
      call compute_rhs(pb, u, k1)
      u = u + dt * k1
    case (rk_ssprk3)
      call compute_rhs(pb, u, k1)
      u1 = u + dt * k1
      call compute_rhs(pb, u1, k2)
      u2 = 0.75_dp * u + 0.25_dp * (u1 + dt * k2)
      call compute_rhs(pb, u2, k3)
      ! weights 1 - fl(2/3) and fl(2/3) sum to exactly 1 (1 - 2/3 is exact);
      ! fl(1/3) + fl(2/3) = 1 - 2**-54 would shrink u by ~6e-17 every step
      u = (1.0_dp - 2.0_dp / 3.0_dp) * u + (2.0_dp / 3.0_dp) * (u2 + dt * k3)
    case default
      call compute_rhs(pb, u, k1)
      u1 = u + 0.5_dp * dt * k1
      call compute_rhs(pb, u1, k2)
      u1 = u + 0.5_dp * dt * k2
      call compute_rhs(pb, u1, k3)
      u1 = u + dt * k3
      call compute_rhs(pb, u1, k4)
      u = u + (dt / 6.0_dp) * (k1 + 2.0_dp * k2 + 2.0_dp * k3 + k4)
    end select
  end subroutine time_step

  ! ------------------------------------------------------------ diagnostics

  ! L2 and max errors against the exact solution at time t, measured with
  ! qe = q + 3 Gauss points per direction on every element.
  subroutine compute_errors(pb, u, t, l2, linf)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:)
    real(dp), intent(in) :: t
    real(dp), intent(out) :: l2, linf
    real(dp), allocatable :: xe(:), we(:), pe(:,:), dpe(:,:)
    real(dp) :: xc, yc, x, y, uh, s, d
    integer :: qe, e, i, j, r, a, b, p, k, o

    qe = pb%q + 3
    allocate(xe(qe), we(qe), pe(0:pb%maxdeg, qe), dpe(0:pb%maxdeg, qe))
    call gauss_legendre(qe, xe, we)
    do p = 1, qe
      call legendre_all(pb%maxdeg, xe(p), pe(:, p), dpe(:, p))
    end do

    l2 = 0.0_dp
    linf = 0.0_dp
    do e = 0, pb%nelem - 1
      i = mod(e, pb%nx)
      j = e / pb%nx
      r = pb%deg(e)
      o = pb%off(e)
      call element_centre(pb, i, j, xc, yc)
      do k = 1, qe
        do p = 1, qe
          s = 0.0_dp
          do b = 0, r
            do a = 0, r
              s = s + u(o + 1 + a + (r + 1) * b) * pe(a, p) * pe(b, k)
            end do
          end do
          uh = s
          x = xc + 0.5_dp * pb%hx * xe(p)
          y = yc + 0.5_dp * pb%hy * xe(k)
          d = uh - exact_solution(pb, x, y, t)
          l2 = l2 + we(p) * we(k) * 0.25_dp * pb%hx * pb%hy * d * d
          linf = max(linf, abs(d))
        end do
      end do
    end do
    l2 = sqrt(l2)
  end subroutine compute_errors

  function compute_mass(pb, u) result(m)
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:)
    real(dp) :: m
    integer :: e
    m = 0.0_dp
    do e = 0, pb%nelem - 1
      m = m + pb%hx * pb%hy * u(pb%off(e) + 1)
    end do
  end function compute_mass

end module dgref_solver
