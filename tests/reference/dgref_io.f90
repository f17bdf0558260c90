! dgref_io: dgref's command line and files: the keys, strict number parsing,
! the degree-map reader, the text writer for three variables, and the exits
! (README.md, "Command line").  Input errors print one line on stderr and exit
! with status 2; an output file that cannot be opened, status 1.
module dgref_io
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit, iostat_end, iostat_eor
  use, intrinsic :: iso_c_binding, only: c_int
  use dgref_basis, only: dp
  implicit none
  private

  interface
    subroutine c_exit(status) bind(c, name='exit')
      import :: c_int
      integer(c_int), value :: status
    end subroutine c_exit
  end interface

  ! limits that keep a typo from allocating the machine away
  integer, parameter :: max_degree = 30, max_q = 64

  integer, parameter :: nkeys = 51
  character(len=8), parameter :: keys(nkeys) = [character(len=8) :: &
    'nx', 'ny', 'x0', 'x1', 'y0', 'y1', 'q', 'deg', 'degfile', 'vel', &
    'bx', 'by', 'omega', 'cx', 'cy', 'init', 'bcx', 'bcy', 'radius', 'height', &
    'value', 'rk', 'dt', 'nsteps', 'out', 'pts', 'help', &
    'grid', 'a', 'u0', 'alpha', 'lc', 'tc', 'wind', 'tdef', 'tend', 'cfl', &
    'model', 'case', 'equation', 'gravity', 'depth', 'amp', 'wavex', 'wavey', 'bump0', 'bumpw', &
    'f0', 'beta', 'drift', 'hump']

  public :: max_degree, max_q, nkeys, keys, c_exit
  public :: fail, usage_error, get_arg, find_key, itoa, ftoa, parse_int, parse_real, read_degfile, &
            open_out, write_modal3, degrees_and_q, box_checks, rk_method

