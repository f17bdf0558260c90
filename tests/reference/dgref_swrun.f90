! dgref_swrun: the shallow-water runs of dgref (model=shallow_water): the
! periodic plane (dgref_sw) and the sphere (dgref_swsph, grid=latlon); README.md,
! "Shallow water on the plane" and "Shallow water on the sphere".
module dgref_swrun
  use, intrinsic :: iso_fortran_env, only: output_unit
  use dgref_basis, only: dp, pi
  use dgref_sw
  use dgref_swsph
  use dgref_io
  implicit none
  private

  public :: run_sw, run_swsph

contains

  ! model=shallow_water: the shallow-water equations on the periodic box
  ! (dgref_sw; README.md, "Shallow water on the plane").
  subroutine run_sw(sw, seen, deg_uniform, degfile, iq, rk_name, dt, nsteps, outfile)
    type(sw_t), intent(inout) :: sw
    logical, intent(in) :: seen(:)
    integer, intent(in) :: deg_uniform, iq, nsteps
    character(len=*), intent(in) :: degfile, rk_name, outfile
    real(dp), intent(in) :: dt
    real(dp), allocatable :: u(:)
    real(dp) :: t, m0(3), m1(3), l2(3)
    integer :: method, step, v
    logical :: known
    character(len=:), allocatable :: errs

    call box_checks(seen, sw%nx, sw%ny, sw%x0, sw%x1, sw%y0, sw%y1, dt, nsteps)
    if (.not. (sw%g > 0.0_dp)) call usage_error('bad value for key "gravity": must be > 0')
    if (.not. (sw%depth > 0.0_dp)) call usage_error('bad value for key "depth": must be > 0')
    if (.not. (sw%bump(1) < sw%depth) .or. .not. (sw%bump(2) > 0.0_dp)) &
      call usage_error('keys "bump0", "bumpw": the bump must stay below depth and its width be > 0')
    if (sw%kase == swc_jet .and. (sw%linear .or. .not. (abs(sw%cor(1)) > 0.0_dp))) &
      call usage_error('case=jet needs equation=nonlinear and f0 /= 0')
    if (sw%kase /= swc_lake .and. abs(sw%cor(2)) > 0.0_dp) &
      call usage_error('key "beta": the gravity wave and the jet run on the f-plane')
    call degrees_and_q(seen, sw%nx, sw%ny, deg_uniform, degfile, iq, sw%deg, sw%q)
    method = rk_method(rk_name) ! the constants srk_* and swrk_* are 1..5 in this order

    call sw_setup(sw)
    allocate(u(sw%ndof))
    call sw_project(sw, u)
    do v = 1, 3
      m0(v) = sw_mass(sw, u, v - 1)
    end do
    do step = 1, nsteps
      call sw_step(sw, method, dt, u)
    end do
    t = real(nsteps, dp) * dt
    do v = 1, 3
      m1(v) = sw_mass(sw, u, v - 1)
    end do
    call sw_errors(sw, u, t, l2, known)
    call write_modal_sw(outfile, sw, u, t, nsteps)
    errs = ''
    if (known) errs = ' l2_error=' // ftoa(sqrt(sum(l2**2))) // ' l2_error_eta=' // ftoa(l2(1)) // &
      ' l2_error_hu=' // ftoa(l2(2)) // ' l2_error_hv=' // ftoa(l2(3))
    write(output_unit, '(a)') 'dgref: dofs=' // itoa(sw%ndof) // ' steps=' // itoa(nsteps) // &
      ' K=' // itoa(sw%kint) // errs // ' mass_eta=' // ftoa(m1(1)) // ' mass_hu=' // ftoa(m1(2)) // &
      ' mass_hv=' // ftoa(m1(3)) // ' mass_eta_initial=' // ftoa(m0(1))
  end subroutine run_sw

  subroutine write_modal_sw(path, sw, u, t, nsteps)
    character(len=*), intent(in) :: path
    type(sw_t), intent(in) :: sw
    real(dp), intent(in) :: u(:), t
    integer, intent(in) :: nsteps
    call write_modal3(path, 'shallow water on the periodic plane', sw%nx, sw%ny, &
                      [sw%x0, sw%x1, sw%y0, sw%y1], sw%q, t, nsteps, sw_model_name(sw), sw%deg, sw%off, u)
  end subroutine write_modal_sw


  ! model=shallow_water grid=latlon: the shallow-water equations on the sphere
  ! (dgref_swsph; README.md, "Shallow water on the sphere").  The plane's keys
  ! give gravity, depth, bump0, bumpw and hump; a, omega, alpha the sphere's.
  subroutine run_swsph(seen, sw, sph_case, a, omega, alpha, deg_uniform, degfile, iq, rk_name, dt, &
                       nsteps, nx, ny, outfile)
    logical, intent(in) :: seen(:)
    type(sw_t), intent(in) :: sw
    integer, intent(in) :: sph_case, deg_uniform, iq, nsteps, nx, ny
    real(dp), intent(in) :: a, omega, alpha, dt
    character(len=*), intent(in) :: degfile, rk_name, outfile
    type(swsph_t) :: s
    real(dp), allocatable :: u(:)
    real(dp) :: m0, m1, l2(3), t
    integer :: method, step
    logical :: ok, known
    character(len=:), allocatable :: errs

    if (.not. seen(find_key('dt'))) call usage_error('missing required key "dt"')
    if (.not. seen(find_key('nsteps'))) call usage_error('missing required key "nsteps"')
    if (.not. seen(find_key('out'))) call usage_error('missing required key "out"')
    if (.not. (seen(find_key('nx')) .and. seen(find_key('ny')))) &
      call usage_error('model=shallow_water grid=latlon: give nx and ny')
    if (nx < 1 .or. ny < 1) call usage_error('bad value for key "nx" or "ny": must be >= 1')
    if (.not. (dt > 0.0_dp) .or. nsteps < 0) call usage_error('bad value for key "dt" or "nsteps"')
    s%n1 = nx
    s%n2 = ny
    s%kase = sws_lake
    if (sph_case /= 0) s%kase = sph_case
    if (sw%kase /= swc_lake) call usage_error('key "case": lake_at_rest, williamson2 or williamson5 on the sphere')
    if (seen(find_key('a'))) s%a = a
    if (seen(find_key('omega'))) s%omega = omega
    s%alpha = alpha
    s%g = sw%g
    if (seen(find_key('depth'))) then
      s%depth = sw%depth
    else if (s%kase == sws_w2) then
      s%depth = 2.94e4_dp / s%g
    end if
    if (seen(find_key('bump0'))) s%bump(1) = sw%bump(1)
    if (seen(find_key('bumpw'))) s%bump(2) = sw%bump(2)
    s%hump = sw%hump
    if (.not. (s%a > 0.0_dp) .or. .not. (s%g > 0.0_dp) .or. .not. (s%depth > 0.0_dp)) &
      call usage_error('keys "a", "gravity", "depth": must be > 0')
    call degrees_and_q(seen, nx, ny, deg_uniform, degfile, iq, s%deg, s%q)
    method = swsrk_lsrk4 ! the default here
    if (seen(find_key('rk')) .and. rk_name == 'euler') method = swsrk_euler
    if (seen(find_key('rk')) .and. rk_name /= 'euler' .and. rk_name /= 'lsrk4') &
      call usage_error('bad value "' // rk_name // '" for key "rk" (grid=latlon: euler or lsrk4)')

    call swsph_setup(s, ok)
    if (.not. ok) call fail('a weighted mass matrix is not positive definite', 1)
    allocate(u(s%ndof))
    call swsph_project(s, u)
    m0 = swsph_mass(s, u, 0)
    do step = 1, nsteps
      call swsph_step(s, method, dt, u)
    end do
    t = real(nsteps, dp) * dt
    m1 = swsph_mass(s, u, 0)
    call swsph_errors(s, u, l2, known)

    call write_modal3(outfile, 'shallow water on the sphere, radius ' // ftoa(s%a), s%n1, s%n2, &
                      [0.0_dp, 2.0_dp * pi, -0.5_dp * pi, 0.5_dp * pi], s%q, t, nsteps, 'shallow_water', &
                      s%deg, s%off, u)
    errs = ''
    if (known) errs = ' l2_error=' // ftoa(sqrt(sum(l2**2))) // ' l2_error_eta=' // ftoa(l2(1))
    write(output_unit, '(a)') 'dgref: dofs=' // itoa(s%ndof) // ' steps=' // itoa(nsteps) // &
      ' K=' // itoa(s%kint) // errs // ' mass_eta=' // ftoa(m1) // ' mass_eta_initial=' // ftoa(m0)
  end subroutine run_swsph


end module dgref_swrun
