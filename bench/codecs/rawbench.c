/*
 * Why one file of about 1,500 lines: a standalone prototype, built by one
 * compiler command with no build system (its README.md) and run once per
 * study; its tests (part 1) and timings (part 2) share the stream helpers,
 * and it is not product code (issue 31 asks the reason of files above ~700
 * lines to be written at their top).
 *
 * rawbench.c -- preliminary prototype + microbenchmark: can InnoDB's
 * ROW_FORMAT=COMPRESSED page (de)compression use Intel ISA-L (igzip) and
 * libdeflate while the on-disk stream stays readable by stock zlib?
 *
 * InnoDB (page0zip.cc / zipdecompress.cc) compresses one 16 KB page into ONE
 * zlib stream:
 *   deflateInit2(level, Z_DEFLATED, windowBits 14, memLevel 9, default);
 *   deflate(field list, Z_FULL_FLUSH);            first deflate block(s)
 *   deflate(piece, Z_NO_FLUSH) x many;            record bodies, a few bytes to a few hundred
 *   deflate(last piece, Z_FINISH);
 * and decompresses it with
 *   inflateInit2(14); inflate(Z_BLOCK) x 2;       -> field list complete in the output
 *   inflate(piece, Z_SYNC_FLUSH) x many;          exact output sizes
 *   inflate(Z_FINISH) == Z_STREAM_END;            next_in = byte after the adler32
 *                                                 (the modification log follows)
 *
 * Part 1 (tests, PASS/FAIL):
 *   Q1  ISA-L stateful isal_deflate (fields FULL_FLUSH, then the gathered rest
 *       with end_of_stream=1) produces streams that stock zlib decodes with the
 *       staged pattern above; how "output buffer too small" shows up.
 *   Q2  After zlib has decoded the header and the field block, the rest can be
 *       decoded as RAW deflate in one call by libdeflate or ISA-L; where the
 *       stream ends (adler32 trailer), where zlib's next_in is relative to the
 *       empty stored block emitted by the full flush.
 * Part 2 (timing): CPU time per 16 KB page, best of 5 trials, on synthetic
 *   TPC-C stock rows, TPC-C order_line rows, English text and random bytes.
 *
 * Build: see build.sh (gcc -O2 rawbench.c -lisal -ldeflate -lz).
 * Usage: ./rawbench [-t] [-v] [-r PAGES] [-k TRIALS]
 *   -t  tests only            -v  tests print details of mismatches
 *   -r  pages per timing trial (default 2000)
 *   -k  timing trials, the best counts (default 5)
 *   -i / -I  only the setup-cost table (default malloc / fixed mmap threshold);
 *       a full run re-executes itself with these, to measure in a fresh process
 */
#define _GNU_SOURCE
#include <glob.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <isa-l/igzip_lib.h> /* or <isa-l.h>, which includes it */
#include <libdeflate.h>
#include <zlib.h>

/* ------------------------------------------------------------------------ */
/* Constants                                                                */
/* ------------------------------------------------------------------------ */

enum {
  PAGE = 16384,      /* UNIV_PAGE_SIZE */
  IMAGE_MAX = 16000, /* bytes of a synthetic page image used by records */
  NP = 16,           /* distinct pages per content kind (cycled in timing) */
  OUTCAP = 24576,    /* output buffer for compressed streams (random data expands) */
  JUNK = 64,         /* bytes of "modification log" placed after every stream */
  MAXPIECES = 1024
};
#define WBITS 14   /* UNIV_PAGE_SIZE_SHIFT */
#define MEMLEVEL 9 /* MAX_MEM_LEVEL */
#define INNODB_HEAP 340000 /* ~ what page_zip_compress() mem_heap_create()s */

static int g_reps = 2000; /* pages per timing trial */
static int g_trials = 5;  /* timing trials, the best one counts */
static int g_verbose = 0;

/* ------------------------------------------------------------------------ */
/* Deterministic PRNG (splitmix64)                                          */
/* ------------------------------------------------------------------------ */

static uint64_t rng_state;
static void rng_seed(uint64_t s) { rng_state = s; }
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static unsigned rnd_range(unsigned lo, unsigned hi) {
  return lo + (unsigned)(rnd() % (hi - lo + 1));
}

/* ------------------------------------------------------------------------ */
/* Synthetic pages                                                          */
/* ------------------------------------------------------------------------ */

/* One page as page_zip_compress() sees it: the encoded field list, and the
   page image in which the compressed "pieces" lie between bytes that InnoDB
   keeps uncompressed (5-byte record headers, DB_TRX_ID + DB_ROLL_PTR). */
typedef struct {
  uint8_t fields[512];
  unsigned fields_len;
  uint8_t image[PAGE];
  unsigned image_len;
  unsigned n_pieces;
  uint16_t poff[MAXPIECES], plen[MAXPIECES]; /* piece offset/length in image */
  uint8_t rest[PAGE];                        /* all pieces concatenated */
  unsigned rest_len;
  uint8_t whole[PAGE + 512]; /* fields || rest: the uncompressed stream */
  unsigned whole_len;
} page_t;

static void page_begin(page_t *p) {
  p->image_len = p->n_pieces = p->rest_len = 0;
}
/* bytes InnoDB does not compress (record header, trx_id, roll_ptr) */
static void page_gap(page_t *p, unsigned n) {
  for (unsigned i = 0; i < n; i++) p->image[p->image_len++] = (uint8_t)rnd();
}
static void page_piece(page_t *p, const uint8_t *d, unsigned n) {
  if (!n) return;
  memcpy(p->image + p->image_len, d, n);
  p->poff[p->n_pieces] = (uint16_t)p->image_len;
  p->plen[p->n_pieces++] = (uint16_t)n;
  p->image_len += n;
  memcpy(p->rest + p->rest_len, d, n);
  p->rest_len += n;
}
static void page_end(page_t *p) {
  memcpy(p->whole, p->fields, p->fields_len);
  memcpy(p->whole + p->fields_len, p->rest, p->rest_len);
  p->whole_len = p->fields_len + p->rest_len;
}

/* --- field list: a copy of page_zip_fields_encode() (page0zip.cc) ------- */
typedef struct {
  unsigned fixed_len; /* 0 = variable length */
  int not_null;
  int big; /* variable, max length > 255 bytes */
} col_t;

static uint8_t *fixed_field_encode(uint8_t *b, unsigned val) {
  if (val < 126) {
    *b++ = (uint8_t)val;
  } else {
    *b++ = (uint8_t)(0x80 | val >> 8);
    *b++ = (uint8_t)val;
  }
  return b;
}
static unsigned fields_encode(const col_t *c, unsigned n, unsigned trx_id_pos,
                              uint8_t *buf) {
  uint8_t *b = buf;
  unsigned col = 0, trx_id_col = 0, fixed_sum = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned val = c[i].not_null ? 1 : 0;
    if (!c[i].fixed_len) {
      if (c[i].big) val |= 0x7e;
      if (fixed_sum) {
        b = fixed_field_encode(b, fixed_sum << 1 | 1);
        fixed_sum = 0;
        col++;
      }
      *b++ = (uint8_t)val;
      col++;
    } else if (val) {
      if (i && i == trx_id_pos) {
        if (fixed_sum) {
          b = fixed_field_encode(b, fixed_sum << 1 | 1);
          col++;
        }
        trx_id_col = col;
        fixed_sum = c[i].fixed_len;
      } else {
        fixed_sum += c[i].fixed_len;
      }
    } else {
      if (fixed_sum) {
        b = fixed_field_encode(b, fixed_sum << 1 | 1);
        fixed_sum = 0;
        col++;
      }
      b = fixed_field_encode(b, c[i].fixed_len << 1);
      col++;
    }
  }
  if (fixed_sum) b = fixed_field_encode(b, fixed_sum << 1 | 1);
  *b++ = (uint8_t)trx_id_col;
  return (unsigned)(b - buf);
}

/* --- column value helpers (InnoDB storage formats) ----------------------- */
static const char ALNUM[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/* tpcc MakeAlphaString: random alphanumeric string */
static void astring(uint8_t *b, unsigned n) {
  for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)ALNUM[rnd() % 62];
}
/* signed integer: big-endian with the sign bit flipped */
static uint8_t *put_int(uint8_t *b, int64_t v, int n) {
  uint64_t u = (uint64_t)v ^ (1ULL << (8 * n - 1));
  for (int i = 0; i < n; i++) b[i] = (uint8_t)(u >> (8 * (n - 1 - i)));
  return b + n;
}

/* (a) TPC-C stock, clustered index (s_w_id, s_i_id), utf8mb4 so CHAR(24) is
   variable length. Per row: 5-byte header (uncompressed), piece 1 = null
   bitmap + 11 length bytes, piece 2 = key, 13 bytes trx_id+roll_ptr
   (uncompressed), piece 3 = the other columns (~290 bytes). */
