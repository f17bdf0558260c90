/* dg_model.c - run-time choice of a model of the build and its parameters
 * (dg_model.h). */
#include "dg_model.h"

#include "dg_arg.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_model_internal.h"
#include "dg_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dg_model_list(char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < dg_nmodels && n < cap; ++i)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", dg_models[i]->name);
}

/* The descriptor against its device part's layout macros ({DG_NVAR,
 * DG_MODEL_NAUX, DG_MODEL_NAUX_FACE}, models/dg_model_layout.h): the host
 * lays out and fills what the stages read. */
static int check_layout(const dg_model_desc *desc, const int *layout, const char *header) {
  const int face = desc->naux_face > 0 ? desc->naux_face : desc->naux;
  if (layout && layout[0] > 0 &&
      (desc->nvar != layout[0] || desc->naux != layout[1] || face != layout[2]))
    return dg_error(DG_ERR_ARG,
                    "model %s (%s): its descriptor says nvar %d, naux %d, naux_face %d where its "
                    "device part has DG_NVAR %d, DG_MODEL_NAUX %d, DG_MODEL_NAUX_FACE %d (write "
                    "those macros in the descriptor: docs/MODELS.md)",
                    desc->name, header, desc->nvar, desc->naux, face, layout[0], layout[1],
                    layout[2]);
  return 0;
}

/* A model object for desc, its device part in `header` (layout: its
 * macros, NULL where unknown). */
static int model_new(dg_model **out, const dg_model_desc *desc, int id, const char *header,
                     const int *layout) {
  if (desc->nparam > DG_MODEL_MAX_PARAMS || desc->device_size > sizeof(dg_model_block) ||
      desc->nvar < 1 || !desc->name)
    return dg_error(DG_ERR_ARG,
                    "model %s: %d parameters (at most %d), %zu bytes of stage "
                    "parameters (at most %zu), nvar %d",
                    desc->name ? desc->name : header, desc->nparam, DG_MODEL_MAX_PARAMS,
                    desc->device_size, sizeof(dg_model_block), desc->nvar);
  DG_CALL(check_layout(desc, layout, header));
  dg_model *m = calloc(1, sizeof *m);
  if (!m) return dg_error(DG_ERR_MEM, "out of memory");
  m->desc = desc;
  m->id = id;
  m->host = calloc(1, desc->host_size ? desc->host_size : 1);
  m->header = strdup(header);
  if (!m->host || !m->header) {
    free(m->host);
    free(m->header);
    free(m);
    return dg_error(DG_ERR_MEM, "out of memory");
  }
  *out = m;
  return 0;
}

int dg_model_create(dg_model **out, const char *name) {
  if (!out) return dg_error(DG_ERR_ARG, "dg_model_create: NULL handle");
  *out = NULL;
  if (!name) return dg_error(DG_ERR_ARG, "dg_model_create: NULL model name");
  int id = -1;
  for (int i = 0; i < dg_nmodels; ++i)
    if (strcmp(dg_models[i]->name, name) == 0) id = i;
  if (id < 0) {
    char list[512];
    dg_model_list(list, sizeof list);
    char esc[160];
    return dg_error(DG_ERR_ARG, "option --model: '%s' is not a model of this build (%s)",
                    dg_escape(esc, sizeof esc, name), list);
  }
  return model_new(out, dg_models[id], id, dg_model_headers[id], dg_model_layouts[id]);
}

int dg_model_from_desc(dg_model **out, const dg_model_desc *desc, const char *header,
                       const int *layout) {
  if (!out || !desc || !header) return dg_error(DG_ERR_ARG, "dg_model_from_desc: NULL argument");
  *out = NULL;
  return model_new(out, desc, -1, header, layout);
}

