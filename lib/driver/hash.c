/* hash.c - the cache's two hashes. SHA-256 (FIPS 180-4) for keys:
 * collisions must not be a practical concern, since a key collision would
 * load another kernel; its inputs are small. XXH64 (Yann Collet's xxHash,
 * 64-bit) for the checksum of a whole entry: it only has to catch
 * truncation and corruption, and it runs at memory speed where plain C
 * SHA-256 manages about 200 MB/s, which would cost a large kernel's first
 * launch milliseconds. */
#include <string.h>

#include "driver/driver.h"

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/* One 64-byte block into the state. */
static void sha_block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           (uint32_t)p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 =
        k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

void drv_sha256_init(drv_sha256 *s) {
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, h0, sizeof h0);
  s->len = 0;
  s->nbuf = 0;
}

void drv_sha256_update(drv_sha256 *s, const void *data, size_t n) {
  const uint8_t *p = data;
  s->len += n;
  if (s->nbuf) {
    size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
    memcpy(s->buf + s->nbuf, p, take);
    s->nbuf += take;
    p += take;
    n -= take;
    if (s->nbuf < 64) return;
    sha_block(s->h, s->buf);
    s->nbuf = 0;
  }
  for (; n >= 64; p += 64, n -= 64)
    sha_block(s->h, p);
  memcpy(s->buf, p, n);
  s->nbuf = n;
}

void drv_sha256_final(drv_sha256 *s, uint8_t out[DRV_DIGEST_LEN]) {
  uint64_t bits = s->len * 8;
  uint8_t pad = 0x80;
  drv_sha256_update(s, &pad, 1);
  pad = 0;
  while (s->nbuf != 56)
    drv_sha256_update(s, &pad, 1);
  uint8_t len[8];
  for (int i = 0; i < 8; i++)
    len[i] = (uint8_t)(bits >> (56 - 8 * i));
  drv_sha256_update(s, len, 8);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 4; j++)
      out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

void drv_sha256_of(const void *data, size_t n, uint8_t out[DRV_DIGEST_LEN]) {
  drv_sha256 s;
  drv_sha256_init(&s);
  drv_sha256_update(&s, data, n);
  drv_sha256_final(&s, out);
}

void drv_hex(const uint8_t *bytes, size_t n, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  out[2 * n] = '\0';
}

/* ---- XXH64 ---------------------------------------------------------------------------- */

static const uint64_t xxh_p1 = 0x9E3779B185EBCA87ull, xxh_p2 = 0xC2B2AE3D27D4EB4Full,
                      xxh_p3 = 0x165667B19E3779F9ull, xxh_p4 = 0x85EBCA77C2B2AE63ull,
                      xxh_p5 = 0x27D4EB2F165667C5ull;

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Little-endian loads, whatever the host. */
static uint64_t read64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static uint32_t read32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t xxh_round(uint64_t acc, uint64_t input) {
  acc += input * xxh_p2;
  return rotl64(acc, 31) * xxh_p1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t v) {
  acc ^= xxh_round(0, v);
  return acc * xxh_p1 + xxh_p4;
}

uint64_t drv_xxh64(const void *data, size_t n, uint64_t seed) {
  const uint8_t *p = data, *end = p + n;
  uint64_t h;
  if (n >= 32) {
    uint64_t v1 = seed + xxh_p1 + xxh_p2, v2 = seed + xxh_p2, v3 = seed, v4 = seed - xxh_p1;
    for (; p + 32 <= end; p += 32) {
      v1 = xxh_round(v1, read64(p));
      v2 = xxh_round(v2, read64(p + 8));
      v3 = xxh_round(v3, read64(p + 16));
      v4 = xxh_round(v4, read64(p + 24));
    }
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xxh_merge(xxh_merge(xxh_merge(xxh_merge(h, v1), v2), v3), v4);
  } else {
    h = seed + xxh_p5;
  }
  h += (uint64_t)n;
  for (; p + 8 <= end; p += 8)
    h = rotl64(h ^ xxh_round(0, read64(p)), 27) * xxh_p1 + xxh_p4;
  if (p + 4 <= end) {
    h = rotl64(h ^ (uint64_t)read32(p) * xxh_p1, 23) * xxh_p2 + xxh_p3;
    p += 4;
  }
  for (; p < end; p++)
    h = rotl64(h ^ *p * xxh_p5, 11) * xxh_p1;
  h ^= h >> 33;
  h *= xxh_p2;
  h ^= h >> 29;
  h *= xxh_p3;
  return h ^ (h >> 32);
}