static const col_t STOCK_COLS[] = {
    {2, 1, 0}, {4, 1, 0}, {6, 1, 0}, {7, 1, 0}, /* w_id, i_id, trx, roll */
    {2, 0, 0},                                  /* s_quantity */
    {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, /* s_dist_01..05 */
    {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, /* s_dist_06..10 */
    {4, 0, 0}, {2, 0, 0}, {2, 0, 0},                       /* ytd, cnt, cnt */
    {0, 0, 0}};                                            /* s_data */

static void gen_stock(page_t *p, unsigned seq) {
  uint8_t h[32], k[8], d[400];
  int w_id = (int)(seq % 10) + 1;
  int i_id = 1 + (int)(seq * 37 % 99000);
  p->fields_len = fields_encode(STOCK_COLS, 19, 2, p->fields);
  page_begin(p);
  for (;;) {
    uint8_t *q = d;
    q = put_int(q, rnd_range(10, 100), 2); /* s_quantity */
    for (int i = 0; i < 10; i++, q += 24) astring(q, 24);
    *q++ = 0x80; *q++ = 0; *q++ = 0; *q++ = 0; /* s_ytd DECIMAL(8,0) = 0 */
    q = put_int(q, 0, 2);                      /* s_order_cnt */
    q = put_int(q, 0, 2);                      /* s_remote_cnt */
    unsigned dl = rnd_range(26, 50);           /* s_data */
    astring(q, dl);
    if (rnd() % 10 == 0) memcpy(q + rnd_range(0, dl - 8), "ORIGINAL", 8);
    q += dl;
    unsigned dlen = (unsigned)(q - d);
    /* header: null bitmap (2 bytes) + lengths in reverse column order */
    unsigned hl = 0;
    h[hl++] = (uint8_t)dl;
    for (int i = 0; i < 10; i++) h[hl++] = 24;
    h[hl++] = 0;
    h[hl++] = 0;
    put_int(put_int(k, w_id, 2), i_id++, 4);
    if (p->image_len + 5 + hl + 6 + 13 + dlen > IMAGE_MAX) break;
    page_gap(p, 5);
    page_piece(p, h, hl);
    page_piece(p, k, 6);
    page_gap(p, 13);
    page_piece(p, d, dlen);
  }
  page_end(p);
}

/* (b) TPC-C order_line, clustered index (ol_w_id, ol_d_id, ol_o_id,
   ol_number); orders of 5..15 lines; undelivered orders (o_id > 2100) have
   ol_delivery_d NULL and a random amount, as the tpcc loader does. */
static const col_t OL_COLS[] = {
    {2, 1, 0}, {1, 1, 0}, {4, 1, 0}, {1, 1, 0}, /* key */
    {6, 1, 0}, {7, 1, 0},                       /* trx, roll */
    {4, 0, 0}, {2, 0, 0}, {5, 0, 0},            /* i_id, supply_w, delivery_d */
    {1, 0, 0}, {3, 0, 0}, {0, 0, 0}};           /* quantity, amount, dist_info */

static void gen_orderline(page_t *p, unsigned seq) {
  uint8_t h[4], k[8], d[64];
  int w_id = (int)(seq % 10) + 1, d_id = (int)(seq % 10) + 1;
  int o_id = 1 + (int)(seq * 131 % 2900), ol = 1, n_ol = (int)rnd_range(5, 15);
  p->fields_len = fields_encode(OL_COLS, 12, 4, p->fields);
  page_begin(p);
  for (;;) {
    int delivered = o_id <= 2100;
    uint8_t *q = d;
    q = put_int(q, rnd_range(1, 100000), 4); /* ol_i_id */
    q = put_int(q, w_id, 2);                 /* ol_supply_w_id */
    if (delivered) {                         /* DATETIME(0), 5 bytes */
      uint64_t v = 0x8000000000ULL | (2026ULL * 13 + 1) << 22 | 15ULL << 17 |
                   (uint64_t)rnd_range(0, 86399);
      for (int i = 0; i < 5; i++) *q++ = (uint8_t)(v >> (8 * (4 - i)));
    }
    *q++ = 0x80 ^ 5; /* ol_quantity */
    unsigned amt = delivered ? 0 : rnd_range(1, 999999); /* DECIMAL(6,2) */
    *q++ = (uint8_t)(0x80 | (amt / 100) >> 8);
    *q++ = (uint8_t)(amt / 100);
    *q++ = (uint8_t)(amt % 100);
    astring(q, 24); /* ol_dist_info */
    q += 24;
    unsigned dlen = (unsigned)(q - d);
    h[0] = 24;                              /* length of ol_dist_info */
    h[1] = delivered ? 0 : 0x04;            /* null bitmap */
    uint8_t *kk = put_int(k, w_id, 2);
    kk = put_int(kk, d_id, 1);
    kk = put_int(kk, o_id, 4);
    put_int(kk, ol, 1);
    if (p->image_len + 5 + 2 + 8 + 13 + dlen > IMAGE_MAX) break;
    page_gap(p, 5);
    page_piece(p, h, 2);
    page_piece(p, k, 8);
    page_gap(p, 13);
    page_piece(p, d, dlen);
    if (++ol > n_ol) {
      ol = 1;
      o_id++;
      n_ol = (int)rnd_range(5, 15);
    }
  }
  page_end(p);
}

/* (c) English text and (d) random bytes: pieces of 20..300 bytes, each after
   a 5-byte gap, table (id BIGINT PRIMARY KEY, body TEXT). */
static const col_t TEXT_COLS[] = {{8, 1, 0}, {6, 1, 0}, {7, 1, 0}, {0, 0, 1}};
static uint8_t *g_corpus;
static size_t g_corpus_len;

static void load_corpus(void) {
  glob_t g;
  const char *pats[] = {"/usr/share/common-licenses/*", "/usr/share/doc/*/copyright"};
  g_corpus = malloc(4 << 20);
  for (int pi = 0; pi < 2 && g_corpus_len < (1 << 20); pi++) {
    if (glob(pats[pi], 0, NULL, &g)) continue;
    for (size_t i = 0; i < g.gl_pathc && g_corpus_len < (3 << 20); i++) {
      FILE *f = fopen(g.gl_pathv[i], "rb");
      if (!f) continue;
      g_corpus_len += fread(g_corpus + g_corpus_len, 1, (3 << 20) - g_corpus_len, f);
      fclose(f);
    }
    globfree(&g);
  }
  if (g_corpus_len < 2 * PAGE) {
    fprintf(stderr, "no text corpus found\n");
    exit(2);
  }
}

static void gen_text(page_t *p, unsigned seq, int random) {
  uint8_t d[300];
  size_t pos = (size_t)seq * 15013 % (g_corpus_len - PAGE);
  p->fields_len = fields_encode(TEXT_COLS, 4, 1, p->fields);
  page_begin(p);
  for (;;) {
    unsigned n = rnd_range(20, 300);
    if (p->image_len + 5 + n > IMAGE_MAX) break;
    if (random) {
      for (unsigned i = 0; i < n; i++) d[i] = (uint8_t)rnd();
    } else {
      memcpy(d, g_corpus + pos, n);
      pos += n;
    }
    page_gap(p, 5);
    page_piece(p, d, n);
  }
  page_end(p);
}

enum { K_STOCK, K_ORDERLINE, K_TEXT, K_RANDOM, NKINDS };
static const char *KIND_NAME[NKINDS] = {"stock", "order_line", "text", "random"};

static void gen_page(page_t *p, int kind, unsigned seq) {
  rng_seed(0x1234567ULL * (kind + 1) + seq);
  switch (kind) {
    case K_STOCK: gen_stock(p, seq); break;
    case K_ORDERLINE: gen_orderline(p, seq); break;
    case K_TEXT: gen_text(p, seq, 0); break;
    default: gen_text(p, seq, 1); break;
  }
}

/* Replace the field list by an arbitrary one (tests: vary its length and
   content so that the end of the first deflate block falls on every bit). */
static void set_fields(page_t *p, unsigned len, unsigned seed) {
  rng_seed(seed);
  for (unsigned i = 0; i < len; i++)
    p->fields[i] = (seed & 1) ? (uint8_t)rnd() : (uint8_t)(rnd() % 4 * 2 + 1);
  p->fields_len = len;
  page_end(p);
}

/* ------------------------------------------------------------------------ */
/* Shared state                                                             */
/* ------------------------------------------------------------------------ */

static page_t g_pages[NP];
static struct isal_zstream g_isal;      /* ~82 KB, reused (init per page) */
static struct inflate_state g_isal_inf; /* ~90 KB, reused (init per page) */
static uint8_t *g_isal_lvlbuf[4];
static const uint32_t ISAL_LVLBUF_SIZE[4] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
                                             ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
static struct libdeflate_compressor *g_ldc[13];
static struct libdeflate_decompressor *g_ldd;
static uint8_t g_gather[PAGE];  /* ISA-L: the pieces gathered contiguously */
static uint8_t g_scratch[PAGE]; /* raw inflate target */
static uint8_t g_img_out[PAGE + 64];
static uint8_t g_out[PAGE + 1024];

static uint32_t be32(const uint8_t *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* ------------------------------------------------------------------------ */
/* zlib allocator: like InnoDB's page_zip_set_alloc() (a mem_heap), all of a */
/* stream's allocations come from one block; here a preallocated arena that  */
/* is reset for each stream (only one zlib stream is live at a time).        */
/* ------------------------------------------------------------------------ */

typedef struct {
  uint8_t *base;
  size_t used, size;
} arena_t;
static voidpf arena_alloc(voidpf opaque, uInt items, uInt size) {
  arena_t *a = opaque;
  size_t n = ((size_t)items * size + 15) & ~(size_t)15;
  if (a->used + n > a->size) return Z_NULL;
  void *p = a->base + a->used;
  a->used += n;
  return p;
}
static void arena_free(voidpf opaque, voidpf address) {
  (void)opaque;
  (void)address;
}
static arena_t g_zarena;
static size_t g_zarena_peak; /* largest arena use seen (deflateInit2 14/9) */
static void zarena_use(z_stream *s) {
  memset(s, 0, sizeof *s);
  if (g_zarena.used > g_zarena_peak) g_zarena_peak = g_zarena.used;
  g_zarena.used = 0;
  s->zalloc = arena_alloc;
  s->zfree = arena_free;
  s->opaque = &g_zarena;
}

/* ------------------------------------------------------------------------ */
/* Compressors. Each returns the stream length, 0 if it did not fit.         */
/* ------------------------------------------------------------------------ */

/* zlib, whole page (fields || rest) as one stream with one Z_FINISH call. */
static unsigned c_zlib_whole(int lvl, const page_t *p, uint8_t *out, unsigned cap) {
  z_stream s;
  zarena_use(&s);
  if (deflateInit2(&s, lvl, Z_DEFLATED, WBITS, MEMLEVEL, Z_DEFAULT_STRATEGY) != Z_OK) abort();
  s.next_in = (Bytef *)p->whole;
  s.avail_in = p->whole_len;
  s.next_out = out;
  s.avail_out = cap;
  unsigned n = deflate(&s, Z_FINISH) == Z_STREAM_END ? (unsigned)s.total_out : 0;
  deflateEnd(&s);
  return n;
}

/* zlib, the InnoDB pattern: fields Z_FULL_FLUSH, pieces Z_NO_FLUSH straight
   from the page image, last piece Z_FINISH. */
static unsigned c_zlib_innodb(int lvl, const page_t *p, uint8_t *out, unsigned cap) {
  z_stream s;
  zarena_use(&s);
  if (deflateInit2(&s, lvl, Z_DEFLATED, WBITS, MEMLEVEL, Z_DEFAULT_STRATEGY) != Z_OK) abort();
  s.next_out = out;
  s.avail_out = cap;
  s.next_in = (Bytef *)p->fields;
  s.avail_in = p->fields_len;
  if (deflate(&s, Z_FULL_FLUSH) != Z_OK) goto fail;
  for (unsigned i = 0; i < p->n_pieces; i++) {
    int last = i + 1 == p->n_pieces;
    s.next_in = (Bytef *)p->image + p->poff[i];
    s.avail_in = p->plen[i];
    int rc = deflate(&s, last ? Z_FINISH : Z_NO_FLUSH);
    if (rc != (last ? Z_STREAM_END : Z_OK)) goto fail;
  }
  if (!p->n_pieces && deflate(&s, Z_FINISH) != Z_STREAM_END) goto fail; /* empty page */
  deflateEnd(&s);
  return (unsigned)s.total_out;
fail:
  deflateEnd(&s);
  return 0;
}

/* ISA-L stateful: call 1 = field list with FULL_FLUSH; call 2 = all pieces
   gathered into one buffer, NO_FLUSH + end_of_stream. The stream is complete
   only if internal_state.state == ZSTATE_END (see test Q1c). */
static int g_isal_native_zlib_hdr = 0;
static int isal_stage1(struct isal_zstream *s, int lvl, const page_t *p, uint8_t *out,
                       unsigned cap) {
  isal_deflate_init(s); /* resets level/level_buf/flags: set them after */
  s->level = (uint32_t)lvl;
  s->level_buf = g_isal_lvlbuf[lvl];
  s->level_buf_size = ISAL_LVLBUF_SIZE[lvl];
  s->hist_bits = WBITS;
  s->next_out = out;
  s->avail_out = cap;
  /* ISA-L 2.30 with gzip_flag = IGZIP_ZLIB always writes the header 78 01
     (CINFO 7 = 32 KB window) whatever hist_bits is, and inflateInit2(14)
     rejects that ("invalid window size"). So write our own header with
     CINFO 6 and let ISA-L write only the deflate data + adler32 trailer. */
  if (g_isal_native_zlib_hdr) {
    s->gzip_flag = IGZIP_ZLIB; /* only for test G0 */
  } else {
    struct isal_zlib_header zh = {.info = WBITS - 8, .level = 2, .dict_id = 0, .dict_flag = 0};
    s->gzip_flag = IGZIP_ZLIB_NO_HDR;
    if (isal_write_zlib_header(s, &zh)) return INVALID_PARAM; /* out of space */
  }
  s->next_in = (uint8_t *)p->fields;
  s->avail_in = p->fields_len;
  s->flush = FULL_FLUSH;
  s->end_of_stream = 0;
  return isal_deflate(s);
}
static unsigned isal_gather(const page_t *p) {
  unsigned g = 0;
  for (unsigned i = 0; i < p->n_pieces; i++) {
    memcpy(g_gather + g, p->image + p->poff[i], p->plen[i]);
    g += p->plen[i];
  }
  return g;
}
static int isal_stage2(struct isal_zstream *s, unsigned glen) {
  s->next_in = g_gather;
  s->avail_in = glen;
  s->flush = NO_FLUSH;
  s->end_of_stream = 1;
  return isal_deflate(s);
}
static unsigned c_isal(int lvl, const page_t *p, uint8_t *out, unsigned cap) {
  struct isal_zstream *s = &g_isal;
  if (isal_stage1(s, lvl, p, out, cap) != COMP_OK || s->avail_in) return 0;
  if (isal_stage2(s, isal_gather(p)) != COMP_OK) return 0;
  return s->internal_state.state == ZSTATE_END ? s->total_out : 0;
}

/* ISA-L stateful fed like zlib in InnoDB: one NO_FLUSH call per piece, no
   gather copy (ISA-L buffers small inputs internally). */
static unsigned c_isal_pieces(int lvl, const page_t *p, uint8_t *out, unsigned cap) {
  struct isal_zstream *s = &g_isal;
  if (isal_stage1(s, lvl, p, out, cap) != COMP_OK || s->avail_in) return 0;
  for (unsigned i = 0; i < p->n_pieces; i++) {
    s->next_in = (uint8_t *)p->image + p->poff[i];
    s->avail_in = p->plen[i];
    s->flush = NO_FLUSH;
    s->end_of_stream = i + 1 == p->n_pieces;
    if (isal_deflate(s) != COMP_OK || s->avail_in) return 0;
  }
  if (!p->n_pieces && isal_stage2(s, 0) != COMP_OK) return 0; /* empty page */
  return s->internal_state.state == ZSTATE_END ? s->total_out : 0;
}

/* libdeflate: whole buffer, zlib format (reference only: no flush support,
   and its zlib header says 32 KB window, which inflateInit2(14) rejects). */
static unsigned c_libdeflate(int lvl, const page_t *p, uint8_t *out, unsigned cap) {
  return (unsigned)libdeflate_zlib_compress(g_ldc[lvl], p->whole, p->whole_len, out, cap);
}

/* ------------------------------------------------------------------------ */
/* Decompressors. in[0..len) is the stream, JUNK bytes follow it.           */
/* Each returns 1 if the page content was reproduced.                       */
/* ------------------------------------------------------------------------ */

/* zlib, whole stream in one inflate(Z_FINISH). */
static int d_zlib_whole(const uint8_t *in, unsigned len, const page_t *p) {
  z_stream s;
  zarena_use(&s);
  if (inflateInit2(&s, WBITS) != Z_OK) abort();
  s.next_in = (Bytef *)in;
  s.avail_in = len + JUNK;
  s.next_out = g_out;
  s.avail_out = sizeof g_out;
  int ok = inflate(&s, Z_FINISH) == Z_STREAM_END && s.total_out == p->whole_len &&
           s.next_in == in + len;
  inflateEnd(&s);
  return ok;
}

/* zlib, the InnoDB pattern: 2 x Z_BLOCK, then one Z_SYNC_FLUSH per piece
   into the page image with exact sizes, then Z_FINISH with avail_out 0. */
static int d_zlib_innodb(const uint8_t *in, unsigned len, const page_t *p) {
  z_stream s;
  zarena_use(&s);
  if (inflateInit2(&s, WBITS) != Z_OK) abort();
  s.next_in = (Bytef *)in;
  s.avail_in = len + JUNK;
  s.next_out = g_img_out;
  s.avail_out = PAGE;
  int ok = inflate(&s, Z_BLOCK) == Z_OK && inflate(&s, Z_BLOCK) == Z_OK &&
           s.total_out == p->fields_len;
  for (unsigned i = 0; ok && i < p->n_pieces; i++) {
    s.next_out = g_img_out + p->poff[i];
    s.avail_out = p->plen[i];
    int rc = inflate(&s, Z_SYNC_FLUSH);
    ok = (rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) && s.avail_out == 0;
  }
  if (ok) {
    s.avail_out = 0;
    ok = inflate(&s, Z_FINISH) == Z_STREAM_END && s.next_in == in + len;
  }
  inflateEnd(&s);
  return ok;
}

/* Step zlib to the first byte-aligned block boundary after the field block,
   so that a raw deflate decoder can take over at s->next_in. After the 2nd
   Z_BLOCK zlib stops right after the field block's end-of-block code, which
   usually ends mid-byte (data_type & 7 = unread bits of the byte before
   next_in). What follows is the flush's empty stored block (3 zero bits, pad,
   00 00 ff ff), which ISA-L levels 1-3 sometimes precede with an empty
   fixed-Huffman block (test Q2). Each extra inflate(Z_BLOCK) with avail_out 0
   consumes one such empty block; a stored block always leaves 0 pending
   bits. data_type == 128: at a block boundary (128), 0 bits pending, not
   after the last block (64). Returns the number of extra calls, -1 if the
   stream does not look like that (the caller can go on with stock zlib). */
static int zlib_align(z_stream *s) {
  uLong out = s->total_out;
  Bytef *next_out = s->next_out;
  uInt avail_out = s->avail_out;
  int calls = 0;
  s->avail_out = 0;
  while (s->data_type != 128 && calls < 4) {
    calls++;
    if (inflate(s, Z_BLOCK) != Z_OK || !(s->data_type & 128) || s->total_out != out) {
      calls = -1;
      break;
    }
  }
  if (s->data_type != 128) calls = -1;
  s->next_out = next_out;
  s->avail_out = avail_out;
  return calls;
}

/* The common head of the hybrid decoders: stock zlib decodes the header and
   the field block exactly like InnoDB (2 x Z_BLOCK), then zlib_align(). */
static int zlib_head(z_stream *s, const uint8_t *in, unsigned len, uint8_t *out) {
  zarena_use(s);
  if (inflateInit2(s, WBITS) != Z_OK) abort();
  s->next_in = (Bytef *)in;
  s->avail_in = len + JUNK;
  s->next_out = out;
  s->avail_out = PAGE;
  if (inflate(s, Z_BLOCK) != Z_OK || inflate(s, Z_BLOCK) != Z_OK) return 0;
  return zlib_align(s) >= 0;
}

/* Raw decode of the rest with libdeflate; returns the end of the stream
   (byte after the adler32 trailer) or NULL. prev_adler = adler32(fields). */
static const uint8_t *raw_libdeflate(const uint8_t *in, size_t avail, uint32_t prev_adler,
                                     size_t *out_len) {
  size_t ain, aout;
  if (libdeflate_deflate_decompress_ex(g_ldd, in, avail, g_scratch, sizeof g_scratch, &ain,
                                       &aout) != LIBDEFLATE_SUCCESS ||
      ain + 4 > avail)
    return NULL;
  if (libdeflate_adler32(prev_adler, g_scratch, aout) != be32(in + ain)) return NULL;
  *out_len = aout;
  return in + ain + 4;
}

/* Raw decode of the rest with ISA-L (crc_flag ISAL_DEFLATE). When the final
   block is done, isal_inflate() does NOT give back the whole bytes still in
   its bit buffer: the deflate data ends at next_in - read_in_length / 8
   (test Q2), which is where the adler32 trailer is. */
static const uint8_t *raw_isal(const uint8_t *in, size_t avail, uint32_t prev_adler,
                               size_t *out_len) {
  struct inflate_state *st = &g_isal_inf;
  isal_inflate_init(st);
  st->crc_flag = ISAL_DEFLATE;
  st->next_in = (uint8_t *)in;
  st->avail_in = (uint32_t)avail;
  st->next_out = g_scratch;
  st->avail_out = sizeof g_scratch;
  if (isal_inflate(st) != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH)
    return NULL;
  const uint8_t *end = st->next_in - st->read_in_length / 8; /* end of deflate data */
  if (end + 4 > in + avail) return NULL;
  if (isal_adler32(prev_adler, g_scratch, st->total_out) != be32(end)) return NULL;
  *out_len = st->total_out;
  return end + 4;
}

/* Scatter the raw output into the page image (InnoDB would instead parse
   the records out of the scratch buffer; the copying cost is similar). */
static int scatter(const page_t *p, size_t n) {
  if (n != p->rest_len) return 0;
  const uint8_t *src = g_scratch;
  for (unsigned i = 0; i < p->n_pieces; i++) {
    memcpy(g_img_out + p->poff[i], src, p->plen[i]);
    src += p->plen[i];
  }
  return 1;
}

static int d_hybrid_libdeflate(const uint8_t *in, unsigned len, const page_t *p) {
  z_stream s;
  size_t n;
  int ok = zlib_head(&s, in, len, g_img_out);
  if (ok) {
    const uint8_t *end = raw_libdeflate(s.next_in, s.avail_in, (uint32_t)s.adler, &n);
    ok = end == in + len && scatter(p, n);
  }
  inflateEnd(&s);
  return ok;
}

static int d_hybrid_isal(const uint8_t *in, unsigned len, const page_t *p) {
  z_stream s;
  size_t n;
  int ok = zlib_head(&s, in, len, g_img_out);
  if (ok) {
    const uint8_t *end = raw_isal(s.next_in, s.avail_in, (uint32_t)s.adler, &n);
    ok = end == in + len && scatter(p, n);
  }
  inflateEnd(&s);
  return ok;
}

/* References: one-shot zlib-format decoders over the whole stream (they
   cannot tell where the field block ends, so not directly usable). */
static int d_libdeflate_zlib(const uint8_t *in, unsigned len, const page_t *p) {
  size_t ain, aout;
  return libdeflate_zlib_decompress_ex(g_ldd, in, len + JUNK, g_out, sizeof g_out, &ain,
                                       &aout) == LIBDEFLATE_SUCCESS &&
         ain == len && aout == p->whole_len;
}
static int d_isal_zlib(const uint8_t *in, unsigned len, const page_t *p) {
  struct inflate_state *st = &g_isal_inf;
  isal_inflate_init(st);
  st->crc_flag = ISAL_ZLIB;
  st->next_in = (uint8_t *)in;
  st->avail_in = len + JUNK;
  st->next_out = g_out;
  st->avail_out = sizeof g_out;
  return isal_inflate(st) == ISAL_DECOMP_OK && st->block_state == ISAL_BLOCK_FINISH &&
         st->total_out == p->whole_len;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

static int g_pass, g_fail;
static void report(int ok, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(int ok, const char *name, const char *fmt, ...) {
  va_list ap;
  printf("%s %s: ", ok ? "PASS" : "FAIL", name);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  if (ok) g_pass++; else g_fail++;
}

/* The exact staged InnoDB decode with stock zlib, with checks of every step.
   Returns 0 on success, else the number of the failing step. */
static int staged_zlib_check(const uint8_t *in, unsigned len, const page_t *p) {
  z_stream s;
  int step = 0;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, WBITS) != Z_OK) return 1;
  memset(g_img_out, 0xee, sizeof g_img_out);
  s.next_in = (Bytef *)in;
  s.avail_in = len + JUNK;
  s.next_out = g_img_out;
  s.avail_out = PAGE;
  if (inflate(&s, Z_BLOCK) != Z_OK || s.total_out != 0) { step = 2; goto out; }
  if (inflate(&s, Z_BLOCK) != Z_OK) { step = 3; goto out; }
  if (s.total_out != p->fields_len || memcmp(g_img_out, p->fields, p->fields_len)) {
    step = 4;
    goto out;
  }
  for (unsigned i = 0; i < p->n_pieces; i++) {
    s.next_out = g_img_out + p->poff[i];
    s.avail_out = p->plen[i];
    int rc = inflate(&s, Z_SYNC_FLUSH);
    if (!(rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) || s.avail_out) {
      step = 5;
      goto out;
    }
    if (memcmp(g_img_out + p->poff[i], p->image + p->poff[i], p->plen[i])) {
      step = 6;
      goto out;
    }
  }
  s.avail_out = 0;
  if (inflate(&s, Z_FINISH) != Z_STREAM_END) { step = 7; goto out; }
  if (s.next_in != in + len) step = 8;
out:
  inflateEnd(&s);
  return step;
}

/* Q1: ISA-L output vs. the staged zlib decoder, every level, every kind,
   realistic field lists and synthetic ones of 1..300 bytes. */
static uint8_t g_stream[OUTCAP + JUNK];

static void test_q1(void) {
  static const unsigned FL[] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 300};
  printf("\n== Q1: ISA-L stateful deflate -> stock zlib staged inflate ==\n");
  printf("sizeof(struct isal_zstream) = %zu, sizeof(struct inflate_state) = %zu, "
         "level_buf sizes L1..L3 = %u %u %u\n",
         sizeof(struct isal_zstream), sizeof(struct inflate_state), ISAL_LVLBUF_SIZE[1],
         ISAL_LVLBUF_SIZE[2], ISAL_LVLBUF_SIZE[3]);
  for (int lvl = 0; lvl <= 3; lvl++) {
    int n = 0, bad = 0, first_bad_step = 0;
    unsigned hdr = 0;
    for (int kind = 0; kind < NKINDS; kind++) {
      for (unsigned pg = 0; pg < 4; pg++) {
        for (int f = -1; f < (int)(sizeof FL / sizeof FL[0]); f++) {
          page_t *p = &g_pages[0];
          gen_page(p, kind, pg);
          if (f >= 0) set_fields(p, FL[f], 1000u * pg + (unsigned)f);
          memset(g_stream, 0xa5, sizeof g_stream); /* junk after the stream */
          unsigned len = c_isal(lvl, p, g_stream, OUTCAP);
          hdr = (unsigned)g_stream[0] << 8 | g_stream[1];
          int step = len ? staged_zlib_check(g_stream, len, p) : 1;
          n++;
          if (step) {
            if (!bad) first_bad_step = step;
            bad++;
          }
        }
      }
    }
    char name[128];
    snprintf(name, sizeof name,
             "Q1a isal level %d: staged zlib decode, total_out == fields_len after 2nd Z_BLOCK", lvl);
    report(!bad, name,
           "%d streams, %d failed (first failing step %d, see staged_zlib_check); zlib header "
           "%04x from isal_write_zlib_header (CINFO %u = %u-byte window)",
           n, bad, first_bad_step, hdr, hdr >> 12, 1u << ((hdr >> 12) + 8));
  }

  /* Q1b: the same streams decoded with inflateInit2(15) and in one call. */
  {
    int bad = 0, n = 0;
    for (int lvl = 0; lvl <= 3; lvl++)
      for (int kind = 0; kind < NKINDS; kind++) {
        page_t *p = &g_pages[0];
        gen_page(p, kind, 7);
        unsigned len = c_isal(lvl, p, g_stream, OUTCAP);
        n++;
        if (!len || !d_zlib_whole(g_stream, len, p)) bad++;
        memset(g_stream, 0xa5, sizeof g_stream);
        len = c_isal_pieces(lvl, p, g_stream, OUTCAP);
        n++;
        if (!len || staged_zlib_check(g_stream, len, p)) bad++;
      }
    report(!bad, "Q1b isal gather streams decode with one inflate(Z_FINISH); isal piecewise streams with the staged pattern", "%d streams, %d failed",
           n, bad);
  }

  /* Q1c: output buffer too small. Compress into exactly len, len-1, len-8,
     len/2 and 10 bytes; canary bytes after the buffer must stay intact. */
  printf("-- Q1c: ISA-L with a too small output buffer (stock page 0) --\n");
  printf("   lvl  cap/need  rc1 state1 avail_in1 | rc2 state2 avail_in2 avail_out total_out | "
         "fits\n");
  int bad = 0;
  for (int lvl = 0; lvl <= 3; lvl++) {
    for (int kind = 0; kind < NKINDS; kind++) {
      page_t *p = &g_pages[0];
      gen_page(p, kind, 0);
      static uint8_t ref[OUTCAP], out[OUTCAP + 64];
      unsigned need = c_isal(lvl, p, ref, OUTCAP);
      unsigned caps[] = {need, need - 1, need - 8, need / 2, 10};
      for (int c = 0; c < 5; c++) {
        struct isal_zstream *s = &g_isal;
        unsigned cap = caps[c];
        memset(out, 0x5a, sizeof out);
        int rc1 = isal_stage1(s, lvl, p, out, cap);
        int st1 = s->internal_state.state;
        unsigned ai1 = s->avail_in;
        int rc2 = isal_stage2(s, isal_gather(p));
        int st2 = s->internal_state.state;
        int fits = st2 == ZSTATE_END;
        int canary_ok = 1;
        for (unsigned i = cap; i < cap + 64; i++) canary_ok &= out[i] == 0x5a;
        int expect_fit = cap >= need;
        int same = !fits || (s->total_out == need && !memcmp(out, ref, need));
        if (kind == 0 || fits != expect_fit || !canary_ok || !same)
          printf("   L%d %-10s %5u/%5u %3d %6d %9u | %3d %6d %9u %9u %9u | %s%s%s\n", lvl,
                 KIND_NAME[kind], cap, need, rc1, st1, ai1, rc2, st2, s->avail_in,
                 s->avail_out, s->total_out, fits ? "yes" : "no",
                 canary_ok ? "" : " OVERRUN", same ? "" : " DIFFERENT");
        if (fits != expect_fit || !canary_ok || !same || rc1 != COMP_OK || rc2 != COMP_OK) bad++;
      }
    }
  }
  printf("   (ZSTATE_END = %d, ZSTATE_NEW_HDR = %d, ZSTATE_BODY = %d, COMP_OK = %d)\n",
         ZSTATE_END, ZSTATE_NEW_HDR, ZSTATE_BODY, COMP_OK);
  report(!bad, "Q1c too small output detected by internal_state.state != ZSTATE_END",
         "rc is COMP_OK either way; exact-size buffer fits; no write past avail_out");
}

/* Q2: the raw decode of the rest. For streams made by zlib (levels 0,1,6,9,
   InnoDB pattern) and by ISA-L (levels 0..3), record where zlib's next_in is
   after the 2nd Z_BLOCK relative to the empty stored block, try the raw
   decoders there and after zlib_align(). */
typedef struct {
  int n;
  int bits_hist[8];     /* data_type & 7 after the 2nd Z_BLOCK */
  int skip_hist[4];     /* LEN/NLEN of the empty stored block at next_in + (-1..2) */
  int no_stored;        /* no 00 00 ff ff found where expected */
  int adler_fields_ok;  /* strm.adler == adler32(fields) after 2nd Z_BLOCK */
  int raw_at2_ld, raw_at2_isal;   /* raw decode OK starting at next_in after 2nd */
  int third_ok;         /* zlib_align: data_type 128, next_in at the stored block or past it */
  int align_calls[4];   /* number of extra Z_BLOCK calls zlib_align() needed */
  int manual_ok;        /* manual rule predicts the start of rest */
  int ld_ok, isal_ok;   /* raw decode after zlib_align: output, adler, end */
  int isal_nextin_exact;/* ISA-L next_in == trailer exactly */
  int isal_over[9];     /* ISA-L next_in - trailer (bytes) */
  int isal_readin_fix;  /* next_in - read_in_length/8 == trailer */
  int ld_tight_ok;      /* libdeflate with in_nbytes ending at the trailer */
  int isal_tight_ok;    /* isal with avail_in ending at the trailer */
} q2stat_t;

/* For zlib-made streams, the rest can also be found without more inflate calls:
   bits = data_type & 7 bits of the byte before next_in are still unread; the
   stored block header (3 zero bits, then zero padding) starts there.
   bits >= 3: header + padding are all in those bits, LEN/NLEN at next_in;
   bits < 3: the header spills into next_in[0] (which is then 0x00). */
static const uint8_t *manual_rest_start(const z_stream *s) {
  const uint8_t *q = s->next_in;
  unsigned bits = (unsigned)s->data_type & 7;
  if (bits && (q[-1] >> (8 - bits)) != 0) return NULL;
  if (bits < 3) {
    if (q[0] != 0) return NULL;
    q++;
  }
  if (q[0] != 0 || q[1] != 0 || q[2] != 0xff || q[3] != 0xff) return NULL;
  return q + 4;
}

static void q2_one(const uint8_t *in, unsigned len, const page_t *p, q2stat_t *st) {
  z_stream s;
  size_t n;
  memset(&s, 0, sizeof s);
  st->n++;
  inflateInit2(&s, WBITS);
  s.next_in = (Bytef *)in;
  s.avail_in = len + JUNK;
  s.next_out = g_out;
  s.avail_out = PAGE;
  inflate(&s, Z_BLOCK);
  inflate(&s, Z_BLOCK);
  const uint8_t *at2 = s.next_in;
  unsigned bits = (unsigned)s.data_type & 7;
  st->bits_hist[bits]++;
  if (s.adler == adler32(1, p->fields, p->fields_len)) st->adler_fields_ok++;
  uint32_t adler_f = (uint32_t)s.adler;
  const uint8_t *m = manual_rest_start(&s);
  /* where do 00 00 ff ff end? search a few bytes around next_in */
  const uint8_t *rest = NULL;
  for (const uint8_t *q = at2 - 1; q <= at2 + 2; q++)
    if (q[0] == 0 && q[1] == 0 && q[2] == 0xff && q[3] == 0xff) {
      rest = q + 4;
      break;
    }
  if (rest) st->skip_hist[rest - 4 - at2 + 1]++; /* LEN at next_in-1 .. next_in+2 */
  else st->no_stored++;
  /* raw decode straight at next_in after the 2nd Z_BLOCK */
  if (raw_libdeflate(at2, s.avail_in, adler_f, &n) == in + len && n == p->rest_len) st->raw_at2_ld++;
  if (raw_isal(at2, s.avail_in, adler_f, &n) == in + len && n == p->rest_len) st->raw_at2_isal++;
  /* zlib_align: extra Z_BLOCK calls with avail_out 0 */
  int calls = zlib_align(&s);
  if (calls >= 0 && calls < 4) st->align_calls[calls]++;
  if (calls >= 0 && s.total_out == p->fields_len &&
      (s.next_in == rest || (bits == 0 && s.next_in == at2)))
    st->third_ok++;
  else if (g_verbose) {
    printf("   align mismatch: fields_len %u, calls %d, data_type %d, total_out %lu, "
           "next_in-2nd %ld, rest-2nd %ld, bytes from next_in-1 after 2nd:",
           p->fields_len, calls, s.data_type, s.total_out, (long)(s.next_in - at2),
           rest ? (long)(rest - at2) : -99);
    for (int i = -1; i < 12; i++) printf(" %02x", at2[i]);
    printf("\n");
  }
  if (m && m == rest) st->manual_ok++;
  const uint8_t *r = s.next_in;
  size_t avail = s.avail_in;
  inflateEnd(&s);
  /* libdeflate raw at the start of the rest */
  size_t ain, aout;
  if (libdeflate_deflate_decompress_ex(g_ldd, r, avail, g_scratch, sizeof g_scratch, &ain,
                                       &aout) == LIBDEFLATE_SUCCESS &&
      aout == p->rest_len && !memcmp(g_scratch, p->rest, aout) && r + ain + 4 == in + len &&
      libdeflate_adler32(adler_f, g_scratch, aout) == be32(r + ain))
    st->ld_ok++;
  /* libdeflate with the input ending exactly at the trailer */
  size_t tight = (size_t)(in + len - 4 - r);
  if (libdeflate_deflate_decompress_ex(g_ldd, r, tight, g_scratch, sizeof g_scratch, &ain,
                                       &aout) == LIBDEFLATE_SUCCESS &&
      ain == tight && aout == p->rest_len)
    st->ld_tight_ok++;
  /* ISA-L raw */
  struct inflate_state *is = &g_isal_inf;
  isal_inflate_init(is);
  is->crc_flag = ISAL_DEFLATE;
  is->next_in = (uint8_t *)r;
  is->avail_in = (uint32_t)avail;
  is->next_out = g_scratch;
  is->avail_out = sizeof g_scratch;
  int irc = isal_inflate(is);
  const uint8_t *trailer = in + len - 4;
  {
    struct inflate_state t;
    isal_inflate_init(&t);
    t.crc_flag = ISAL_DEFLATE;
    t.next_in = (uint8_t *)r;
    t.avail_in = (uint32_t)(trailer - r);
    t.next_out = g_out;
    t.avail_out = PAGE;
    if (isal_inflate(&t) == ISAL_DECOMP_OK && t.block_state == ISAL_BLOCK_FINISH &&
        t.total_out == p->rest_len && t.next_in - t.read_in_length / 8 == trailer)
      st->isal_tight_ok++;
  }
  if (is->next_in == trailer) st->isal_nextin_exact++;
  long over = is->next_in - trailer;
  if (over >= 0 && over <= 8) st->isal_over[over]++;
  const uint8_t *iend = is->next_in - is->read_in_length / 8;
  if (iend == trailer) st->isal_readin_fix++;
  if (irc == ISAL_DECOMP_OK && is->block_state == ISAL_BLOCK_FINISH &&
      is->total_out == p->rest_len && !memcmp(g_scratch, p->rest, p->rest_len) &&
      iend == trailer && isal_adler32(adler_f, g_scratch, is->total_out) == be32(iend))
    st->isal_ok++;
}

static void test_q2(void) {
  static const unsigned FL[] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 300};
  static const struct { const char *name; int isal; int lvl; } PROD[] = {
      {"zlib L0", 0, 0}, {"zlib L1", 0, 1}, {"zlib L6", 0, 6}, {"zlib L9", 0, 9},
      {"isal L0", 1, 0}, {"isal L1", 1, 1}, {"isal L2", 1, 2}, {"isal L3", 1, 3}};
  printf("\n== Q2: raw decode of the rest after zlib's two Z_BLOCK calls ==\n");
  for (unsigned pi = 0; pi < sizeof PROD / sizeof PROD[0]; pi++) {
    q2stat_t st;
    memset(&st, 0, sizeof st);
    for (int kind = 0; kind < NKINDS; kind++)
      for (unsigned pg = 0; pg < 4; pg++)
        for (int f = -1; f < (int)(sizeof FL / sizeof FL[0]); f++) {
          page_t *p = &g_pages[0];
          gen_page(p, kind, pg);
          if (f >= 0) set_fields(p, FL[f], 1000u * pg + (unsigned)f + 77);
          memset(g_stream, 0xa5, sizeof g_stream);
          unsigned len = PROD[pi].isal ? c_isal(PROD[pi].lvl, p, g_stream + 1, OUTCAP)
                                       : c_zlib_innodb(PROD[pi].lvl, p, g_stream + 1, OUTCAP);
          /* the stream starts at g_stream+1 so that in[-1] of the search is valid */
          if (len) q2_one(g_stream + 1, len, p, &st);
        }
    printf("-- %s: %d streams\n", PROD[pi].name, st.n);
    printf("   after 2nd Z_BLOCK, bits pending (data_type & 7):");
    for (int i = 0; i < 8; i++) printf(" %d:%d", i, st.bits_hist[i]);
    printf("\n   empty stored block's LEN/NLEN (00 00 ff ff) at next_in-1:%d +0:%d +1:%d +2:%d"
           " not found:%d\n",
           st.skip_hist[0], st.skip_hist[1], st.skip_hist[2], st.skip_hist[3], st.no_stored);
    printf("   strm.adler == adler32(1, fields) after 2nd Z_BLOCK: %d\n", st.adler_fields_ok);
    printf("   raw decode from next_in right after 2nd Z_BLOCK: libdeflate ok %d, isal ok %d\n",
           st.raw_at2_ld, st.raw_at2_isal);
    printf("   zlib_align (extra Z_BLOCK calls, avail_out 0) reached data_type 128 at the empty"
           " stored block or past it: %d; calls needed 0:%d 1:%d 2:%d 3:%d\n",
           st.third_ok, st.align_calls[0], st.align_calls[1], st.align_calls[2], st.align_calls[3]);
    printf("   manual rule (bits/next_in[0] -> past 00 00 ff ff) finds the rest: %d\n", st.manual_ok);
    printf("   raw decode from there: libdeflate ok %d (in_nbytes ending at trailer: %d);"
           " isal ok %d\n", st.ld_ok, st.ld_tight_ok, st.isal_ok);
    printf("   isal next_in - trailer after finish (bytes 0..8):");
    for (int i = 0; i < 9; i++) printf(" %d:%d", i, st.isal_over[i]);
    printf("; next_in - read_in_length/8 == trailer: %d; avail_in ending at the trailer ok: %d\n",
           st.isal_readin_fix, st.isal_tight_ok);
    char name[128];
    snprintf(name, sizeof name, "Q2 %s: zlib_align + raw libdeflate/ISA-L + adler32", PROD[pi].name);
    int ok = st.n && st.third_ok == st.n && st.ld_ok == st.n &&
             st.ld_tight_ok == st.n && st.isal_ok == st.n && st.adler_fields_ok == st.n &&
             st.no_stored == 0 && st.isal_readin_fix == st.n && st.isal_tight_ok == st.n;
    report(ok, name, "%d/%d streams; raw decode at next_in after only 2 Z_BLOCKs worked for %d (ld) / %d (isal)",
           st.ld_ok < st.isal_ok ? st.ld_ok : st.isal_ok, st.n, st.raw_at2_ld, st.raw_at2_isal);
  }
}

/* ISA-L's own zlib header (gzip_flag = IGZIP_ZLIB) ignores hist_bits */
static void test_isal_native_header(void) {
  page_t *p = &g_pages[0];
  gen_page(p, K_STOCK, 0);
  g_isal_native_zlib_hdr = 1;
  memset(g_stream, 0xa5, sizeof g_stream);
  unsigned len = c_isal(1, p, g_stream, OUTCAP);
  g_isal_native_zlib_hdr = 0;
  int step = staged_zlib_check(g_stream, len, p);
  z_stream s;
  memset(&s, 0, sizeof s);
  inflateInit2(&s, WBITS);
  s.next_in = g_stream;
  s.avail_in = len;
  s.next_out = g_out;
  s.avail_out = sizeof g_out;
  int rc = inflate(&s, Z_BLOCK);
  report(g_stream[0] == 0x78 && step == 2, "G0 isal IGZIP_ZLIB + hist_bits 14 header",
         "header %02x %02x (CINFO 7); inflateInit2(14) + inflate(Z_BLOCK) = %d \"%s\" -> "
         "write the header with isal_write_zlib_header(info 6) + IGZIP_ZLIB_NO_HDR instead",
         g_stream[0], g_stream[1], rc, s.msg ? s.msg : "");
  inflateEnd(&s);
}

/* libdeflate_zlib_compress output: CINFO and whether inflateInit2(14) takes it */
static void test_libdeflate_header(void) {
  page_t *p = &g_pages[0];
  gen_page(p, K_TEXT, 0);
  unsigned len = c_libdeflate(6, p, g_stream, OUTCAP);
  memset(g_stream + len, 0, JUNK);
  int ok14 = d_zlib_whole(g_stream, len, p);
  z_stream s;
  memset(&s, 0, sizeof s);
  inflateInit2(&s, 15);
  s.next_in = g_stream;
  s.avail_in = len;
  s.next_out = g_out;
  s.avail_out = sizeof g_out;
  int ok15 = inflate(&s, Z_FINISH) == Z_STREAM_END;
  inflateEnd(&s);
  report(!ok14 && ok15, "G1 libdeflate_zlib_compress header",
         "CMF %02x (CINFO %u): inflateInit2(14) %s, inflateInit2(15) %s", g_stream[0],
         g_stream[0] >> 4, ok14 ? "accepts" : "rejects (invalid window size)",
         ok15 ? "accepts" : "rejects");
}

/* all decoders used in the benchmark reproduce the page, on every kind */
static void test_decoders(void) {
  int bad = 0, n = 0;
  for (int kind = 0; kind < NKINDS; kind++)
    for (unsigned pg = 0; pg < 3; pg++)
      for (int src = 0; src < 2; src++) {
        page_t *p = &g_pages[0];
        gen_page(p, kind, pg);
        memset(g_stream, 0xa5, sizeof g_stream);
        unsigned len = src ? c_isal(1, p, g_stream, OUTCAP) : c_zlib_innodb(6, p, g_stream, OUTCAP);
        n++;
        int ok = len && d_zlib_whole(g_stream, len, p) && !memcmp(g_out, p->whole, p->whole_len);
        ok = ok && d_zlib_innodb(g_stream, len, p);
        for (unsigned i = 0; ok && i < p->n_pieces; i++)
          ok = !memcmp(g_img_out + p->poff[i], p->image + p->poff[i], p->plen[i]);
        memset(g_img_out, 0, sizeof g_img_out);
        ok = ok && d_hybrid_libdeflate(g_stream, len, p);
        for (unsigned i = 0; ok && i < p->n_pieces; i++)
          ok = !memcmp(g_img_out + p->poff[i], p->image + p->poff[i], p->plen[i]);
        memset(g_img_out, 0, sizeof g_img_out);
        ok = ok && d_hybrid_isal(g_stream, len, p);
        for (unsigned i = 0; ok && i < p->n_pieces; i++)
          ok = !memcmp(g_img_out + p->poff[i], p->image + p->poff[i], p->plen[i]);
        ok = ok && d_libdeflate_zlib(g_stream, len, p) && !memcmp(g_out, p->whole, p->whole_len);
        ok = ok && d_isal_zlib(g_stream, len, p) && !memcmp(g_out, p->whole, p->whole_len);
        if (!ok) bad++;
      }
  report(!bad, "T3 all benchmark decoders reproduce the page", "%d streams, %d failed", n, bad);
}

/* a page without records: the rest is empty (final block with no data) */
static void test_empty_rest(void) {
  int bad = 0, n = 0;
  for (int prod = 0; prod < 6; prod++) {
    page_t *p = &g_pages[0];
    gen_page(p, K_STOCK, 0);
    page_begin(p);
    page_end(p);
    memset(g_stream, 0xa5, sizeof g_stream);
    unsigned len = prod < 2 ? c_zlib_innodb(prod ? 6 : 1, p, g_stream, OUTCAP)
                 : prod < 4 ? c_isal(prod - 2, p, g_stream, OUTCAP)
                            : c_isal_pieces(prod - 3, p, g_stream, OUTCAP);
    n++;
    if (!len || staged_zlib_check(g_stream, len, p) || !d_hybrid_libdeflate(g_stream, len, p) ||
        !d_hybrid_isal(g_stream, len, p))
      bad++;
  }
  report(!bad, "T4 empty rest (page without records)", "%d streams (zlib L1/L6, isal L0/L1 gather, isal L1/L2 piecewise), %d failed", n, bad);
}

/* ------------------------------------------------------------------------ */
/* Timing                                                                   */
/* ------------------------------------------------------------------------ */

static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of g_trials, each g_reps calls cycling over the NP pages; µs per call. */
#define TIME_BEST(result_us, ...)                                              \
  do {                                                                         \
    double best_ = 1e300;                                                      \
    for (int t_ = 0; t_ < g_trials; t_++) {                                    \
      double t0_ = cpu_ns();                                                   \
      for (int r_ = 0; r_ < g_reps; r_++) {                                    \
        int pg = r_ % NP;                                                      \
        (void)pg;                                                              \
        __VA_ARGS__;                                                           \
      }                                                                        \
      double dt_ = cpu_ns() - t0_;                                             \
      if (dt_ < best_) best_ = dt_;                                            \
    }                                                                          \
    (result_us) = best_ / g_reps / 1000.0;                                     \
  } while (0)

typedef unsigned (*cfn_t)(int, const page_t *, uint8_t *, unsigned);
typedef int (*dfn_t)(const uint8_t *, unsigned, const page_t *);

static const struct { const char *name; cfn_t fn; int lvl; } COMPS[] = {
    {"zlib L1 whole (1 call)", c_zlib_whole, 1},
    {"zlib L6 whole (1 call)", c_zlib_whole, 6},
    {"zlib L1 InnoDB pattern", c_zlib_innodb, 1},
    {"zlib L6 InnoDB pattern", c_zlib_innodb, 6},
    {"isal L0 gather", c_isal, 0},
    {"isal L1 gather", c_isal, 1},
    {"isal L2 gather", c_isal, 2},
    {"isal L3 gather", c_isal, 3},
    {"isal L1 piecewise (1 call per piece)", c_isal_pieces, 1},
    {"isal L3 piecewise (1 call per piece)", c_isal_pieces, 3},
    {"libdeflate L1 (ref)", c_libdeflate, 1},
    {"libdeflate L3 (ref)", c_libdeflate, 3},
    {"libdeflate L6 (ref)", c_libdeflate, 6}};
enum { NCOMPS = sizeof COMPS / sizeof COMPS[0] };

static const struct { const char *name; dfn_t fn; } DECS[] = {
    {"zlib whole stream (1 call)", d_zlib_whole},
    {"zlib InnoDB pattern", d_zlib_innodb},
    {"zlib head + libdeflate raw + adler32", d_hybrid_libdeflate},
    {"zlib head + isal raw + adler32", d_hybrid_isal},
    {"libdeflate zlib one-shot (ref)", d_libdeflate_zlib},
    {"isal zlib one-shot (ref)", d_isal_zlib}};
enum { NDECS = sizeof DECS / sizeof DECS[0] };

static double r_cratio[NKINDS][NCOMPS], r_cus[NKINDS][NCOMPS];
static double r_dus[NKINDS][2][NDECS + 3];
static double r_in_bytes[NKINDS], r_pieces[NKINDS];

static uint8_t g_src[2][NP][OUTCAP + JUNK]; /* streams to decompress: zlib L6 / isal L1 */
static unsigned g_src_len[2][NP];
static size_t g_rest_off[2][NP]; /* offset of the raw rest in each stream */
static uint32_t g_fields_adler[2][NP];

static void bench_kind(int kind) {
  static uint8_t out[OUTCAP];
  double inb = 0, pieces = 0;
  for (unsigned pg = 0; pg < NP; pg++) {
    gen_page(&g_pages[pg], kind, pg);
    inb += g_pages[pg].whole_len;
    pieces += g_pages[pg].n_pieces + 1;
  }
  r_in_bytes[kind] = inb / NP;
  r_pieces[kind] = pieces / NP;
  fprintf(stderr, "[%s] compress", KIND_NAME[kind]);
  for (int c = 0; c < NCOMPS; c++) {
    double tot = 0, us;
    for (unsigned pg = 0; pg < NP; pg++) {
      unsigned n = COMPS[c].fn(COMPS[c].lvl, &g_pages[pg], out, OUTCAP);
      if (!n) {
        fprintf(stderr, "compressor %s failed\n", COMPS[c].name);
        exit(1);
      }
      tot += n;
    }
    r_cratio[kind][c] = tot / inb;
    TIME_BEST(us, COMPS[c].fn(COMPS[c].lvl, &g_pages[pg], out, OUTCAP));
    r_cus[kind][c] = us;
    fprintf(stderr, ".");
  }
  /* the streams to decompress */
  for (int src = 0; src < 2; src++)
    for (unsigned pg = 0; pg < NP; pg++) {
      uint8_t *b = g_src[src][pg];
      memset(b, 0xa5, OUTCAP + JUNK);
      g_src_len[src][pg] = src ? c_isal(1, &g_pages[pg], b, OUTCAP)
                               : c_zlib_innodb(6, &g_pages[pg], b, OUTCAP);
      z_stream s;
      if (!zlib_head(&s, b, g_src_len[src][pg], g_out)) abort();
      g_rest_off[src][pg] = (size_t)(s.next_in - b);
      g_fields_adler[src][pg] = (uint32_t)s.adler;
      inflateEnd(&s);
    }
  fprintf(stderr, " decompress");
  for (int src = 0; src < 2; src++) {
    for (int d = 0; d < NDECS; d++) {
      double us;
      for (unsigned pg = 0; pg < NP; pg++)
        if (!DECS[d].fn(g_src[src][pg], g_src_len[src][pg], &g_pages[pg])) {
          fprintf(stderr, "decoder %s failed\n", DECS[d].name);
          exit(1);
        }
      TIME_BEST(us, DECS[d].fn(g_src[src][pg], g_src_len[src][pg], &g_pages[pg]));
      r_dus[kind][src][d] = us;
      fprintf(stderr, ".");
    }
    /* components: the zlib head alone, the raw decoders alone (+adler32) */
    double us;
    size_t n;
    TIME_BEST(us, {
      z_stream s;
      zlib_head(&s, g_src[src][pg], g_src_len[src][pg], g_img_out);
      inflateEnd(&s);
    });
    r_dus[kind][src][NDECS] = us;
    TIME_BEST(us, raw_libdeflate(g_src[src][pg] + g_rest_off[src][pg],
                                 g_src_len[src][pg] + JUNK - g_rest_off[src][pg],
                                 g_fields_adler[src][pg], &n));
    r_dus[kind][src][NDECS + 1] = us;
    TIME_BEST(us, raw_isal(g_src[src][pg] + g_rest_off[src][pg],
                           g_src_len[src][pg] + JUNK - g_rest_off[src][pg],
                           g_fields_adler[src][pg], &n));
    r_dus[kind][src][NDECS + 2] = us;
  }
  fprintf(stderr, "\n");
}

/* Setup costs. Run in a fresh process (main() re-executes itself with -i)
   because glibc malloc's behaviour for these 32..340 KB blocks depends on the
   heap's history: the dynamic mmap threshold and the heap-top trimming.
   Also counts minor page faults per call. fixed_mmap: first call
   mallopt(M_MMAP_THRESHOLD, 128 KB) (as MALLOC_MMAP_THRESHOLD_=131072 would),
   which turns glibc's dynamic threshold off: blocks >= 128 KB that the heap
   cannot serve are mmap()ed and munmap()ed each time. */
static void bench_init_costs(int fixed_mmap) {
  struct row { const char *name; double us, flt; } rows[16];
  int nr = 0;
  struct rusage ru;
  long f0;
  arena_t a = {malloc(INNODB_HEAP), 0, INNODB_HEAP};
  z_stream keep;
  if (fixed_mmap) mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#define INIT_ROW(label, ...)                                                   \
  do {                                                                         \
    getrusage(RUSAGE_SELF, &ru);                                               \
    f0 = ru.ru_minflt;                                                         \
    TIME_BEST(rows[nr].us, __VA_ARGS__);                                       \
    getrusage(RUSAGE_SELF, &ru);                                               \
    rows[nr].flt = (double)(ru.ru_minflt - f0) / (g_trials * g_reps);          \
    rows[nr++].name = label;                                                   \
  } while (0)
#define DEFLATE_INIT_END(strm)                                                 \
  if (deflateInit2(strm, 6, Z_DEFLATED, WBITS, MEMLEVEL, Z_DEFAULT_STRATEGY) != Z_OK) \
    abort();                                                                   \
  deflateEnd(strm)

  INIT_ROW("deflateInit2(14,9)+deflateEnd, default zalloc (malloc/free)", {
    z_stream s;
    memset(&s, 0, sizeof s);
    DEFLATE_INIT_END(&s);
  });
  INIT_ROW("deflateInit2(14,9)+deflateEnd, preallocated arena (bump, reset per page)", {
    z_stream s;
    memset(&s, 0, sizeof s);
    a.used = 0;
    s.zalloc = arena_alloc;
    s.zfree = arena_free;
    s.opaque = &a;
    DEFLATE_INIT_END(&s);
  });
  INIT_ROW("malloc(340 KB)+deflateInit2+deflateEnd+free (InnoDB: mem_heap per page)", {
    arena_t h = {malloc(INNODB_HEAP), 0, INNODB_HEAP};
    z_stream s;
    memset(&s, 0, sizeof s);
    s.zalloc = arena_alloc;
    s.zfree = arena_free;
    s.opaque = &h;
    DEFLATE_INIT_END(&s);
    free(h.base);
  });
  if (fixed_mmap) goto print;
  memset(&keep, 0, sizeof keep);
  deflateInit2(&keep, 6, Z_DEFLATED, WBITS, MEMLEVEL, Z_DEFAULT_STRATEGY);
  INIT_ROW("deflateReset on a kept stream", deflateReset(&keep));
  deflateEnd(&keep);
  INIT_ROW("inflateInit2(14)+inflateEnd, default zalloc", {
    z_stream s;
    memset(&s, 0, sizeof s);
    inflateInit2(&s, WBITS);
    inflateEnd(&s);
  });
  INIT_ROW("isal_deflate_init + set level 3 fields (kept struct + level_buf)", {
    isal_deflate_init(&g_isal);
    g_isal.level = 3;
    g_isal.level_buf = g_isal_lvlbuf[3];
    g_isal.level_buf_size = ISAL_LVLBUF_SIZE[3];
  });
  INIT_ROW("isal_inflate_init (kept struct)", isal_inflate_init(&g_isal_inf));
  INIT_ROW("libdeflate_alloc_compressor(6)+free", libdeflate_free_compressor(libdeflate_alloc_compressor(6)));
  INIT_ROW("libdeflate_alloc_decompressor+free", libdeflate_free_decompressor(libdeflate_alloc_decompressor()));
print:
  if (fixed_mmap) {
    for (int i = 0; i < nr; i++) printf("| %d' | %s, after mallopt(M_MMAP_THRESHOLD, 128 KB) | %.2f | %.1f |\n",
                                        i + 1, rows[i].name, rows[i].us, rows[i].flt);
    free(a.base);
    return;
  }
  printf("\n### Setup costs per page (CPU µs, best of %d x %d; each table part in a fresh process)\n\n",
         g_trials, g_reps);
  printf("| # | operation | µs | minor page faults |\n|---|---|---:|---:|\n");
  for (int i = 0; i < nr; i++)
    printf("| %d | %s | %.2f | %.1f |\n", i + 1, rows[i].name, rows[i].us, rows[i].flt);
  free(a.base);
}

static void print_results(void) {
  printf("\n### Compression: ratio (compressed/original) and µs per page (CPU, best of %d x %d pages)\n\n",
         g_trials, g_reps);
  printf("| method |");
  for (int k = 0; k < NKINDS; k++) printf(" %s ratio | %s µs |", KIND_NAME[k], KIND_NAME[k]);
  printf("\n|---|");
  for (int k = 0; k < NKINDS; k++) printf("---:|---:|");
  printf("\n");
  for (int c = 0; c < NCOMPS; c++) {
    printf("| %s |", COMPS[c].name);
    for (int k = 0; k < NKINDS; k++) printf(" %.3f | %.1f |", r_cratio[k][c], r_cus[k][c]);
    printf("\n");
  }
  printf("\ninput bytes per page (fields + rest):");
  for (int k = 0; k < NKINDS; k++) printf(" %s %.0f,", KIND_NAME[k], r_in_bytes[k]);
  printf(" deflate calls per page (InnoDB pattern):");
  for (int k = 0; k < NKINDS; k++) printf(" %s %.0f,", KIND_NAME[k], r_pieces[k]);
  printf("\n");
  static const char *srcname[2] = {"zlib L6 InnoDB-pattern streams", "isal L1 streams"};
  static const char *extra[3] = {"  component: zlib head only (init, 3 x Z_BLOCK, end)",
                                 "  component: libdeflate raw + adler32 only",
                                 "  component: isal raw + adler32 only"};
  for (int src = 0; src < 2; src++) {
    printf("\n### Decompression of %s: µs per page (CPU, best of %d x %d pages)\n\n",
           srcname[src], g_trials, g_reps);
    printf("| method |");
    for (int k = 0; k < NKINDS; k++) printf(" %s |", KIND_NAME[k]);
    printf("\n|---|");
    for (int k = 0; k < NKINDS; k++) printf("---:|");
    printf("\n");
    for (int d = 0; d < NDECS + 3; d++) {
      printf("| %s |", d < NDECS ? DECS[d].name : extra[d - NDECS]);
      for (int k = 0; k < NKINDS; k++) printf(" %.1f |", r_dus[k][src][d]);
      printf("\n");
    }
  }
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  int tests_only = 0, init_only = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-t")) tests_only = 1;
    else if (!strcmp(argv[i], "-v")) g_verbose = 1;
    else if (!strcmp(argv[i], "-i")) init_only = 1;
    else if (!strcmp(argv[i], "-I")) init_only = 2;
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-k") && i + 1 < argc) g_trials = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [-t] [-v] [-i|-I] [-r PAGES_PER_TRIAL] [-k TRIALS]\n", argv[0]);
      return 2;
    }
  }
  for (int l = 1; l <= 3; l++) g_isal_lvlbuf[l] = malloc(ISAL_LVLBUF_SIZE[l]);
  if (init_only) {
    bench_init_costs(init_only == 2);
    return 0;
  }
  printf("zlib %s, libdeflate %s, ISA-L (igzip_lib.h, libisal)\n", zlibVersion(),
         LIBDEFLATE_VERSION_STRING);
  g_zarena.base = malloc(INNODB_HEAP);
  g_zarena.size = INNODB_HEAP;
  load_corpus();
  for (int l = 1; l <= 12; l++) g_ldc[l] = libdeflate_alloc_compressor(l);
  g_ldd = libdeflate_alloc_decompressor();

  test_q1();
  test_q2();
  test_isal_native_header();
  test_libdeflate_header();
  test_decoders();
  test_empty_rest();
  printf("\n%d passed, %d failed\n", g_pass, g_fail);
  if (tests_only) return g_fail != 0;

  for (int k = 0; k < NKINDS; k++) bench_kind(k);
  print_results();
  /* setup costs, each part in a fresh process (see bench_init_costs) */
  int bad_child = 0;
  for (int part = 0; part < 2; part++) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      char reps[16], trials[16];
      snprintf(reps, sizeof reps, "%d", g_reps);
      snprintf(trials, sizeof trials, "%d", g_trials);
      execl("/proc/self/exe", argv[0], part ? "-I" : "-i", "-r", reps, "-k", trials, (char *)NULL);
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    bad_child |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  }
  printf("\narena bytes used by deflateInit2(14, 9): %zu (InnoDB's heap for it: ~330 KB)\n",
         g_zarena_peak);
  return g_fail != 0 || bad_child;
}
