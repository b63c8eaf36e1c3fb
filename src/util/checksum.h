/*
 * Checksums of data blocks, for fio's verify= (workload/fileio/verify.c): crc32c
 * (dbio's own, table-driven, or the SSE4.2 instruction where the CPU has
 * it), xxhash (XXH64 of Debian's libxxhash) and md5, sha1, sha256, sha512
 * and sha3 (libcrypto of Debian's libssl-dev). A build without one of the
 * libraries has csum_built false for its kinds; the job is refused before
 * anything runs (util/built.c names the package).
 *
 * A worker makes one struct csum in prepare (csum_init: the libcrypto
 * context is allocated there) and sums with it in its loop without
 * allocating.
 */
#ifndef DBIO_UTIL_CHECKSUM_H
#define DBIO_UTIL_CHECKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum csum_kind {
	CSUM_NONE,
	CSUM_CRC32C,
	CSUM_XXH64,
	CSUM_MD5,
	CSUM_SHA1,
	CSUM_SHA256,
	CSUM_SHA512,
	CSUM_SHA3_224,
	CSUM_SHA3_256,
	CSUM_SHA3_384,
	CSUM_SHA3_512,
};

/* The longest sum, in bytes (sha512). */
#define CSUM_MAX 64

struct csum {
	enum csum_kind kind;
	size_t len;	/* bytes of a sum of this kind */
	void *ctx;	/* libcrypto's EVP_MD_CTX, or NULL */
	const void *md; /* libcrypto's EVP_MD, or NULL */
};

/* crc32c (Castagnoli, reflected, RFC 3720) of len bytes, continued from
 * crc (0 to start): crc32c("123456789") is 0xe3069283. csum_crc32c_table
 * always uses the table, for tests of the fast path against it. */
uint32_t csum_crc32c(uint32_t crc, const void *buf, size_t len);
uint32_t csum_crc32c_table(uint32_t crc, const void *buf, size_t len);

/* Whether this build has the kind (its library was there). */
bool csum_built(enum csum_kind kind);

/* Bytes of a sum of kind. */
size_t csum_size(enum csum_kind kind);

/* Set c up for kind; 0, -ENOMEM, or -ENOSYS for a kind this build left
 * out. csum_release frees what it holds, either way. */
int csum_init(struct csum *c, enum csum_kind kind);
void csum_release(struct csum *c);

/* The sum of len bytes at buf into out (c->len bytes, at most CSUM_MAX);
 * 0, or -EIO when libcrypto fails. No allocation. */
int csum_compute(struct csum *c, const void *buf, size_t len, uint8_t *out);

#endif
