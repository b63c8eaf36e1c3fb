/* Checksums of data blocks; see checksum.h. */
#include "util/checksum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef DBIO_HAVE_LIBXXHASH
#include <xxhash.h>
#endif
#ifdef DBIO_HAVE_LIBCRYPTO
#include <openssl/evp.h>
#endif
#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

/* crc32c's table, slicing by 8: table[k][b] is the crc of byte b followed
 * by k zero bytes. Made once, on first use (a pure function of the
 * polynomial, so two threads making it at once write the same values). */
static uint32_t crc_table[8][256];
static _Atomic int crc_table_ready;

static void crc_table_make(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t c = b;

		for (int i = 0; i < 8; i++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_table[0][b] = c;
	}
	for (uint32_t b = 0; b < 256; b++)
		for (int k = 1; k < 8; k++)
			crc_table[k][b] =
				(crc_table[k - 1][b] >> 8) ^ crc_table[0][crc_table[k - 1][b] & 0xff];
	crc_table_ready = 1;
}

uint32_t csum_crc32c_table(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (!crc_table_ready)
		crc_table_make();
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t x;

		memcpy(&x, p, 8);
		x ^= crc; /* little-endian: the crc meets the first four bytes */
		crc = crc_table[7][x & 0xff] ^ crc_table[6][(x >> 8) & 0xff] ^
		      crc_table[5][(x >> 16) & 0xff] ^ crc_table[4][(x >> 24) & 0xff] ^
		      crc_table[3][(x >> 32) & 0xff] ^ crc_table[2][(x >> 40) & 0xff] ^
		      crc_table[1][(x >> 48) & 0xff] ^ crc_table[0][x >> 56];
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = ~crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t x;

		memcpy(&x, p, 8);
		c = _mm_crc32_u64(c, x);
	}
	uint32_t c32 = (uint32_t)c;

	while (len--)
		c32 = _mm_crc32_u8(c32, *p++);
	return ~c32;
}
#endif

uint32_t csum_crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("sse4.2"))
		return crc32c_sse42(crc, buf, len);
#endif
	return csum_crc32c_table(crc, buf, len);
}

#ifdef DBIO_HAVE_LIBCRYPTO
static const EVP_MD *crypto_md(enum csum_kind kind)
{
	switch (kind) {
	case CSUM_MD5:
		return EVP_md5();
	case CSUM_SHA1:
		return EVP_sha1();
	case CSUM_SHA256:
		return EVP_sha256();
	case CSUM_SHA512:
		return EVP_sha512();
	case CSUM_SHA3_224:
		return EVP_sha3_224();
	case CSUM_SHA3_256:
		return EVP_sha3_256();
	case CSUM_SHA3_384:
		return EVP_sha3_384();
	case CSUM_SHA3_512:
		return EVP_sha3_512();
	default:
		return NULL;
	}
}
#endif

bool csum_built(enum csum_kind kind)
{
	switch (kind) {
	case CSUM_NONE:
	case CSUM_CRC32C:
		return true;
	case CSUM_XXH64:
#ifdef DBIO_HAVE_LIBXXHASH
		return true;
#else
		return false;
#endif
	default:
#ifdef DBIO_HAVE_LIBCRYPTO
		return true;
#else
		return false;
#endif
	}
}

size_t csum_size(enum csum_kind kind)
{
	static const size_t sizes[] = {
		[CSUM_NONE] = 0,      [CSUM_CRC32C] = 4,    [CSUM_XXH64] = 8,	  [CSUM_MD5] = 16,
		[CSUM_SHA1] = 20,     [CSUM_SHA256] = 32,   [CSUM_SHA512] = 64,	  [CSUM_SHA3_224] = 28,
		[CSUM_SHA3_256] = 32, [CSUM_SHA3_384] = 48, [CSUM_SHA3_512] = 64,
	};

	return (size_t)kind < sizeof(sizes) / sizeof(sizes[0]) ? sizes[kind] : 0;
}

int csum_init(struct csum *c, enum csum_kind kind)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->len = csum_size(kind);
	if (!csum_built(kind))
		return -ENOSYS;
#ifdef DBIO_HAVE_LIBCRYPTO
	if ((c->md = crypto_md(kind)) && !(c->ctx = EVP_MD_CTX_new()))
		return -ENOMEM;
#endif
	return 0;
}

void csum_release(struct csum *c)
{
#ifdef DBIO_HAVE_LIBCRYPTO
	EVP_MD_CTX_free(c->ctx);
#endif
	c->ctx = NULL;
}

int csum_compute(struct csum *c, const void *buf, size_t len, uint8_t *out)
{
	switch (c->kind) {
	case CSUM_NONE:
		return 0;
	case CSUM_CRC32C: {
		uint32_t crc = csum_crc32c(0, buf, len);

		memcpy(out, &crc, 4);
		return 0;
	}
	case CSUM_XXH64: {
#ifdef DBIO_HAVE_LIBXXHASH
		uint64_t h = XXH64(buf, len, 0);

		memcpy(out, &h, 8);
		return 0;
#else
		return -ENOSYS;
#endif
	}
	default:
#ifdef DBIO_HAVE_LIBCRYPTO
		if (!EVP_DigestInit_ex(c->ctx, c->md, NULL) || !EVP_DigestUpdate(c->ctx, buf, len) ||
		    !EVP_DigestFinal_ex(c->ctx, out, NULL))
			return -EIO;
		return 0;
#else
		return -ENOSYS;
#endif
	}
}