int dg_model_warm(const dg_backend *be, const dg_model *m, int dim, int n, const int (*rq)[2]) {
  if (!be || !m || (n > 0 && !rq)) return dg_error(DG_ERR_ARG, "dg_model_warm: NULL argument");
  if (dim < 2 || dim > 3 ||
      (!(m->desc->dims & (1 << dim)) && !(dim == 2 && (m->desc->dims & DG_MODEL_SPHERE))))
    return dg_error(DG_ERR_ARG, "model %s does not run in %d dimensions", m->desc->name, dim);
  int slot;
  DG_CALL(be->ops->model_slot(m->header, &slot));
  /* a model of the sphere: every grid and flux variant (like NULL); else
     the calls of a grid without metric terms, periodic and with walls (a
     backend may compile the boundary update apart: backends/cuda) */
  dg_stage_args plane;
  memset(&plane, 0, sizeof plane);
  plane.dim = dim;
  dg_model_stage_params(m, 0, &plane.model);
  plane.model_id = (unsigned char)slot;
  const int sphere = dim == 2 && (m->desc->dims & DG_MODEL_SPHERE);
  if (sphere) return be->ops->prepare(slot, dim, n, rq, NULL);
  DG_CALL(be->ops->prepare(slot, dim, n, rq, &plane));
  plane.bc = DG_BC_WALL; /* face 0: any boundary selects the same kernels */
  return be->ops->prepare(slot, dim, n, rq, &plane);
}

int dg_model_dims(const dg_model *m) { return m ? m->desc->dims : 0; }

void dg_model_destroy(dg_model **mp) {
  if (!mp || !*mp) return;
  dg_model *m = *mp;
  for (int i = 0; i < DG_MODEL_MAX_PARAMS; ++i) free(m->given[i]);
  free(m->host);
  free(m->header);
  free(m);
  *mp = NULL;
}

int dg_model_clone(dg_model **out, const dg_model *src) {
  DG_ARG_NONNULL("dg_model_clone", out);
  *out = NULL;
  DG_ARG_NONNULL("dg_model_clone", src);
  DG_CALL(model_new(out, src->desc, src->id, src->header, NULL));
  dg_model *m = *out;
  m->dev = src->dev;
  memcpy(m->host, src->host, src->desc->host_size);
  m->dom = src->dom;
  m->finished = src->finished;
  m->fixed_dev = src->fixed_dev;
  memcpy(m->set, src->set, sizeof m->set);
  for (int i = 0; i < DG_MODEL_MAX_PARAMS; ++i)
    if (src->given[i] && !(m->given[i] = strdup(src->given[i]))) {
      dg_model_destroy(out);
      return dg_error(DG_ERR_MEM, "out of memory");
    }
  return 0;
}

static int find_param(const dg_model *m, const char *key) {
  for (int i = 0; i < m->desc->nparam; ++i)
    if (strcmp(m->desc->params[i].name, key) == 0) return i;
  return -1;
}

int dg_model_has_param(const dg_model *m, const char *key) { return find_param(m, key) >= 0; }

int dg_model_set(dg_model *m, const char *key, const char *value) {
  DG_ARG_NONNULL("dg_model_set", m);
  DG_ARG_NONNULL("dg_model_set", key);
  DG_ARG_NONNULL("dg_model_set", value);
  const int i = find_param(m, key);
  if (i < 0)
    return dg_error(DG_ERR_ARG, "unknown option '--%s' (model %s; see --help)", key, m->desc->name);
  char *v = strdup(value);
  if (!v) return dg_error(DG_ERR_MEM, "out of memory");
  free(m->given[i]);
  m->given[i] = v;
  m->set[i] = 1;
  m->finished = 0;
  return 0;
}

/* Parse parameter i from text into its struct; `given`: the user's value
 * (exact component count), else the default (its first components). */