contains

  subroutine fail(msg, status)
    character(len=*), intent(in) :: msg
    integer, intent(in) :: status
    flush(output_unit)
    write(error_unit, '(a)') 'dgref: ' // msg
    flush(error_unit)
    call c_exit(int(status, c_int))
  end subroutine fail

  subroutine usage_error(msg)
    character(len=*), intent(in) :: msg
    call fail(msg, 2)
  end subroutine usage_error


  subroutine get_arg(n, a)
    integer, intent(in) :: n
    character(len=:), allocatable, intent(out) :: a
    integer :: l
    call get_command_argument(n, length=l)
    allocate(character(len=l) :: a)
    if (l > 0) call get_command_argument(n, value=a)
  end subroutine get_arg

  integer function find_key(k)
    character(len=*), intent(in) :: k
    integer :: m
    find_key = 0
    if (len(k) > len(keys(1))) return
    do m = 1, nkeys
      if (trim(keys(m)) == k) then
        find_key = m
        return
      end if
    end do
  end function find_key

  function itoa(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=24) :: buf
    write(buf, '(i0)') i
    s = trim(buf)
  end function itoa

  ! 17 significant digits, round-trips a double
  function ftoa(v) result(s)
    real(dp), intent(in) :: v
    character(len=:), allocatable :: s
    character(len=32) :: buf
    write(buf, '(es25.16e3)') v
    s = trim(adjustl(buf))
  end function ftoa

  ! Strict integer: optional sign then digits.
  logical function is_int_text(s)
    character(len=*), intent(in) :: s
    integer :: m, first
    is_int_text = .false.
    if (len(s) == 0) return
    first = 1
    if (s(1:1) == '+' .or. s(1:1) == '-') first = 2
    if (first > len(s)) return
    do m = first, len(s)
      if (index('0123456789', s(m:m)) == 0) return
    end do
    is_int_text = .true.
  end function is_int_text

  ! Strict real: [sign] digits [. digits] [(e|E|d|D) [sign] digits], with at
  ! least one mantissa digit (".5" and "5." are accepted).
  logical function is_real_text(s)
    character(len=*), intent(in) :: s
    integer :: m, nd
    is_real_text = .false.
    m = 1
    if (m <= len(s)) then
      if (s(m:m) == '+' .or. s(m:m) == '-') m = m + 1
    end if
    nd = 0
    do while (m <= len(s))
      if (index('0123456789', s(m:m)) == 0) exit
      nd = nd + 1
      m = m + 1
    end do
    if (m <= len(s)) then
      if (s(m:m) == '.') then
        m = m + 1
        do while (m <= len(s))
          if (index('0123456789', s(m:m)) == 0) exit
          nd = nd + 1
          m = m + 1
        end do
      end if
    end if
    if (nd == 0) return
    if (m <= len(s)) then
      if (index('eEdD', s(m:m)) == 0) return
      if (.not. is_int_text(s(m + 1:))) return
    end if
    is_real_text = .true.
  end function is_real_text

  integer function parse_int(k, s)
    character(len=*), intent(in) :: k, s
    integer :: ios
    parse_int = 0
    if (.not. is_int_text(s)) call usage_error('bad value "' // s // '" for key "' // k // '": not an integer')
    read(s, *, iostat=ios) parse_int
    if (ios /= 0) call usage_error('bad value "' // s // '" for key "' // k // '": integer out of range')
  end function parse_int

  real(dp) function parse_real(k, s)
    character(len=*), intent(in) :: k, s
    integer :: ios
    parse_real = 0.0_dp
    if (.not. is_real_text(s)) call usage_error('bad value "' // s // '" for key "' // k // '": not a number')
    read(s, *, iostat=ios) parse_real
    if (ios /= 0 .or. .not. (abs(parse_real) <= huge(parse_real))) &
      call usage_error('bad value "' // s // '" for key "' // k // '": number out of range')
  end function parse_real

  ! One record of any length; ios = 0 on success, iostat_end at end of file.
  subroutine read_line(unit, line, ios)
    integer, intent(in) :: unit
    character(len=:), allocatable, intent(out) :: line
    integer, intent(out) :: ios
    character(len=256) :: buf
    integer :: sz
    line = ''
    do
      read(unit, '(a)', advance='no', iostat=ios, size=sz) buf
      line = line // buf(1:sz)
      if (ios == iostat_eor) then
        ios = 0
        return
      end if
      if (ios == iostat_end .and. len(line) > 0) then
        ios = 0   ! last line without a newline
        return
      end if
      if (ios /= 0) return
    end do
  end subroutine read_line

  ! Degree map: ny data lines of nx integers, the first data line is row j=0.
  ! Blank lines and lines starting with '#' are skipped.
  subroutine read_degfile(path, nx, ny, deg)
    character(len=*), intent(in) :: path
    integer, intent(in) :: nx, ny
    integer, intent(out) :: deg(0:)
    character(len=:), allocatable :: line, tok, ctx
    integer :: unit, ios, lineno, row, col, m, t0, ival
    logical :: is_ws

    ctx = ''   ! set per line below; initialised for gfortran -O1's flow analysis
    open(newunit=unit, file=path, status='old', action='read', iostat=ios)
    if (ios /= 0) call usage_error('degfile "' // path // '": cannot open')
    lineno = 0
    row = 0
    do
      call read_line(unit, line, ios)
      if (ios == iostat_end) exit
      if (ios /= 0) call usage_error('degfile "' // path // '": read error after line ' // itoa(lineno))
      lineno = lineno + 1
      ctx = 'degfile "' // path // '" line ' // itoa(lineno) // ': '
      if (len_trim(blank_ws(line)) == 0) cycle
      if (index(adjustl(blank_ws(line)), '#') == 1) cycle
      if (row >= ny) call usage_error(ctx // 'more than ny=' // itoa(ny) // ' rows')
      col = 0
      m = 1
      do while (m <= len(line))
        is_ws = is_space(line(m:m))
        if (is_ws) then
          m = m + 1
          cycle
        end if
        t0 = m
        do while (m <= len(line))
          if (is_space(line(m:m))) exit
          m = m + 1
        end do
        tok = line(t0:m - 1)
        if (.not. is_int_text(tok)) call usage_error(ctx // 'bad entry "' // tok // '"')
        read(tok, *, iostat=ios) ival
        if (ios /= 0) call usage_error(ctx // 'bad entry "' // tok // '"')
        if (ival < 0 .or. ival > max_degree) &
          call usage_error(ctx // 'degree ' // tok // ' not in 0..' // itoa(max_degree))
        if (col >= nx) call usage_error(ctx // 'more than nx=' // itoa(nx) // ' entries')
        deg(col + nx * row) = ival
        col = col + 1
      end do
      if (col /= nx) call usage_error(ctx // itoa(col) // ' entries, expected nx=' // itoa(nx))
      row = row + 1
    end do
    close(unit)
    if (row /= ny) call usage_error('degfile "' // path // '": ' // itoa(row) // &
                                    ' rows, expected ny=' // itoa(ny))
  end subroutine read_degfile

  logical function is_space(c)
    character(len=1), intent(in) :: c
    is_space = c == ' ' .or. c == achar(9) .or. c == achar(13)
  end function is_space

  ! the line with tabs and carriage returns turned into blanks
  function blank_ws(s) result(r)
    character(len=*), intent(in) :: s
    character(len=len(s)) :: r
    integer :: m
    r = s
    do m = 1, len(s)
      if (is_space(s(m:m))) r(m:m) = ' '
    end do
  end function blank_ws


  subroutine open_out(path, unit)
    character(len=*), intent(in) :: path
    integer, intent(out) :: unit
    integer :: ios
    open(newunit=unit, file=path, status='replace', action='write', iostat=ios)
    if (ios /= 0) call fail('cannot open "' // path // '" for writing', 1)
  end subroutine open_out


  ! The modal text format for three variables per element (the shallow water's).
  subroutine write_modal3(path, what, nx, ny, box, q, t, nsteps, model, deg, off, u)
    character(len=*), intent(in) :: path, what, model
    integer, intent(in) :: nx, ny, q, nsteps, deg(0:), off(0:)
    real(dp), intent(in) :: box(4), t, u(:)
    integer :: unit, e, m, r

    call open_out(path, unit)
    write(unit, '(a)') 'dgrid-text 1'
    write(unit, '(a)') '# written by dgref, the Fortran reference solver: ' // what
    write(unit, '(a)') 'dim 2'
    write(unit, '(a)') 'cells ' // itoa(nx) // ' ' // itoa(ny)
    write(unit, '(a)') 'box ' // ftoa(box(1)) // ' ' // ftoa(box(2)) // ' ' // ftoa(box(3)) // ' ' // ftoa(box(4))
    write(unit, '(a)') 'nvar 3'
    write(unit, '(a)') 'q ' // itoa(q)
    write(unit, '(a)') 'time ' // ftoa(t)
    write(unit, '(a)') 'step ' // itoa(nsteps)
    write(unit, '(a)') 'model ' // model
    write(unit, '(a)') 'elements ' // itoa(nx * ny)
    do e = 0, nx * ny - 1
      r = deg(e)
      write(unit, '(a)') 'e ' // itoa(mod(e, nx)) // ' ' // itoa(e / nx) // ' ' // itoa(r)
      do m = 1, 3 * (r + 1)**2
        write(unit, '(a)') ftoa(u(off(e) + m))
      end do
    end do
    close(unit)
  end subroutine write_modal3


  ! The degree map (keys "deg" or "degfile", not both) of nx x ny elements and
  ! q (key "q", max degree + 1 <= q <= max_q; default max degree + 1).
  subroutine degrees_and_q(seen, nx, ny, deg_uniform, degfile, iq, deg, q)
    logical, intent(in) :: seen(:)
    integer, intent(in) :: nx, ny, deg_uniform, iq
    character(len=*), intent(in) :: degfile
    integer, allocatable, intent(out) :: deg(:)
    integer, intent(out) :: q
    if (seen(find_key('deg')) .and. seen(find_key('degfile'))) &
      call usage_error('keys "deg" and "degfile" are mutually exclusive')
    allocate(deg(0:nx * ny - 1))
    if (seen(find_key('degfile'))) then
      call read_degfile(degfile, nx, ny, deg)
    else
      if (deg_uniform < 0 .or. deg_uniform > max_degree) &
        call usage_error('bad value for key "deg": must be in 0..' // itoa(max_degree))
      deg = deg_uniform
    end if
    q = maxval(deg) + 1
    if (seen(find_key('q'))) then
      if (iq < q) call usage_error('bad value for key "q": must be >= max degree + 1 = ' // itoa(q))
      if (iq > max_q) call usage_error('bad value for key "q": must be <= ' // itoa(max_q))
      q = iq
    end if
  end subroutine degrees_and_q

  ! The keys every run on the box needs: dt, nsteps and out given, nx, ny >= 1,
  ! a box of positive size, dt > 0, nsteps >= 0.
  subroutine box_checks(seen, nx, ny, x0, x1, y0, y1, dt, nsteps)
    logical, intent(in) :: seen(:)
    integer, intent(in) :: nx, ny, nsteps
    real(dp), intent(in) :: x0, x1, y0, y1, dt
    if (.not. seen(find_key('dt'))) call usage_error('missing required key "dt"')
    if (.not. seen(find_key('nsteps'))) call usage_error('missing required key "nsteps"')
    if (.not. seen(find_key('out'))) call usage_error('missing required key "out"')
    if (nx < 1) call usage_error('bad value for key "nx": must be >= 1')
    if (ny < 1) call usage_error('bad value for key "ny": must be >= 1')
    if (.not. (x1 > x0)) call usage_error('bad box: need x1 > x0')
    if (.not. (y1 > y0)) call usage_error('bad box: need y1 > y0')
    if (.not. (dt > 0.0_dp)) call usage_error('bad value for key "dt": must be > 0')
    if (nsteps < 0) call usage_error('bad value for key "nsteps": must be >= 0')
  end subroutine box_checks

  ! The integrator's number for the sphere and the shallow water (their
  ! constants: 1 euler, 2 ssprk2, 3 ssprk3, 4 rk4, 5 lsrk4).
  integer function rk_method(name)
    character(len=*), intent(in) :: name
    character(len=6), parameter :: names(5) = [character(len=6) :: 'euler', 'ssprk2', 'ssprk3', 'rk4', 'lsrk4']
    integer :: m
    do m = 1, 5
      if (trim(names(m)) == name) then
        rk_method = m
        return
      end if
    end do
    rk_method = 0
    call usage_error('bad value "' // name // '" for key "rk" (euler, ssprk2, ssprk3, rk4 or lsrk4)')
  end function rk_method

end module dgref_io
