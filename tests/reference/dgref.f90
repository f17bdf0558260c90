! dgref: independent Fortran baseline DG solver for dgrid.
!
!   dgref key=value ...
!
! See README.md in this directory for the keys, the scheme and the output
! formats.  Input errors print one message on stderr and exit with status 2.
program dgref
  use, intrinsic :: iso_fortran_env, only: output_unit
  use, intrinsic :: iso_c_binding, only: c_int
  use dgref_basis, only: dp, pi
  use dgref_solver
  use dgref_sphere
  use dgref_sphdiag
  use dgref_sw
  use dgref_swsph
  use dgref_io
  use dgref_swrun
  implicit none

  ! Everything lives in run(), so that its allocatables are released on
  ! return and stay reachable if an input error exits from deep inside.
  call run()

contains

  subroutine run()
    type(problem_t) :: pb
    logical :: seen(nkeys)
    character(len=:), allocatable :: arg, key, val, degfile, outfile, ptsfile
    character(len=:), allocatable :: init_name, rk_name, grid_name, wind_name, model_name
    type(sw_t) :: sw
    real(dp), allocatable :: u(:)
    ! sphere keys (grid=latlon), collected here and passed on
    real(dp) :: s_a, s_u0, s_alpha, s_lc, s_tc, s_tdef, s_tend, s_cfl
    real(dp) :: dt, t, l2, linf, mass
    integer :: nargs, n, eqpos, kidx, deg_uniform, method, nsteps, step, iq, sph_case

    seen = .false.
    sph_case = 0
    deg_uniform = 1
    iq = 0
    method = rk_ssprk3
    dt = 0.0_dp
    nsteps = 0
    degfile = ''
    outfile = ''
    ptsfile = ''
    init_name = ''
    rk_name = 'ssprk3'
    grid_name = 'box'
    wind_name = 'williamson'
    model_name = 'advection'
    s_a = 0.0_dp
    s_u0 = 0.0_dp
    s_alpha = 0.0_dp
    s_lc = 0.0_dp
    s_tc = 0.0_dp
    s_tdef = 0.0_dp
    s_tend = 0.0_dp
    s_cfl = 0.0_dp
    ! values that default from the box are filled in after parsing
    pb%vel = vel_const
    pb%init = init_sine

    nargs = command_argument_count()
    if (nargs == 0) call usage_error('no arguments; try dgref help=1 or see README.md')
    do n = 1, nargs
      call get_arg(n, arg)
      eqpos = index(arg, '=')
      if (eqpos <= 1) call usage_error('argument "' // arg // '" is not of the form key=value')
      key = arg(1:eqpos - 1)
      val = arg(eqpos + 1:)
      kidx = find_key(key)
      if (kidx == 0) call usage_error('unknown key "' // key // '"')
      if (seen(kidx)) call usage_error('key "' // key // '" given more than once')
      seen(kidx) = .true.
      if (len(val) == 0) call usage_error('empty value for key "' // key // '"')
      select case (key)
      case ('help')
        call print_help()
        call c_exit(0_c_int)
      case ('nx')
        pb%nx = parse_int(key, val)
      case ('ny')
        pb%ny = parse_int(key, val)
      case ('x0')
        pb%x0 = parse_real(key, val)
      case ('x1')
        pb%x1 = parse_real(key, val)
      case ('y0')
        pb%y0 = parse_real(key, val)
      case ('y1')
        pb%y1 = parse_real(key, val)
      case ('q')
        iq = parse_int(key, val)
      case ('deg')
        deg_uniform = parse_int(key, val)
      case ('degfile')
        degfile = val
      case ('vel')
        select case (val)
        case ('const')
          pb%vel = vel_const
        case ('rot')
          pb%vel = vel_rot
        case default
          call usage_error('bad value "' // val // '" for key "vel" (const or rot)')
        end select
      case ('bx')
        pb%bx = parse_real(key, val)
      case ('by')
        pb%by = parse_real(key, val)
      case ('omega')
        pb%omega = parse_real(key, val)
      case ('cx')
        pb%cx = parse_real(key, val)
      case ('cy')
        pb%cy = parse_real(key, val)
      case ('init')
        init_name = val
      case ('bcx')
        pb%bcx = parse_real(key, val)
      case ('bcy')
        pb%bcy = parse_real(key, val)
      case ('radius')
        pb%radius = parse_real(key, val)
      case ('height')
        pb%height = parse_real(key, val)
      case ('value')
        pb%value = parse_real(key, val)
      case ('rk')
        rk_name = val
      case ('dt')
        dt = parse_real(key, val)
      case ('nsteps')
        nsteps = parse_int(key, val)
      case ('out')
        outfile = val
      case ('pts')
        ptsfile = val
      case ('grid')
        grid_name = val
        if (val /= 'box' .and. val /= 'latlon') &
          call usage_error('bad value "' // val // '" for key "grid" (box or latlon)')
      case ('a')
        s_a = parse_real(key, val)
      case ('u0')
        s_u0 = parse_real(key, val)
      case ('alpha')
        s_alpha = parse_real(key, val)
      case ('lc')
        s_lc = parse_real(key, val)
      case ('tc')
        s_tc = parse_real(key, val)
      case ('wind')
        wind_name = val
        if (val /= 'williamson' .and. val /= 'deform') &
          call usage_error('bad value "' // val // '" for key "wind" (williamson or deform)')
      case ('tdef')
        s_tdef = parse_real(key, val)
      case ('tend')
        s_tend = parse_real(key, val)
      case ('cfl')
        s_cfl = parse_real(key, val)
      ! shallow water (model=shallow_water): collected in sw, checked in run_sw
      case ('model')
        model_name = val
        if (val /= 'advection' .and. val /= 'shallow_water') &
          call usage_error('bad value "' // val // '" for key "model" (advection or shallow_water)')
      case ('case')
        select case (val)
        case ('lake_at_rest')
          sw%kase = swc_lake
        case ('gravity_wave')
          sw%kase = swc_wave
        case ('jet')
          sw%kase = swc_jet
        case ('williamson2')
          sph_case = sws_w2
        case ('williamson5')
          sph_case = sws_w5
        case default
          call usage_error('bad value "' // val // '" for key "case" (lake_at_rest, gravity_wave, jet, ' // &
                           'williamson2 or williamson5)')
        end select
      case ('equation')
        if (val /= 'linear' .and. val /= 'nonlinear') &
          call usage_error('bad value "' // val // '" for key "equation" (linear or nonlinear)')
        sw%linear = val == 'linear'
      case ('gravity')
        sw%g = parse_real(key, val)
      case ('depth')
        sw%depth = parse_real(key, val)
      case ('amp')
        sw%amp = parse_real(key, val)
      case ('wavex')
        sw%wave(1) = parse_real(key, val)
      case ('wavey')
        sw%wave(2) = parse_real(key, val)
      case ('bump0')
        sw%bump(1) = parse_real(key, val)
      case ('bumpw')
        sw%bump(2) = parse_real(key, val)
      case ('f0')
        sw%cor(1) = parse_real(key, val)
      case ('beta')
        sw%cor(2) = parse_real(key, val)
      case ('drift')
        sw%drift = parse_real(key, val)
      case ('hump')
        sw%hump = parse_real(key, val)
      end select
    end do

    if (model_name == 'shallow_water' .and. grid_name == 'latlon') then
      call run_swsph(seen, sw, sph_case, s_a, pb%omega, s_alpha, deg_uniform, degfile, iq, rk_name, dt, &
                     nsteps, pb%nx, pb%ny, outfile)
      return
    end if
    if (model_name == 'shallow_water') then
      if (sph_case /= 0) call usage_error('key "case": williamson2 and williamson5 run on grid=latlon')
      sw%nx = pb%nx
      sw%ny = pb%ny
      sw%x0 = pb%x0
      sw%x1 = pb%x1
      sw%y0 = pb%y0
      sw%y1 = pb%y1
      call run_sw(sw, seen, deg_uniform, degfile, iq, rk_name, dt, nsteps, outfile)
      return
    end if

    if (grid_name == 'latlon') then
      call run_sphere(seen, deg_uniform, degfile, iq, init_name, rk_name, wind_name, pb%value, &
                      pb%radius, pb%height, s_a, s_u0, s_alpha, s_lc, s_tc, s_tdef, s_tend, s_cfl, &
                      dt, nsteps, pb%nx, pb%ny, outfile, ptsfile)
      return
    end if

    select case (init_name)
    case ('')
      pb%init = init_sine
    case ('parabola')
      pb%init = init_parabola
    case ('bell')
      pb%init = init_bell
    case ('sine')
      pb%init = init_sine
    case ('const')
      pb%init = init_const
    case default
      call usage_error('bad value "' // init_name // '" for key "init" (parabola, bell, sine or const)')
    end select
    select case (rk_name)
    case ('euler')
      method = rk_euler
    case ('ssprk3')
      method = rk_ssprk3
    case ('rk4')
      method = rk_rk4
    case default
      call usage_error('bad value "' // rk_name // '" for key "rk" (euler, ssprk3 or rk4; ' // &
                       'ssprk2 and lsrk4 with grid=latlon)')
    end select

    ! ---- consistency checks and defaults that depend on other keys
    call box_checks(seen, pb%nx, pb%ny, pb%x0, pb%x1, pb%y0, pb%y1, dt, nsteps)
    call degrees_and_q(seen, pb%nx, pb%ny, deg_uniform, degfile, iq, pb%deg, pb%q)

    if (.not. seen(find_key('cx'))) pb%cx = 0.5_dp * (pb%x0 + pb%x1)
    if (.not. seen(find_key('cy'))) pb%cy = 0.5_dp * (pb%y0 + pb%y1)
    if (.not. seen(find_key('bcx'))) pb%bcx = 0.5_dp * (pb%x0 + pb%x1) - 0.2_dp * (pb%x1 - pb%x0)
    if (.not. seen(find_key('bcy'))) pb%bcy = 0.5_dp * (pb%y0 + pb%y1) - 0.2_dp * (pb%y1 - pb%y0)
    if (.not. seen(find_key('radius'))) pb%radius = 0.1_dp * (pb%x1 - pb%x0)
    if (.not. (pb%radius > 0.0_dp)) call usage_error('bad value for key "radius": must be > 0')

    ! ---- solve
    call setup_problem(pb)
    allocate(u(pb%ndof))
    call project_initial(pb, u)
    do step = 1, nsteps
      call time_step(pb, method, dt, u)
    end do
    t = real(nsteps, dp) * dt

    call compute_errors(pb, u, t, l2, linf)
    mass = compute_mass(pb, u)
    call write_modal(outfile, pb, u, t, nsteps)
    if (len(ptsfile) > 0) call write_points(ptsfile, pb, u)

    write(output_unit, '(a)') 'dgref: dofs=' // itoa(pb%ndof) // ' steps=' // itoa(nsteps) // &
      ' l2_error=' // ftoa(l2) // ' linf_error=' // ftoa(linf) // ' mass=' // ftoa(mass)
  end subroutine run

  ! ------------------------------------------------------------ shallow water


  ! ------------------------------------------------------------ the sphere

  ! grid=latlon: the latitude-longitude sphere (dgref_sphere; README.md,
  ! "The sphere").  Keys not named here are ignored, as for the box.
  subroutine run_sphere(seen, deg_uniform, degfile, iq, init_name, rk_name, wind_name, value, &
                        radius, height, a, u0, alpha, lc, tc, tdef, tend, cfl, dt_in, nsteps_in, &
                        nx, ny, outfile, ptsfile)
    logical, intent(in) :: seen(:)
    integer, intent(in) :: deg_uniform, iq, nsteps_in, nx, ny
    character(len=*), intent(in) :: degfile, init_name, rk_name, wind_name, outfile, ptsfile
    real(dp), intent(in) :: value, radius, height, a, u0, alpha, lc, tc, tdef, tend, cfl, dt_in
    type(sphere_t) :: sp
    real(dp), allocatable :: u(:)
    real(dp) :: dt, t, l1, l2, linf, mass, mass0, rate, pole, drel
    integer :: method, nsteps, step
    logical :: ok, has_dt, has_n, has_tend, has_cfl

    ! ---- grid: n1 = 2 n2 unless both are given
    if (seen(find_key('nx')) .and. seen(find_key('ny'))) then
      sp%n1 = nx
      sp%n2 = ny
    else if (seen(find_key('nx'))) then
      if (mod(nx, 2) /= 0) call usage_error('grid=latlon: nx=' // itoa(nx) // ' is odd; give ny as well')
      sp%n1 = nx
      sp%n2 = nx / 2
    else if (seen(find_key('ny'))) then
      sp%n1 = 2 * ny
      sp%n2 = ny
    end if
    if (sp%n1 < 1) call usage_error('bad value for key "nx": must be >= 1')
    if (sp%n2 < 1) call usage_error('bad value for key "ny": must be >= 1')
    call degrees_and_q(seen, sp%n1, sp%n2, deg_uniform, degfile, iq, sp%deg, sp%q)

    ! ---- sphere, wind, initial data
    if (seen(find_key('a'))) then
      if (.not. (a > 0.0_dp)) call usage_error('bad value for key "a": must be > 0')
      sp%a = a
    end if
    sp%u0 = 2.0_dp * pi * sp%a / (12.0_dp * seconds_per_day)
    if (seen(find_key('u0'))) sp%u0 = u0
    if (seen(find_key('alpha'))) sp%alpha = alpha
    sp%wind = wind_williamson
    if (wind_name == 'deform') sp%wind = wind_deform
    if (seen(find_key('tdef'))) then
      if (.not. (tdef > 0.0_dp)) call usage_error('bad value for key "tdef": must be > 0')
      sp%tdef = tdef
    end if
    select case (init_name)
    case ('', 'hill')
      sp%init = sinit_hill
    case ('bell')
      sp%init = sinit_bell
    case ('hills2')
      sp%init = sinit_hills2
    case ('const')
      sp%init = sinit_const
    case default
      call usage_error('bad value "' // init_name // '" for key "init" with grid=latlon ' // &
                       '(hill, bell, hills2 or const)')
    end select
    if (seen(find_key('lc'))) sp%lc = lc
    if (seen(find_key('tc'))) sp%tc = tc
    if (seen(find_key('height'))) sp%h0 = height
    if (seen(find_key('value'))) sp%value = value
    sp%rbell = sp%a / 3.0_dp
    if (seen(find_key('radius'))) then
      if (.not. (radius > 0.0_dp)) call usage_error('bad value for key "radius": must be > 0')
      sp%rbell = radius
    end if
    method = rk_method(rk_name) ! the constants srk_* and swrk_* are 1..5 in this order
    if (len(outfile) == 0) call usage_error('missing required key "out"')

    call sphere_setup(sp, ok)
    if (.not. ok) call usage_error('grid=latlon: a weighted mass matrix is not positive definite')

    ! ---- the step: dt and nsteps, tend and nsteps, or tend and cfl
    has_dt = seen(find_key('dt'))
    has_n = seen(find_key('nsteps'))
    has_tend = seen(find_key('tend'))
    has_cfl = seen(find_key('cfl'))
    if (has_dt .and. (has_tend .or. has_cfl)) &
      call usage_error('give dt and nsteps, or tend with nsteps or cfl (not dt together with tend or cfl)')
    if (has_n .and. has_cfl) call usage_error('keys "nsteps" and "cfl" are mutually exclusive')
    if (has_n .and. nsteps_in < 0) call usage_error('bad value for key "nsteps": must be >= 0')
    rate = sphere_rate(sp, 0.0_dp)
    if (has_dt) then
      if (.not. has_n) call usage_error('missing required key "nsteps"')
      if (.not. (dt_in > 0.0_dp)) call usage_error('bad value for key "dt": must be > 0')
      dt = dt_in
      nsteps = nsteps_in
    else if (has_tend) then
      if (.not. (tend > 0.0_dp)) call usage_error('bad value for key "tend": must be > 0')
      if (has_n) then
        if (nsteps_in < 1) call usage_error('bad value for key "nsteps": must be >= 1 with tend')
        nsteps = nsteps_in
      else if (has_cfl) then
        if (.not. (cfl > 0.0_dp)) call usage_error('bad value for key "cfl": must be > 0')
        if (.not. (rate > 0.0_dp)) call usage_error('key "cfl": the wind is zero everywhere, give nsteps')
        if (tend * rate / cfl > 1.0e9_dp) call usage_error('key "cfl": more than 1e9 steps')
        nsteps = max(1, ceiling(tend * rate / cfl))
      else
        call usage_error('key "tend" needs "nsteps" or "cfl"')
      end if
      dt = tend / real(nsteps, dp)
    else
      call usage_error('missing required key "dt" (or "tend")')
    end if

    ! ---- solve
    allocate(u(sp%ndof))
    call sphere_project(sp, u)
    mass0 = sphere_mass(sp, u)
    do step = 1, nsteps
      call sphere_step(sp, method, real(step - 1, dp) * dt, dt, u)
    end do
    t = real(nsteps, dp) * dt

    call sphere_errors(sp, u, t, l1, l2, linf)
    mass = sphere_mass(sp, u)
    drel = 0.0_dp
    if (abs(mass0) > 0.0_dp) drel = (mass - mass0) / abs(mass0)
    pole = sphere_pole_balance(sp, u, t)
    call write_modal_sphere(outfile, sp, u, t, nsteps)
    if (len(ptsfile) > 0) call write_points_sphere(ptsfile, sp, u)

    write(output_unit, '(a)') 'dgref: dofs=' // itoa(sp%ndof) // ' steps=' // itoa(nsteps) // &
      ' dt=' // ftoa(dt) // ' l1_error=' // ftoa(l1) // ' l2_error=' // ftoa(l2) // &
      ' linf_error=' // ftoa(linf) // ' mass=' // ftoa(mass) // ' mass_initial=' // ftoa(mass0) // &
      ' mass_rel_change=' // ftoa(drel) // ' pole_balance=' // ftoa(pole) // ' cfl_rate=' // ftoa(rate)
  end subroutine run_sphere

  subroutine write_modal_sphere(path, sp, u, t, nsteps)
    character(len=*), intent(in) :: path
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:), t
    integer, intent(in) :: nsteps
    integer :: unit, e, m, r

    call open_out(path, unit)
    write(unit, '(a)') 'dgrid-text 1'
    write(unit, '(a)') '# written by dgref, the Fortran reference solver: latitude-longitude sphere,'
    write(unit, '(a)') '# x = longitude, y = latitude (radians), radius ' // ftoa(sp%a)
    write(unit, '(a)') 'dim 2'
    write(unit, '(a)') 'cells ' // itoa(sp%n1) // ' ' // itoa(sp%n2)
    write(unit, '(a)') 'box ' // ftoa(0.0_dp) // ' ' // ftoa(2.0_dp * pi) // ' ' // ftoa(-0.5_dp * pi) // &
      ' ' // ftoa(0.5_dp * pi)
    write(unit, '(a)') 'nvar 1'
    write(unit, '(a)') 'q ' // itoa(sp%q)
    write(unit, '(a)') 'time ' // ftoa(t)
    write(unit, '(a)') 'step ' // itoa(nsteps)
    if (sp%wind == wind_deform) then
      write(unit, '(a)') 'model sphere-nair-lauritzen'
    else
      write(unit, '(a)') 'model sphere-williamson'
    end if
    write(unit, '(a)') 'elements ' // itoa(sp%nelem)
    do e = 0, sp%nelem - 1
      r = sp%deg(e)
      write(unit, '(a)') 'e ' // itoa(mod(e, sp%n1)) // ' ' // itoa(e / sp%n1) // ' ' // itoa(r)
      do m = 1, (r + 1)**2
        write(unit, '(a)') ftoa(u(sp%off(e) + m))
      end do
    end do
    close(unit)
  end subroutine write_modal_sphere

  subroutine write_points_sphere(path, sp, u)
    character(len=*), intent(in) :: path
    type(sphere_t), intent(in) :: sp
    real(dp), intent(in) :: u(:)
    integer :: unit, e, p, k
    real(dp) :: lam, th

    call open_out(path, unit)
    write(unit, '(a)') '# longitude latitude h at the Q x Q Gauss points of each element, elements i fastest'
    do e = 0, sp%nelem - 1
      do k = 1, sp%q
        do p = 1, sp%q
          call sphere_point(sp, mod(e, sp%n1), e / sp%n1, sp%xq(p), sp%xq(k), lam, th)
          write(unit, '(a)') ftoa(lam) // ' ' // ftoa(th) // ' ' // &
            ftoa(sphere_eval(sp, u, e, sp%xq(p), sp%xq(k)))
        end do
      end do
    end do
    close(unit)
  end subroutine write_points_sphere

  ! ------------------------------------------------------------ messages

  subroutine print_help()
    write(output_unit, '(a)') 'usage: dgref key=value ...'
    write(output_unit, '(a)') '  nx ny x0 x1 y0 y1 q deg|degfile=PATH vel=const|rot bx by omega cx cy'
    write(output_unit, '(a)') '  init=parabola|bell|sine|const bcx bcy radius height value'
    write(output_unit, '(a)') '  rk=euler|ssprk3|rk4 dt=DT nsteps=N out=PATH [pts=PATH]'
    write(output_unit, '(a)') 'dt, nsteps and out are required; see tests/reference/README.md'
    write(output_unit, '(a)') 'sphere: grid=latlon nx ny deg|degfile q a u0 alpha wind=williamson|deform tdef'
    write(output_unit, '(a)') '  init=hill|bell|hills2|const lc tc radius height value'
    write(output_unit, '(a)') '  rk=euler|ssprk2|ssprk3|rk4|lsrk4 dt+nsteps | tend+nsteps | tend+cfl out=PATH [pts=PATH]'
    write(output_unit, '(a)') 'shallow water (periodic box): model=shallow_water case=lake_at_rest|gravity_wave|jet'
    write(output_unit, '(a)') '  equation=linear|nonlinear gravity depth amp wavex wavey bump0 bumpw f0 beta drift hump'
    write(output_unit, '(a)') '  nx ny x0 x1 y0 y1 deg|degfile q rk=euler|ssprk2|ssprk3|rk4|lsrk4 dt nsteps out=PATH'
    write(output_unit, '(a)') 'shallow water (sphere): model=shallow_water grid=latlon case=lake_at_rest|williamson2|williamson5'
    write(output_unit, '(a)') '  nx ny deg|degfile q a omega alpha gravity depth bump0 bumpw hump rk=euler|lsrk4 dt nsteps out=PATH'
  end subroutine print_help

  ! ------------------------------------------------------------ helpers

  ! ------------------------------------------------------------ output

  subroutine write_modal(path, pb, u, t, nsteps)
    character(len=*), intent(in) :: path
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:), t
    integer, intent(in) :: nsteps
    integer :: unit, e, m, r

    call open_out(path, unit)
    write(unit, '(a)') 'dgrid-text 1'
    write(unit, '(a)') '# written by dgref, the Fortran reference solver'
    write(unit, '(a)') 'dim 2'
    write(unit, '(a)') 'cells ' // itoa(pb%nx) // ' ' // itoa(pb%ny)
    write(unit, '(a)') 'box ' // ftoa(pb%x0) // ' ' // ftoa(pb%x1) // ' ' // ftoa(pb%y0) // ' ' // ftoa(pb%y1)
    write(unit, '(a)') 'nvar 1'
    write(unit, '(a)') 'q ' // itoa(pb%q)
    write(unit, '(a)') 'time ' // ftoa(t)
    write(unit, '(a)') 'step ' // itoa(nsteps)
    if (pb%vel == vel_rot) then
      write(unit, '(a)') 'model advection-rotation'
    else
      write(unit, '(a)') 'model advection-constant'
    end if
    write(unit, '(a)') 'elements ' // itoa(pb%nelem)
    do e = 0, pb%nelem - 1
      r = pb%deg(e)
      write(unit, '(a)') 'e ' // itoa(mod(e, pb%nx)) // ' ' // itoa(e / pb%nx) // ' ' // itoa(r)
      do m = 1, (r + 1)**2
        write(unit, '(a)') ftoa(u(pb%off(e) + m))
      end do
    end do
    close(unit)
  end subroutine write_modal

  subroutine write_points(path, pb, u)
    character(len=*), intent(in) :: path
    type(problem_t), intent(in) :: pb
    real(dp), intent(in) :: u(:)
    integer :: unit, e, p, k
    real(dp) :: xc, yc, x, y

    call open_out(path, unit)
    write(unit, '(a)') '# x y u at the Q x Q Gauss points of each element, elements i fastest'
    do e = 0, pb%nelem - 1
      call element_centre(pb, mod(e, pb%nx), e / pb%nx, xc, yc)
      do k = 1, pb%q
        do p = 1, pb%q
          x = xc + 0.5_dp * pb%hx * pb%xq(p)
          y = yc + 0.5_dp * pb%hy * pb%xq(k)
          write(unit, '(a)') ftoa(x) // ' ' // ftoa(y) // ' ' // &
            ftoa(eval_element(pb, u, e, pb%xq(p), pb%xq(k)))
        end do
      end do
    end do
    close(unit)
  end subroutine write_points

end program dgref