static int parse_param(dg_model *m, int i, const char *text, int given, int dim) {
  const dg_model_param *p = &m->desc->params[i];
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", p->name);
  char *base = p->device ? (char *)&m->dev : (char *)m->host;
  if (p->kind == DG_PARAM_WORD) {
    int idx;
    DG_CALL(dg_parse_word(opt, text, p->words, &idx));
    memcpy(base + p->offset, &idx, sizeof idx);
    return 0;
  }
  const int want = p->n > 0 ? p->n : dim;
  double v[3];
  int n = 0;
  if (p->n == 1) {
    DG_CALL(dg_parse_real(opt, text, -HUGE_VAL, HUGE_VAL, &v[0]));
    n = 1;
  } else if (p->n > 1 && given) {
    DG_CALL(dg_parse_list(opt, text, p->n, p->n, v, &n));
  } else {
    DG_CALL(dg_parse_list(opt, text, 1, 3, v, &n));
  }
  if (given && n != want) {
    if (p->n > 0) {
      char esc[160];
      return dg_error(DG_ERR_ARG, "option %s: '%s' needs %d comma-separated number%s", opt,
                      dg_escape(esc, sizeof esc, text), want, want > 1 ? "s" : "");
    }
    return dg_error(DG_ERR_ARG, "option %s: %d components given but --dim is %d", opt, n, dim);
  }
  if (n < want)
    return dg_error(DG_ERR_ARG, "model %s: default of %s has %d numbers, needs %d", m->desc->name,
                    opt, n, want);
  for (int k = 0; k < want; ++k) {
    if (p->device) {
      const dg_real r = (dg_real)v[k];
      memcpy(base + p->offset + k * sizeof r, &r, sizeof r);
    } else {
      memcpy(base + p->offset + k * sizeof v[k], &v[k], sizeof v[k]);
    }
  }
  return 0;
}

int dg_model_finish(dg_model *m, int dim, const double lo[3], const double hi[3]) {
  DG_ARG_NONNULL("dg_model_finish", m);
  DG_ARG_NONNULL("dg_model_finish", lo);
  DG_ARG_NONNULL("dg_model_finish", hi);
  dg_model_domain dom;
  memset(&dom, 0, sizeof dom);
  dom.dim = dim;
  for (int d = 0; d < 3; ++d) {
    dom.lo[d] = lo[d];
    dom.hi[d] = hi[d];
    dom.periodic[d] = 1;
  }
  return dg_model_finish_domain(m, &dom);
}

static void grid_domain(const dg_grid *g, dg_model_domain *dom) {
  memset(dom, 0, sizeof *dom);
  dom->dim = g->dim;
  for (int d = 0; d < 3; ++d) {
    dom->lo[d] = g->lo[d];
    dom->hi[d] = g->hi[d];
    dom->periodic[d] = dg_grid_periodic(g, d);
  }
  dom->latlon = g->kind == DG_GRID_LATLON;
  dom->radius = g->radius;
}

int dg_model_finish_grid(dg_model *m, const dg_grid *g) {
  DG_ARG_NONNULL("dg_model_finish_grid", m);
  DG_ARG_NONNULL("dg_model_finish_grid", g);
  dg_model_domain dom;
  grid_domain(g, &dom);
  return dg_model_finish_domain(m, &dom);
}

int dg_model_finished_for(const dg_model *m, const dg_grid *g) {
  dg_model_domain dom;
  grid_domain(g, &dom);
  return m->finished && m->dom.dim == dom.dim && m->dom.latlon == dom.latlon &&
         m->dom.radius == dom.radius && !memcmp(m->dom.periodic, dom.periodic, sizeof dom.periodic);
}

int dg_model_finish_domain(dg_model *m, const dg_model_domain *dom) {
  DG_ARG_NONNULL("dg_model_finish_domain", m);
  DG_ARG_NONNULL("dg_model_finish_domain", dom);
  const dg_model_desc *desc = m->desc;
  const int dim = dom->dim;
  if (dom->latlon && !(desc->dims & DG_MODEL_SPHERE))
    return dg_error(DG_ERR_ARG, "option --grid latlon: model %s does not run on the sphere",
                    desc->name);
  if (dim < 2 || dim > 3 || !(desc->dims >> dim & 1))
    return dg_error(DG_ERR_ARG, "model %s does not run in %dD", desc->name, dim);
  const dg_model_block fixed = m->dev;
  memset(&m->dev, 0, sizeof m->dev);
  memset(m->host, 0, desc->host_size);
  m->dom = *dom;
  for (int i = 0; i < desc->nparam; ++i) {
    if (m->given[i])
      DG_CALL(parse_param(m, i, m->given[i], 1, dim));
    else if (desc->params[i].def)
      DG_CALL(parse_param(m, i, desc->params[i].def, 0, dim));
  }
  if (m->fixed_dev) m->dev = fixed; /* the caller's, not the options' */
  if (desc->finish) {
    char msg[400] = "";
    dg_model_block scratch = m->dev;
    if (desc->finish(m->fixed_dev ? &scratch : &m->dev, m->host, &m->dom, m->set, msg, sizeof msg))
      return dg_error(DG_ERR_ARG, "%s", msg[0] ? msg : "bad model parameters");
  }
  m->finished = 1;
  return 0;
}

const char *dg_model_name(const dg_model *m) { return m->desc->name; }
const char *dg_model_file_name(const dg_model *m) {
  return m->desc->file_name ? m->desc->file_name(&m->dev) : m->desc->name;
}
int dg_model_nvar(const dg_model *m) { return m->desc->nvar; }
const char *dg_model_var_name(const dg_model *m, int v) { return m->desc->var_names[v]; }
int dg_model_linear(const dg_model *m) { return m->desc->linear(&m->dev); }
int dg_model_uses_x(const dg_model *m) { return m->desc->needs_x(&m->dev); }
int dg_model_speed_varies(const dg_model *m) { return m->desc->speed_varies(&m->dev); }
int dg_model_naux(const dg_model *m) { return m->desc->naux; }
int dg_model_naux_face(const dg_model *m) {
  return m->desc->naux_face > 0 ? m->desc->naux_face : m->desc->naux;
}
const char *dg_model_aux_name(const dg_model *m, int i) {
  return i >= 0 && i < m->desc->naux && m->desc->aux_names ? m->desc->aux_names[i] : NULL;
}
int dg_model_aux(const dg_model *m, const double x[3], double *out) {
  DG_ARG_NONNULL("dg_model_aux", m);
  DG_ARG_NONNULL("dg_model_aux", x);
  DG_ARG_NONNULL("dg_model_aux", out);
  if (!m->desc->aux)
    return dg_error(DG_ERR_ARG,
                    "model %s has no sampler for its auxiliary data: set it with "
                    "dg_disc_set_aux",
                    m->desc->name);
  m->desc->aux(&m->dev, m->host, x, out);
  return 0;
}
int dg_model_ninteg(const dg_model *m) { return m->desc->integrand ? m->desc->ninteg : 0; }
const char *dg_model_integ_name(const dg_model *m, int i) {
  return i >= 0 && i < dg_model_ninteg(m) ? m->desc->integ_names[i] : NULL;
}
void dg_model_integrand(const dg_model *m, const double x[3], const double *u, const double *du,
                        const double *aux, double *out) {
  m->desc->integrand(&m->dev, m->host, x, u, du, aux, out);
}
int dg_model_solution(const dg_model *m, const double x[3], double t, double *u) {
  return m->desc->solution(&m->dev, m->host, &m->dom, x, t, u);
}
void *dg_model_device_params(dg_model *m) { return &m->dev; }
int dg_model_bc(const dg_model *m) { return m->desc->bc; }

int dg_model_check_bc(const dg_model *m, const dg_grid *g) {
  DG_ARG_NONNULL("dg_model_check_bc", m);
  DG_ARG_NONNULL("dg_model_check_bc", g);
  if (g->kind != DG_GRID_BOX || !dg_grid_has_bc(g)) return 0;
  for (int f = 0; f < 2 * g->dim; ++f) {
    const int k = g->bc[f];
    const int need = k == DG_BC_INFLOW ? DG_MODEL_BC_INFLOW
                     : k == DG_BC_WALL ? DG_MODEL_BC_WALL
                                       : 0;
    if (need && !(m->desc->bc & need))
      return dg_error(DG_ERR_ARG, "boundary %s: model %s has no %s", dg_bc_side_name(f),
                      m->desc->name, k == DG_BC_WALL ? "wall reflection" : "inflow data");
  }
  return 0;
}
size_t dg_model_bdata_size(const dg_model *m) {
  return m->desc->bc & DG_MODEL_BC_INFLOW ? m->desc->bdata_size : 0;
}
void dg_model_bdata(const dg_model *m, void *out) {
  if (m->desc->bdata && (m->desc->bc & DG_MODEL_BC_INFLOW))
    m->desc->bdata(&m->dev, m->host, &m->dom, out);
}

void dg_model_stage_params(const dg_model *m, double t, dg_model_block *out) {
  *out = m->dev;
  if (m->desc->at_time) m->desc->at_time(out, m->host, t);
}

int dg_model_set_params(dg_model *m, const void *params, size_t size) {
  DG_ARG_NONNULL("dg_model_set_params", m);
  DG_ARG_NONNULL("dg_model_set_params", params);
  if (size != m->desc->device_size)
    return dg_error(DG_ERR_ARG, "model %s: parameters of %zu bytes, its dg_model_params has %zu",
                    m->desc->name, size, m->desc->device_size);
  memcpy(&m->dev, params, size);
  m->fixed_dev = 1;
  m->finished = 0;
  return 0;
}

void dg_model_help(FILE *f) {
  for (int i = 0; i < dg_nmodels; ++i) {
    const dg_model_desc *d = dg_models[i];
    fprintf(f, "model %s: %s\n", d->name, d->summary);
    for (int k = 0; k < d->nparam; ++k) {
      const dg_model_param *p = &d->params[k];
      char left[64];
      snprintf(left, sizeof left, "--%s %s", p->name,
               p->kind == DG_PARAM_WORD ? "WORD" : (p->n == 1 ? "X" : "X,Y[,..]"));
      fprintf(f, "  %-22s %s", left, p->help);
      if (p->def) fprintf(f, " [%s]", p->def);
      fputc('\n', f);
    }
  }
}

int dg_model_nparam(const dg_model *m) { return m->desc->nparam; }
const char *dg_model_param_name(const dg_model *m, int i) {
  return i >= 0 && i < m->desc->nparam ? m->desc->params[i].name : NULL;
}

int dg_model_param_text(const dg_model *m, int i, char *buf, size_t cap) {
  if (i < 0 || i >= m->desc->nparam)
    return dg_error(DG_ERR_ARG, "model %s has no parameter %d", m->desc->name, i);
  if (!m->finished)
    return dg_error(DG_ERR_ARG, "model %s: parameters read before dg_model_finish", m->desc->name);
  const int dim = m->dom.dim;
  const dg_model_param *p = &m->desc->params[i];
  const char *text = m->given[i] ? m->given[i] : p->def;
  const char *base = p->device ? (const char *)&m->dev : (const char *)m->host;
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", p->name);
  if (p->kind == DG_PARAM_WORD) {
    int idx;
    if (text) {
      DG_CALL(dg_parse_word(opt, text, p->words, &idx));
    } else {
      memcpy(&idx, base + p->offset, sizeof idx);
    }
    /* the idx-th word */
    const char *w = p->words;
    for (int k = 0; k < idx && w; ++k) {
      w = strchr(w, '|');
      if (w) ++w;
    }
    if (!w)
      return dg_error(DG_ERR_ARG, "model %s: option %s has no word %d", m->desc->name, opt, idx);
    const char *bar = strchr(w, '|');
    snprintf(buf, cap, "%.*s", bar ? (int)(bar - w) : (int)strlen(w), w);
    return 0;
  }
  const int want = p->n > 0 ? p->n : dim;
  double v[3];
  int n = 0;
  if (want < 1 || want > 3)
    return dg_error(DG_ERR_ARG, "model %s: option %s has %d components, at most 3", m->desc->name,
                    opt, want);
  if (text) {
    DG_CALL(dg_parse_list(opt, text, 1, 3, v, &n));
    if (n < want)
      return dg_error(DG_ERR_ARG, "model %s: option %s has %d numbers, needs %d", m->desc->name,
                      opt, n, want);
  } else {
    for (int k = 0; k < want; ++k) {
      if (p->device) {
        dg_real r;
        memcpy(&r, base + p->offset + (size_t)k * sizeof r, sizeof r);
        v[k] = (double)r;
      } else {
        memcpy(&v[k], base + p->offset + (size_t)k * sizeof v[k], sizeof v[k]);
      }
    }
  }
  dg_format_list(buf, cap, v, want);
  return 0;
}
